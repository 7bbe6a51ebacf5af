// Helpers for the formats tests that run on both curve families (typed suites): the type lists,
// "the other curve" of a family, and random witnesses and constraint systems over either Fr.
#pragma once
#include <gtest/gtest.h>

#include <string>
#include <type_traits>
#include <vector>

#include "ec/curve_id.hpp"
#include "ec/ec_test_util.hpp"
#include "r1cs/constraint_system_builder.hpp"

namespace pp::formats::testing {

using ec::testing::test_rng;

using families = ::testing::Types<ec::bls12_381::family, ec::bn254::family>;

template <class Family>
using other_family =
    std::conditional_t<std::is_same_v<Family, ec::bn254::family>, ec::bls12_381::family, ec::bn254::family>;

template <class Family>
inline constexpr ec::curve_id curve_of = ec::curve_id_of<Family>;

// What a curve peek (read_*_curve) returned: `want`, or a failure naming what came instead.
template <class R>
::testing::AssertionResult is_curve(const R& r, ec::curve_id want) {
  if (!r.ok()) return ::testing::AssertionFailure() << "error: " << r.error().to_string();
  if (r.value() != want) return ::testing::AssertionFailure() << "curve " << ec::curve_name(r.value());
  return ::testing::AssertionSuccess();
}

struct family_name_generator {
  template <class Family>
  static std::string GetName(int) {
    return Family::name;
  }
};

// 0, 1, -1 and uniform values, a quarter each.
template <class Fr>
Fr special_or_random(test_rng& rng) {
  switch (rng.next() % 4) {
    case 0: return Fr::zero();
    case 1: return Fr::one();
    case 2: return -Fr::one();
    default: return ec::testing::random_scalar<Fr>(rng);
  }
}

// A witness-shaped vector: w[0] = 1, the rest special_or_random.
template <class Fr>
std::vector<Fr> random_witness(test_rng& rng, std::size_t n) {
  std::vector<Fr> w(n);
  for (Fr& x : w) x = special_or_random<Fr>(rng);
  if (n > 0) w[0] = Fr::one();
  return w;
}

// `rows` constraints of up to max_terms terms per matrix (repeated variables and zero coefficients
// included, as circom may write them).
template <class Fr>
r1cs::basic_constraint_system<Fr> random_system(test_rng& rng, uint64_t rows, uint64_t num_public, uint64_t num_aux,
                                                unsigned max_terms) {
  r1cs::basic_constraint_system_builder<Fr> b(num_public, num_aux);
  auto lc = [&] {
    std::vector<r1cs::basic_term<Fr>> out(rng.next() % (max_terms + 1));
    for (auto& t : out) t = {static_cast<uint32_t>(rng.next() % b.num_variables()), special_or_random<Fr>(rng)};
    return out;
  };
  for (uint64_t i = 0; i < rows; ++i) {
    const auto a = lc(), bb = lc(), c = lc();
    EXPECT_TRUE(b.add_constraint(a, bb, c).ok());
  }
  return std::move(b).build().value();
}

}  // namespace pp::formats::testing
