// Miller-loop steps on the M-type twist E'(Fp2): y^2 = x^3 + b', b' = 4(1 + u), in homogeneous
// projective coordinates (x' = X/Z, y' = Y/Z). Each step updates T and returns its line, sparse in
// Fp12 at w^0, w^2, w^3 (fp12::mul_by_014). Formulas: Costello, Lange, Naehrig (eprint 2010/354)
// and Aranha et al. (eprint 2010/526 §4), re-derived for the M-type twist; costs in Fp2 M and S.
#pragma once
#include "ff/fp12.hpp"

namespace pp::pairing {

struct twist_projective {
  ff::fp2 x, y, z;
};

// A line through points of E' mapped to E by (x', y') -> (x'/w^2, y'/w^3), scaled by w^3 and an Fp2
// factor (both vanish in the final exponentiation): l(P) = c0 + (c1 xP) w^2 + (c4 yP) w^3.
struct line_coeffs {
  ff::fp2 c0, c1, c4;
};

// 3 b' Z^2 with b' = 4 xi: 12 (xi Z^2), by additions.
PP_HD ff::fp2 mul_by_3b(const ff::fp2& a) {
  const ff::fp2 t = a.mul_by_nonresidue().dbl().dbl();
  return t + t + t;
}

// T <- 2T and the tangent line at T: 3M + 6S. With B = Y^2, C = Z^2, E = 3b'C, F = 3E, H = 2YZ:
// 4 X3 = 2XY(B - F), 4 Y3 = (B + F)^2 - 12 E^2, 4 Z3 = 4 B H (the factor 4 saves two halvings), and
// line = (E - B) + 3X^2 xP w^2 - H yP w^3 (the tangent slope 3X^2/(2YZ), scaled by -2YZ).
PP_HD line_coeffs doubling_step(twist_projective& t) {
  const ff::fp2 b = t.y.sqr();
  const ff::fp2 c = t.z.sqr();
  const ff::fp2 e = mul_by_3b(c);
  const ff::fp2 f = e + e + e;
  const ff::fp2 h = (t.y + t.z).sqr() - b - c;
  const ff::fp2 j = t.x.sqr();
  const ff::fp2 e2 = e.sqr();
  const ff::fp2 e2_4 = e2.dbl().dbl();
  line_coeffs l{e - b, j + j + j, -h};
  t.x = (t.x * t.y).dbl() * (b - f);
  t.y = (b + f).sqr() - e2_4 - e2_4 - e2_4;
  t.z = (b * h).dbl().dbl();
  return l;
}

// T <- T + Q for affine Q and the chord through T and Q: 11M + 2S. With theta = Y - yQ Z,
// lambda = X - xQ Z (slope theta/lambda): H = lambda^3 + Z theta^2 - 2 X lambda^2,
// X3 = lambda H, Y3 = theta (X lambda^2 - H) - Y lambda^3, Z3 = Z lambda^3, and
// line = (theta xQ - lambda yQ) - theta xP w^2 + lambda yP w^3. Needs T != +-Q (true inside the loop).
PP_HD line_coeffs addition_step(twist_projective& t, const ff::fp2& qx, const ff::fp2& qy) {
  const ff::fp2 theta = t.y - qy * t.z;
  const ff::fp2 lambda = t.x - qx * t.z;
  const ff::fp2 c = theta.sqr();
  const ff::fp2 d = lambda.sqr();
  const ff::fp2 e = lambda * d;
  const ff::fp2 f = t.z * c;
  const ff::fp2 g = t.x * d;
  const ff::fp2 h = e + f - g.dbl();
  line_coeffs l{theta * qx - lambda * qy, -theta, lambda};
  t.x = lambda * h;
  t.y = theta * (g - h) - e * t.y;
  t.z = t.z * e;
  return l;
}

// f * l(P): the line's Fp2 coefficients times P's Fp coordinates (4 Fp M), then the sparse product.
PP_HD ff::fp12 mul_by_line(const ff::fp12& f, const line_coeffs& l, const ff::fp& px, const ff::fp& py) {
  return f.mul_by_014(l.c0, l.c1 * px, l.c4 * py);
}

}  // namespace pp::pairing
