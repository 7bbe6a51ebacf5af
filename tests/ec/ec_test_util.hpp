// Shared helpers for the ec tests: per-test seeds, random field elements, scalars and
// points (in the subgroup, or merely on the curve by lifting random x without cofactor clearing).
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "ec/ec.hpp"
#include "support/test_seed.hpp"

namespace pp::ec::testing {

// Fresh each run; SCOPED_TRACE(rng.trace()) prints how to replay a failure (support/test_seed.hpp).
using pp::test::test_rng;

// Uniform below the modulus by rejection on the top limb's bit length.
template <class F>
F random_mont_field(test_rng& rng) {
  using P = typename F::params;
  for (;;) {
    uint64_t v[F::n64];
    for (auto& x : v) x = rng.next();
    const int top_bits = P::bits - 64 * (F::n64 - 1);
    v[F::n64 - 1] &= (top_bits == 64) ? ~uint64_t{0} : ((uint64_t{1} << top_bits) - 1);
    F out;
    if (F::from_canonical_checked(v, out)) return out;
  }
}

// A uniformly random element of an Fp (mont_field) or of an Fp2 over one.
template <class F>
F random_field(test_rng& rng) {
  if constexpr (requires { typename F::tower; }) {
    using base = typename F::base;
    return F{random_mont_field<base>(rng), random_mont_field<base>(rng)};
  } else {
    return random_mont_field<F>(rng);
  }
}

// A uniformly random scalar of Fr (BLS12-381's unless told).
template <class Fr = ff::fr>
Fr random_scalar(test_rng& rng) {
  return random_mont_field<Fr>(rng);
}

// A uniformly random point of the order-r subgroup (never infinity in practice).
template <class Curve>
affine<Curve> random_subgroup_point(test_rng& rng) {
  return to_affine(scalar_mul(generator<Curve>(), random_scalar<typename Curve::scalar_field>(rng)));
}

// A random curve point by lifting a random x: outside the subgroup with probability 1 - 1/h.
template <class Curve>
affine<Curve> random_curve_point(test_rng& rng) {
  for (;;) {
    affine<Curve> p;
    if (lift_x<Curve>(random_field<typename Curve::field>(rng), p)) return p;
  }
}

// An x with x^3 + b not a square: no curve point has it.
template <class Curve>
typename Curve::field random_x_off_curve(test_rng& rng) {
  for (;;) {
    const auto x = random_field<typename Curve::field>(rng);
    if (!curve_rhs<Curve>(x).is_square()) return x;
  }
}

// BLS12-381's groups (the zcash encodings are theirs alone), and every group of every family.
using curve_types = ::testing::Types<g1_curve, g2_curve>;
using all_curve_types = ::testing::Types<g1_curve, g2_curve, bn254::g1_curve, bn254::g2_curve>;

// BN254's G1 is all of E(Fp): no point outside the subgroup to test rejections with.
template <class Curve>
inline constexpr bool cofactor_is_one = std::is_same_v<Curve, bn254::g1_curve>;

struct curve_name_generator {
  template <class Curve>
  static std::string GetName(int) {
    return Curve::name;
  }
};

// The sums both curves' oracle tests send, from `ours` = [k]G for k = 0, 1, 2, r-2, r-1 and then 40
// random k (45 points): random pairs, P + P, P + (-P), O + P, P + O, O + O, G + (r-1) G.
template <class C>
struct sum_case {
  affine<C> a, b;
};
template <class C>
std::vector<sum_case<C>> oracle_sum_cases(const std::vector<affine<C>>& ours) {
  std::vector<sum_case<C>> sums;
  for (int i = 0; i < 20; ++i) sums.push_back({ours[5 + i], ours[25 + i]});
  for (int i = 0; i < 5; ++i) sums.push_back({ours[5 + i], ours[5 + i]});
  for (int i = 0; i < 5; ++i) sums.push_back({ours[10 + i], neg(ours[10 + i])});
  sums.push_back({affine<C>::infinity(), ours[7]});
  sums.push_back({ours[8], affine<C>::infinity()});
  sums.push_back({affine<C>::infinity(), affine<C>::infinity()});
  sums.push_back({ours[1], ours[4]});  // G + (r-1) G
  return sums;
}

}  // namespace pp::ec::testing
