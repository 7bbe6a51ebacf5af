// Miller-loop steps on a sextic twist E'(Fp2): y^2 = x^3 + b', in homogeneous projective coordinates
// (x' = X/Z, y' = Y/Z), written once over the curve family (ate_params.hpp gives 3 b'). Each step
// updates T and returns its line, sparse in Fp12. Formulas: Costello, Lange, Naehrig (eprint 2010/354)
// and Aranha et al. (eprint 2010/526 §4); costs in Fp2 M and S. The two twist types produce the same
// three line coefficients and differ only in where they land in Fp12 (mul_by_line).
#pragma once
#include "ec/curve_family.hpp"
#include "ff/fp12.hpp"
#include "pairing/ate_params.hpp"

namespace pp::pairing {

template <class T>
struct twist_projective_t {
  ff::fp2_t<T> x, y, z;
};

// A line through points of E' mapped to E, scaled by an Fp2 factor and a power of w (both vanish in
// the final exponentiation): l(P) = c + (cx xP) w^a + (cy yP) w^b, with c at w^0, cx xP at w^2 and
// cy yP at w^3 for the M-type twist ((x', y') -> (x'/w^2, y'/w^3), times w^3), and cy yP at w^0,
// cx xP at w^1 and c at w^3 for the D-type ((x', y') -> (x' w^2, y' w^3)).
template <class T>
struct line_coeffs_t {
  ff::fp2_t<T> c, cx, cy;
};

// T <- 2T and the tangent line at T: 3M + 6S (BLS12-381; one more M where 3b' is a general constant).
// With B = Y^2, C = Z^2, E = 3b'C, F = 3E, H = 2YZ: 4 X3 = 2XY(B - F), 4 Y3 = (B + F)^2 - 12 E^2,
// 4 Z3 = 4 B H (the factor 4 saves two halvings), and line = (E - B) + 3X^2 xP - H yP (the tangent
// slope 3X^2/(2YZ), scaled by -2YZ).
template <class Family, class T>
PP_HD line_coeffs_t<T> doubling_step(twist_projective_t<T>& t) {
  using fp2 = ff::fp2_t<T>;
  const fp2 b = t.y.sqr();
  const fp2 c = t.z.sqr();
  const fp2 e = ate_params<Family>::mul_by_3b(c);
  const fp2 f = e + e + e;
  const fp2 h = (t.y + t.z).sqr() - b - c;
  const fp2 j = t.x.sqr();
  const fp2 e2 = e.sqr();
  const fp2 e2_4 = e2.dbl().dbl();
  line_coeffs_t<T> l{e - b, j + j + j, -h};
  t.x = (t.x * t.y).dbl() * (b - f);
  t.y = (b + f).sqr() - e2_4 - e2_4 - e2_4;
  t.z = (b * h).dbl().dbl();
  return l;
}

// T <- T + Q for affine Q and the chord through T and Q: 11M + 2S. With theta = Y - yQ Z,
// lambda = X - xQ Z (slope theta/lambda): H = lambda^3 + Z theta^2 - 2 X lambda^2,
// X3 = lambda H, Y3 = theta (X lambda^2 - H) - Y lambda^3, Z3 = Z lambda^3, and
// line = (theta xQ - lambda yQ) - theta xP + lambda yP. Needs T != +-Q (true inside the loop).
template <class T>
PP_HD line_coeffs_t<T> addition_step(twist_projective_t<T>& t, const ff::fp2_t<T>& qx, const ff::fp2_t<T>& qy) {
  using fp2 = ff::fp2_t<T>;
  const fp2 theta = t.y - qy * t.z;
  const fp2 lambda = t.x - qx * t.z;
  const fp2 c = theta.sqr();
  const fp2 d = lambda.sqr();
  const fp2 e = lambda * d;
  const fp2 f = t.z * c;
  const fp2 g = t.x * d;
  const fp2 h = e + f - g.dbl();
  line_coeffs_t<T> l{theta * qx - lambda * qy, -theta, lambda};
  t.x = lambda * h;
  t.y = theta * (g - h) - e * t.y;
  t.z = t.z * e;
  return l;
}

// f * l(P): the line's Fp2 coefficients times P's Fp coordinates (4 Fp M), then the sparse product
// for the family's twist type.
template <class Family, class T>
PP_HD ff::fp12_t<T> mul_by_line(const ff::fp12_t<T>& f, const line_coeffs_t<T>& l, const typename T::fp& px,
                                const typename T::fp& py) {
  if constexpr (Family::g2_curve::twist == ec::twist_type::m) {
    return f.mul_by_014(l.c, l.cx * px, l.cy * py);
  } else {
    return f.mul_by_034(l.cy * py, l.cx * px, l.c);
  }
}

}  // namespace pp::pairing
