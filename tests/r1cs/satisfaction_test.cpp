// Satisfaction: satisfied systems pass; broken ones name the lowest failing constraint.
#include "r1cs/satisfaction.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "random_system.hpp"
#include "support/status_matchers.hpp"

namespace pp::r1cs {
namespace {

using ff::fr;

TEST(Satisfaction, SyntheticSystemsAreSatisfied) {
  uint64_t seed = testing::test_seed();
  for (uint64_t m : {0, 1, 2, 1000, 30000}) {
    synthetic_params p;
    p.num_constraints = m;
    p.seed = seed++;
    auto c = make_synthetic(p);
    ASSERT_THAT(c, IsOk());
    EXPECT_THAT(check_satisfied(c->cs, c->w), IsOk());
  }
}

TEST(Satisfaction, NamesFirstFailingConstraint) {
  uint64_t seed = testing::test_seed();
  std::mt19937_64 g(seed);
  synthetic_params p;
  p.num_constraints = 20000;
  p.seed = seed;
  auto c = make_synthetic(p);
  ASSERT_THAT(c, IsOk());
  for (int trial = 0; trial < 6; ++trial) {
    // Break a few random rows by adding 1 to <C,w>: C's last entry moves to the constant 1 with
    // its old value plus 1 as coefficient.
    std::vector<std::size_t> broken;
    for (int k = 0; k < 1 + trial; ++k) broken.push_back(g() % p.num_constraints);
    if (trial == 0) broken = {0};
    if (trial == 1) broken = {p.num_constraints - 1};
    csr_matrix cm = c->cs.c();
    for (std::size_t r : broken) {
      const uint64_t k = cm.row_ptr[r + 1] - 1;
      cm.coeffs[k] = cm.coeffs[k] * c->w[cm.cols[k]] + fr::one();
      cm.cols[k] = 0;
    }
    auto bad = constraint_system::make(c->cs.num_public(), c->cs.num_aux(), c->cs.a(), c->cs.b(), cm);
    ASSERT_THAT(bad, IsOk());
    const status s = check_satisfied(*bad, c->w);
    const std::size_t first = *std::min_element(broken.begin(), broken.end());
    EXPECT_EQ(s.code(), status_code::invalid_argument);
    EXPECT_EQ(s.message().rfind("constraint " + std::to_string(first) + " is not satisfied: <A,w>*<B,w> != <C,w> (", 0), 0u)
        << s.message();
  }
}

TEST(Satisfaction, WitnessChecks) {
  synthetic_params p;
  p.num_constraints = 10;
  p.num_public = 2;
  p.num_aux = 3;
  auto c = make_synthetic(p);
  ASSERT_THAT(c, IsOk());
  std::vector<fr> w = c->w;
  w.push_back(fr::zero());  // a witness from a different circuit
  status s = check_satisfied(c->cs, w);
  EXPECT_EQ(s.code(), status_code::invalid_argument);
  EXPECT_EQ(s.message(), "witness has 7 values, the constraint system expects 6 (1 + 2 public + 3 aux)");
  w = c->w;
  w[0] = fr::from_uint(2);
  EXPECT_EQ(check_satisfied(c->cs, w).message(), "witness value 0 must be the constant 1");
  EXPECT_EQ(check_satisfied(c->cs, {}).code(), status_code::invalid_argument);
}

}  // namespace
}  // namespace pp::r1cs
