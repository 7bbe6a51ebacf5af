// Scalar multiplication [k]P for a scalar of the curve's Fr (canonical integer) and for raw
// little-endian limb exponents (subgroup checks multiply by r and by the seed |x|). Variable time: for
// public data (keys, proofs), never for secrets.
#pragma once
#include <cstdint>

#include "ec/jacobian.hpp"
#include "ff/limbs.hpp"

namespace pp::ec {

namespace detail {
// Left-to-right double-and-add from the top set bit of e: bits(e) dbl + popcount(e) add. Base is a
// Jacobian point (full adds) or an affine one (mixed adds, madd-2007-bl).
template <class Curve, class Base>
PP_HD jacobian<Curve> double_and_add(const Base& p, const uint64_t* e, int n) {
  jacobian<Curve> acc = jacobian<Curve>::infinity();
  int i = 64 * n - 1;
  while (i >= 0 && !((e[i >> 6] >> (i & 63)) & 1)) --i;
  for (; i >= 0; --i) {
    acc = dbl(acc);
    if ((e[i >> 6] >> (i & 63)) & 1) acc = add(acc, p);
  }
  return acc;
}
}  // namespace detail

// [e]P for an exponent of n little-endian 64-bit limbs.
template <class Curve>
PP_HD jacobian<Curve> mul_limbs(const jacobian<Curve>& p, const uint64_t* e, int n) {
  return detail::double_and_add<Curve>(p, e, n);
}

// Same with an affine base, so every addition is a mixed one.
template <class Curve>
PP_HD jacobian<Curve> mul_limbs(const affine<Curve>& p, const uint64_t* e, int n) {
  return detail::double_and_add<Curve>(p, e, n);
}

// [k]P, double-and-add over the canonical form of k (~255 dbl + ~128 add).
template <class Curve>
PP_HD jacobian<Curve> scalar_mul(const jacobian<Curve>& p, const typename Curve::scalar_field& k) {
  using fr = typename Curve::scalar_field;
  uint64_t c[fr::n64];
  k.to_canonical(c);
  return mul_limbs(p, c, fr::n64);
}

template <class Curve>
PP_HD jacobian<Curve> scalar_mul(const affine<Curve>& p, const typename Curve::scalar_field& k) {
  using fr = typename Curve::scalar_field;
  uint64_t c[fr::n64];
  k.to_canonical(c);
  return mul_limbs(p, c, fr::n64);
}

// [k]P with a width-W NAF (W = 5: nonzero digits are odd, |d| < 16, on average one in W + 1
// positions): 2^(W-2) table points, then ~255 dbl + ~43 add instead of ~128 add.
template <class Curve, int W = 5>
PP_HD jacobian<Curve> scalar_mul_wnaf(const jacobian<Curve>& p, const typename Curve::scalar_field& k) {
  static_assert(W >= 2 && W <= 7);
  using fr = typename Curve::scalar_field;
  constexpr int n_limbs = fr::n64 + 1;  // one spare limb: k - d with d < 0 may carry past 2^255
  constexpr int table_size = 1 << (W - 2);
  constexpr int64_t window = int64_t{1} << W;
  uint64_t c[n_limbs] = {};
  k.to_canonical(c);

  int8_t digits[64 * fr::n64 + 1];
  int n_digits = 0;
  while (!ff::limbs::is_zero<n_limbs>(c)) {
    int64_t d = 0;
    if (c[0] & 1) {
      d = static_cast<int64_t>(c[0] & (window - 1));
      if (d >= window / 2) d -= window;
      // c -= d; afterwards c is divisible by 2^W, so the next W - 1 digits are zero.
      uint64_t delta[n_limbs] = {static_cast<uint64_t>(d > 0 ? d : -d)};
      if (d > 0) {
        ff::limbs::sub<n_limbs>(c, c, delta);
      } else {
        ff::limbs::add<n_limbs>(c, c, delta);
      }
    }
    digits[n_digits++] = static_cast<int8_t>(d);
    for (int i = 0; i < n_limbs - 1; ++i) c[i] = (c[i] >> 1) | (c[i + 1] << 63);
    c[n_limbs - 1] >>= 1;
  }

  jacobian<Curve> table[table_size];  // table[i] = (2i + 1) P
  table[0] = p;
  const jacobian<Curve> p2 = dbl(p);
  for (int i = 1; i < table_size; ++i) table[i] = add(table[i - 1], p2);

  jacobian<Curve> acc = jacobian<Curve>::infinity();
  for (int i = n_digits - 1; i >= 0; --i) {
    acc = dbl(acc);
    const int d = digits[i];
    if (d > 0) acc = add(acc, table[d >> 1]);
    if (d < 0) acc = add(acc, neg(table[(-d) >> 1]));
  }
  return acc;
}

}  // namespace pp::ec
