// xyzz<Curve>: extended Jacobian (X : Y : ZZ : ZZZ) with x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2;
// infinity has ZZ = ZZZ = 0. The MSM bucket representation: mixed addition costs 8M + 2S.
// Formulas: EFD hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html (add-2008-s, madd-2008-s,
// dbl-2008-s-1, mdbl-2008-s-1), a = 0.
#pragma once
#include "ec/jacobian.hpp"

namespace pp::ec {

template <class Curve>
struct xyzz {
  using curve = Curve;
  using field = typename Curve::field;
  field x, y, zz, zzz;

  PP_HD static xyzz infinity() { return xyzz{field::one(), field::one(), field::zero(), field::zero()}; }
};

using g1_xyzz = xyzz<g1_curve>;
using g2_xyzz = xyzz<g2_curve>;
static_assert(sizeof(g1_xyzz) == 192);
static_assert(sizeof(g2_xyzz) == 384);

template <class Curve>
PP_HD bool is_infinity(const xyzz<Curve>& p) {
  return p.zz.is_zero();
}

template <class Curve>
PP_HD xyzz<Curve> neg(const xyzz<Curve>& p) {
  return xyzz<Curve>{p.x, -p.y, p.zz, p.zzz};
}

template <class Curve>
PP_HD xyzz<Curve> to_xyzz(const affine<Curve>& p) {
  if (is_infinity(p)) return xyzz<Curve>::infinity();
  return xyzz<Curve>{p.x, p.y, Curve::field::one(), Curve::field::one()};
}

// (X, Y, Z) -> (X, Y, Z^2, Z^3): 1M + 1S.
template <class Curve>
PP_HD xyzz<Curve> to_xyzz(const jacobian<Curve>& p) {
  if (is_infinity(p)) return xyzz<Curve>::infinity();
  const auto zz = p.z.sqr();
  return xyzz<Curve>{p.x, p.y, zz, zz * p.z};
}

// Without an inversion: take Z' = ZZZ, so X' = X ZZ^2 and Y' = Y ZZZ^2 (using ZZ^3 = ZZZ^2). 2M + 2S.
template <class Curve>
PP_HD jacobian<Curve> to_jacobian(const xyzz<Curve>& p) {
  if (is_infinity(p)) return jacobian<Curve>::infinity();
  return jacobian<Curve>{p.x * p.zz.sqr(), p.y * p.zzz.sqr(), p.zzz};
}

// One inversion of ZZ*ZZZ gives both 1/ZZ = ZZZ/(ZZ ZZZ) and 1/ZZZ = ZZ/(ZZ ZZZ).
template <class Curve>
PP_HD affine<Curve> to_affine(const xyzz<Curve>& p) {
  if (is_infinity(p)) return affine<Curve>::infinity();
  const auto inv = (p.zz * p.zzz).inverse();
  return affine<Curve>{p.x * (inv * p.zzz), p.y * (inv * p.zz)};
}

// Same point: X1 ZZ2 == X2 ZZ1 and Y1 ZZZ2 == Y2 ZZZ1.
template <class Curve>
PP_HD bool operator==(const xyzz<Curve>& a, const xyzz<Curve>& b) {
  const bool ia = is_infinity(a), ib = is_infinity(b);
  if (ia || ib) return ia && ib;
  return a.x * b.zz == b.x * a.zz && a.y * b.zzz == b.y * a.zzz;
}

// dbl-2008-s-1 with a = 0: 6M + 3S. Infinity (ZZ = 0) stays infinity.
template <class Curve>
PP_HD xyzz<Curve> dbl(const xyzz<Curve>& p) {
  using F = typename Curve::field;
  const F u = p.y.dbl();
  const F v = u.sqr();
  const F w = u * v;
  const F s = p.x * v;
  const F x2 = p.x.sqr();
  const F m = x2.dbl() + x2;
  const F x3 = m.sqr() - s.dbl();
  const F y3 = F::mul_sub(m, s - x3, w, p.y);
  return xyzz<Curve>{x3, y3, v * p.zz, w * p.zzz};
}

// mdbl-2008-s-1 (doubling an affine point, ZZ = ZZZ = 1) with a = 0: 4M + 3S.
template <class Curve>
PP_HD xyzz<Curve> dbl(const affine<Curve>& p) {
  using F = typename Curve::field;
  if (is_infinity(p)) return xyzz<Curve>::infinity();
  const F u = p.y.dbl();
  const F v = u.sqr();
  const F w = u * v;
  const F s = p.x * v;
  const F x2 = p.x.sqr();
  const F m = x2.dbl() + x2;
  const F x3 = m.sqr() - s.dbl();
  const F y3 = F::mul_sub(m, s - x3, w, p.y);
  return xyzz<Curve>{x3, y3, v, w};
}

// add-2008-s: 12M + 2S. EFD names: h = P, rr = R, hh = PP, hhh = PPP, v = Q.
// P = Q falls back to dbl, P = -Q gives infinity.
template <class Curve>
PP_HD xyzz<Curve> add(const xyzz<Curve>& p, const xyzz<Curve>& q) {
  using F = typename Curve::field;
  if (is_infinity(p)) return q;
  if (is_infinity(q)) return p;
  const F u1 = p.x * q.zz;
  const F u2 = q.x * p.zz;
  const F s1 = p.y * q.zzz;
  const F s2 = q.y * p.zzz;
  const F h = u2 - u1;
  const F rr = s2 - s1;
  if (h.is_zero()) return rr.is_zero() ? dbl(p) : xyzz<Curve>::infinity();
  const F hh = h.sqr();
  const F hhh = h * hh;
  const F v = u1 * hh;
  const F x3 = rr.sqr() - hhh - v.dbl();
  const F y3 = F::mul_sub(rr, v - x3, s1, hhh);
  return xyzz<Curve>{x3, y3, p.zz * q.zz * hh, p.zzz * q.zzz * hhh};
}

// madd-2008-s (ZZ2 = ZZZ2 = 1): 8M + 2S. Handles an infinite affine q, P = Q and P = -Q.
template <class Curve>
PP_HD xyzz<Curve> add(const xyzz<Curve>& p, const affine<Curve>& q) {
  using F = typename Curve::field;
  if (is_infinity(q)) return p;
  if (is_infinity(p)) return to_xyzz(q);
  const F u2 = q.x * p.zz;
  const F s2 = q.y * p.zzz;
  const F h = u2 - p.x;
  const F rr = s2 - p.y;
  if (h.is_zero()) return rr.is_zero() ? dbl(q) : xyzz<Curve>::infinity();
  const F hh = h.sqr();
  const F hhh = h * hh;
  const F v = p.x * hh;
  const F x3 = rr.sqr() - hhh - v.dbl();
  const F y3 = F::mul_sub(rr, v - x3, p.y, hhh);
  return xyzz<Curve>{x3, y3, p.zz * hh, p.zzz * hhh};
}

template <class Curve>
PP_HD xyzz<Curve> madd(const xyzz<Curve>& p, const affine<Curve>& q) {
  return add(p, q);
}

}  // namespace pp::ec
