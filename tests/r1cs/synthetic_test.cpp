// Synthetic circuits: satisfied at awkward sizes, a function of the seed alone (any thread count),
// PoRep statistics within tolerance, parameters checked.
#include "r1cs/synthetic.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include <tbb/task_arena.h>

#include "r1cs/satisfaction.hpp"
#include "random_system.hpp"

namespace pp::r1cs {
namespace {

TEST(Synthetic, SatisfiedAtAwkwardSizes) {
  const uint64_t seed = testing::test_seed();
  for (uint64_t m : {0, 1, 2, 3, 1023, 1024, 1025, 1 << 16}) {
    for (synthetic_params p : {synthetic_params::porep(m, seed + m), synthetic_params{}}) {
      p.num_constraints = m;
      p.seed = seed + m;
      auto c = make_synthetic(p);
      ASSERT_TRUE(c.ok()) << c.error().to_string();
      EXPECT_EQ(c->cs.num_constraints(), m);
      EXPECT_EQ(c->w.size(), c->cs.num_variables());
      const status s = check_satisfied(c->cs, c->w);
      EXPECT_TRUE(s.ok()) << "m = " << m << ": " << s.message();
    }
  }
}

TEST(Synthetic, BalancingTermIsLastEntryOnTheConstant) {
  auto c = make_synthetic(synthetic_params::porep(5000, 3));
  ASSERT_TRUE(c.ok());
  const csr_matrix& cm = c->cs.c();
  for (std::size_t r = 0; r < cm.rows(); ++r) {
    ASSERT_LT(cm.row_ptr[r], cm.row_ptr[r + 1]);
    ASSERT_EQ(cm.cols[cm.row_ptr[r + 1] - 1], 0u) << "row " << r;
  }
}

TEST(Synthetic, SameSeedSameCircuitOnAnyThreadCount) {
  const synthetic_params p = synthetic_params::porep(100'000, 12345);
  auto many = make_synthetic(p);
  ASSERT_TRUE(many.ok());
  result<synthetic_circuit> one = invalid_argument("not run");
  tbb::task_arena arena(1);
  arena.execute([&] { one = make_synthetic(p); });
  ASSERT_TRUE(one.ok());
  EXPECT_TRUE(one->cs == many->cs);
  EXPECT_TRUE(one->w == many->w);
}

TEST(Synthetic, DifferentSeedsDiffer) {
  auto x = make_synthetic(synthetic_params::porep(4096, 1));
  auto y = make_synthetic(synthetic_params::porep(4096, 2));
  ASSERT_TRUE(x.ok() && y.ok());
  EXPECT_NE(x->cs.a().cols, y->cs.a().cols);
  EXPECT_NE(x->cs.b().cols, y->cs.b().cols);
  EXPECT_NE(x->cs.c().cols, y->cs.c().cols);
  EXPECT_NE(x->w, y->w);
}

void expect_stats(const synthetic_params& p) {
  auto c = make_synthetic(p);
  ASSERT_TRUE(c.ok()) << c.error().to_string();
  ASSERT_TRUE(check_satisfied(c->cs, c->w).ok());
  const synthetic_stats s = stats_of(c->cs, c->w);
  std::cout << to_string(s);
  EXPECT_EQ(s.num_constraints, p.num_constraints);
  EXPECT_EQ(s.num_aux, p.num_aux);
  EXPECT_NEAR(s.nnz_a, p.nnz_a, 0.01);
  EXPECT_NEAR(s.nnz_b, p.nnz_b, 0.01);
  EXPECT_NEAR(s.nnz_c, std::max(1.0, p.nnz_c), 0.01);
  EXPECT_NEAR(s.a_aux_density, p.a_aux_density, 0.01);
  EXPECT_NEAR(s.b_aux_density, p.b_aux_density, 0.01);
  EXPECT_NEAR(s.witness_zero, p.witness_zero, 0.01);
  EXPECT_NEAR(s.witness_one, p.witness_one, 0.01);
}

TEST(Synthetic, PorepStatisticsAt2To18) {
  const synthetic_params p = synthetic_params::porep(uint64_t{1} << 18, testing::test_seed());
  EXPECT_EQ(p.num_aux, (uint64_t{1} << 18) * 1302 / 1303);
  expect_stats(p);
}

// The fill of a 2^k domain: what the benchmarks computed before in floating point, exactly.
TEST(Synthetic, PorepConstraintsFillTheDomainLikePoRep) {
  EXPECT_EQ(synthetic_params::porep_constraints(27), 130'300'000u);
  EXPECT_EQ(synthetic_params::porep_constraints(26), 65'150'000u);
  EXPECT_EQ(synthetic_params::porep_constraints(0), 1u);
  for (int k = 0; k <= 30; ++k) {
    const auto want = static_cast<uint64_t>(static_cast<double>(uint64_t{1} << k) * (130.3e6 / 134217728.0));
    EXPECT_EQ(synthetic_params::porep_constraints(k), std::max<uint64_t>(want, 1)) << k;
  }
}

TEST(Synthetic, OtherShapesFollowTheirParameters) {
  synthetic_params p = synthetic_params::porep(uint64_t{1} << 16, testing::test_seed());
  p.nnz_a = 1.5;
  p.nnz_b = 2.7;
  p.nnz_c = 3.4;
  p.a_aux_density = 0.6;
  p.b_aux_density = 0.9;
  p.witness_zero = 0.2;
  p.witness_one = 0.7;
  expect_stats(p);
  p.num_aux = 3 * p.num_constraints;  // more A members than A terms: each A term takes its own member
  auto c = make_synthetic(p);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(check_satisfied(c->cs, c->w).ok());
  EXPECT_NEAR(stats_of(c->cs, c->w).a_aux_density, p.nnz_a / 3, 0.01);
}

TEST(Synthetic, NoAuxVariables) {
  synthetic_params p;
  p.num_aux = 0;
  p.num_public = 3;
  auto c = make_synthetic(p);
  ASSERT_TRUE(c.ok());
  EXPECT_TRUE(check_satisfied(c->cs, c->w).ok());
}

TEST(Synthetic, RejectsBadParameters) {
  synthetic_params p;
  p.b_aux_density = 1.5;
  EXPECT_EQ(make_synthetic(p).error().code(), status_code::invalid_argument);
  p = {};
  p.witness_zero = 0.7;
  p.witness_one = 0.7;
  EXPECT_EQ(make_synthetic(p).error().code(), status_code::invalid_argument);
  p = {};
  p.nnz_c = std::nan("");
  EXPECT_EQ(make_synthetic(p).error().code(), status_code::invalid_argument);
  p = {};
  p.num_aux = constraint_system::max_variables;
  EXPECT_EQ(make_synthetic(p).error().code(), status_code::out_of_range);
}

}  // namespace
}  // namespace pp::r1cs
