// affine<Curve>: the storage form of a point (what lives in key files, host memory and crosses
// PCIe). The point at infinity is stored as x = y = 0, as in snarkjs zkeys; (0, 0) is never on
// y^2 = x^3 + b since b != 0, so the encoding is unambiguous.
#pragma once
#include "ec/bls12_381_curves.hpp"

namespace pp::ec {

template <class Curve>
struct affine {
  using curve = Curve;
  using field = typename Curve::field;
  field x, y;

  PP_HD static constexpr affine infinity() { return affine{field::zero(), field::zero()}; }
};

using g1_affine = affine<g1_curve>;
using g2_affine = affine<g2_curve>;
static_assert(sizeof(g1_affine) == 96, "G1 affine storage is two 48-byte Fp elements");
static_assert(sizeof(g2_affine) == 192, "G2 affine storage is two 96-byte Fp2 elements");

template <class Curve>
PP_HD bool is_infinity(const affine<Curve>& p) {
  return p.x.is_zero() && p.y.is_zero();
}

// Exact equality of stored coordinates (affine form is unique).
template <class Curve>
PP_HD bool operator==(const affine<Curve>& a, const affine<Curve>& b) {
  return a.x == b.x && a.y == b.y;
}

template <class Curve>
PP_HD affine<Curve> neg(const affine<Curve>& p) {
  if (is_infinity(p)) return p;
  return affine<Curve>{p.x, -p.y};
}

template <class Curve>
PP_HD affine<Curve> generator() {
  return affine<Curve>{Curve::generator_x(), Curve::generator_y()};
}

// x^3 + b: the right-hand side of the curve equation.
template <class Curve>
PP_HD typename Curve::field curve_rhs(const typename Curve::field& x) {
  return x.sqr() * x + Curve::b();
}

// y^2 == x^3 + b, with infinity counted as on the curve. Says nothing about the subgroup.
template <class Curve>
PP_HD bool is_on_curve(const affine<Curve>& p) {
  if (is_infinity(p)) return true;
  return p.y.sqr() == curve_rhs<Curve>(p.x);
}

// Some point with this x (either sign of y), if x^3 + b is a square. Used by decompression and,
// without cofactor clearing, to make curve points outside the prime-order subgroup for tests.
template <class Curve>
PP_HD bool lift_x(const typename Curve::field& x, affine<Curve>& out) {
  typename Curve::field y;
  if (!ff::sqrt(curve_rhs<Curve>(x), y)) return false;
  out = affine<Curve>{x, y};
  return true;
}

}  // namespace pp::ec
