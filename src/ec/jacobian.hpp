// jacobian<Curve>: register form (X : Y : Z) with x = X/Z^2, y = Y/Z^3; infinity has Z = 0.
// Formulas for a = 0 from the EFD (hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html),
// written once over the curve's field; the GPU backend uses them unchanged.
#pragma once
#include "ec/affine.hpp"

namespace pp::ec {

template <class Curve>
struct jacobian {
  using curve = Curve;
  using field = typename Curve::field;
  field x, y, z;

  PP_HD static jacobian infinity() { return jacobian{field::one(), field::one(), field::zero()}; }
};

using g1_jacobian = jacobian<g1_curve>;
using g2_jacobian = jacobian<g2_curve>;
static_assert(sizeof(g1_jacobian) == 144);
static_assert(sizeof(g2_jacobian) == 288);

template <class Curve>
PP_HD bool is_infinity(const jacobian<Curve>& p) {
  return p.z.is_zero();
}

template <class Curve>
PP_HD jacobian<Curve> neg(const jacobian<Curve>& p) {
  return jacobian<Curve>{p.x, -p.y, p.z};
}

template <class Curve>
PP_HD jacobian<Curve> to_jacobian(const affine<Curve>& p) {
  if (is_infinity(p)) return jacobian<Curve>::infinity();
  return jacobian<Curve>{p.x, p.y, Curve::field::one()};
}

// One inversion: x = X/Z^2, y = Y/Z^3.
template <class Curve>
PP_HD affine<Curve> to_affine(const jacobian<Curve>& p) {
  if (is_infinity(p)) return affine<Curve>::infinity();
  const auto zi = p.z.inverse();
  const auto zi2 = zi.sqr();
  return affine<Curve>{p.x * zi2, p.y * zi2 * zi};
}

// Same point, different representatives: X1 Z2^2 == X2 Z1^2 and Y1 Z2^3 == Y2 Z1^3.
template <class Curve>
PP_HD bool operator==(const jacobian<Curve>& a, const jacobian<Curve>& b) {
  const bool ia = is_infinity(a), ib = is_infinity(b);
  if (ia || ib) return ia && ib;
  const auto za2 = a.z.sqr(), zb2 = b.z.sqr();
  if (a.x * zb2 != b.x * za2) return false;
  return a.y * zb2 * b.z == b.y * za2 * a.z;
}

// dbl-2009-l: 2M + 5S. Infinity (Z = 0) maps to Z3 = 0.
template <class Curve>
PP_HD jacobian<Curve> dbl(const jacobian<Curve>& p) {
  using F = typename Curve::field;
  const F a = p.x.sqr();
  const F b = p.y.sqr();
  const F c = b.sqr();
  const F d = ((p.x + b).sqr() - a - c).dbl();
  const F e = a.dbl() + a;
  const F f = e.sqr();
  const F x3 = f - d.dbl();
  const F c8 = c.dbl().dbl().dbl();
  return jacobian<Curve>{x3, e * (d - x3) - c8, (p.y * p.z).dbl()};
}

// add-2007-bl: 11M + 5S. Falls back to dbl when P = Q and returns infinity when P = -Q.
template <class Curve>
PP_HD jacobian<Curve> add(const jacobian<Curve>& p, const jacobian<Curve>& q) {
  using F = typename Curve::field;
  if (is_infinity(p)) return q;
  if (is_infinity(q)) return p;
  const F z1z1 = p.z.sqr();
  const F z2z2 = q.z.sqr();
  const F u1 = p.x * z2z2;
  const F u2 = q.x * z1z1;
  const F s1 = p.y * q.z * z2z2;
  const F s2 = q.y * p.z * z1z1;
  const F h = u2 - u1;
  const F rr = (s2 - s1).dbl();
  if (h.is_zero()) return rr.is_zero() ? dbl(p) : jacobian<Curve>::infinity();
  const F i = h.dbl().sqr();
  const F j = h * i;
  const F v = u1 * i;
  const F x3 = rr.sqr() - j - v.dbl();
  const F y3 = rr * (v - x3) - (s1 * j).dbl();
  const F z3 = ((p.z + q.z).sqr() - z1z1 - z2z2) * h;
  return jacobian<Curve>{x3, y3, z3};
}

// madd-2007-bl (Z2 = 1): 7M + 4S. Handles an infinite affine q, P = Q and P = -Q.
template <class Curve>
PP_HD jacobian<Curve> add(const jacobian<Curve>& p, const affine<Curve>& q) {
  using F = typename Curve::field;
  if (is_infinity(q)) return p;
  if (is_infinity(p)) return to_jacobian(q);
  const F z1z1 = p.z.sqr();
  const F u2 = q.x * z1z1;
  const F s2 = q.y * p.z * z1z1;
  const F h = u2 - p.x;
  const F rr = (s2 - p.y).dbl();
  if (h.is_zero()) return rr.is_zero() ? dbl(p) : jacobian<Curve>::infinity();
  const F hh = h.sqr();
  const F i = hh.dbl().dbl();
  const F j = h * i;
  const F v = p.x * i;
  const F x3 = rr.sqr() - j - v.dbl();
  const F y3 = rr * (v - x3) - (p.y * j).dbl();
  const F z3 = (p.z + h).sqr() - z1z1 - hh;
  return jacobian<Curve>{x3, y3, z3};
}

template <class Curve>
PP_HD jacobian<Curve> madd(const jacobian<Curve>& p, const affine<Curve>& q) {
  return add(p, q);
}

}  // namespace pp::ec
