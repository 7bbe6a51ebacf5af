// Synthetic circuits: satisfied at awkward sizes, a function of the seed alone (any thread count),
// PoRep statistics within tolerance, coefficients from a table of a few thousand values, parameters
// checked.
#include "r1cs/synthetic.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <set>

#include <tbb/task_arena.h>

#include "r1cs/density.hpp"
#include "r1cs/satisfaction.hpp"
#include "random_system.hpp"
#include "support/status_matchers.hpp"

namespace pp::r1cs {
namespace {

TEST(Synthetic, SatisfiedAtAwkwardSizes) {
  const uint64_t seed = testing::test_seed();
  for (uint64_t m : {0, 1, 2, 3, 1023, 1024, 1025, 1 << 16}) {
    for (synthetic_params p : {synthetic_params::porep(m, seed + m), synthetic_params{}}) {
      p.num_constraints = m;
      p.seed = seed + m;
      auto c = make_synthetic(p);
      ASSERT_THAT(c, IsOk());
      EXPECT_EQ(c->cs.num_constraints(), m);
      EXPECT_EQ(c->w.size(), c->cs.num_variables());
      const status s = check_satisfied(c->cs, c->w);
      EXPECT_THAT(s, IsOk()) << "m = " << m << ": " << s.message();
    }
  }
}

TEST(Synthetic, SameSeedSameCircuitOnAnyThreadCount) {
  const synthetic_params p = synthetic_params::porep(100'000, 12345);
  auto many = make_synthetic(p);
  ASSERT_THAT(many, IsOk());
  result<synthetic_circuit> one = invalid_argument("not run");
  tbb::task_arena arena(1);
  arena.execute([&] { one = make_synthetic(p); });
  ASSERT_THAT(one, IsOk());
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
  ASSERT_THAT(c, IsOk());
  ASSERT_THAT(check_satisfied(c->cs, c->w), IsOk());
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
  EXPECT_NEAR(s.other_coeff_share, 1 - p.coeff_one - p.coeff_minus_one - p.coeff_zero, 0.01);
}

using coeff_key = std::array<uint64_t, 4>;
coeff_key key_of(const ff::fr& x) { return {x.l[0], x.l[1], x.l[2], x.l[3]}; }

// C entries whose coefficient is none of +-2^k (k <= 508, products of two drawn powers) and none of
// the values A and B hold or their negations (the constants, which A alone draws ~0.1 * rows
// times): the rows that neither the table nor an output variable balanced.
uint64_t unbalanced_rows(const constraint_system& cs) {
  std::set<coeff_key> table;
  ff::fr power = ff::fr::one();
  for (int k = 0; k <= 508; ++k, power += power) {
    table.insert(key_of(power));
    table.insert(key_of(-power));
  }
  for (const csr_matrix* m : {&cs.a(), &cs.b()}) {
    for (const ff::fr& x : m->coeffs) {
      table.insert(key_of(x));
      table.insert(key_of(-x));
    }
  }
  uint64_t n = 0;
  for (const ff::fr& x : cs.c().coeffs) n += !table.contains(key_of(x));
  return n;
}

// The bound of synthetic.hpp without the unbalanced rows: +-2^k for k in [1, 508], +-each constant.
uint64_t table_values(const synthetic_params& p) { return 4 * 254 + 2 * p.num_constants; }

// A PoRep partition's coefficients are +-1, powers of two and a few thousand Poseidon constants;
// random coefficients and balancing terms would hold ~2.6e5 distinct values at this size.
TEST(Synthetic, CoefficientsComeFromASmallTable) {
  synthetic_params p = synthetic_params::porep(uint64_t{1} << 18, testing::test_seed());
  for (uint64_t constants : {p.num_constants, uint64_t{1}}) {
    p.num_constants = constants;
    auto c = make_synthetic(p);
    ASSERT_THAT(c, IsOk());
    ASSERT_THAT(check_satisfied(c->cs, c->w), IsOk());
    const synthetic_stats s = stats_of(c->cs, c->w);
    const uint64_t unbalanced = unbalanced_rows(c->cs);
    std::cout << to_string(s) << "rows the table did not balance: " << unbalanced << "\n";
    EXPECT_LE(unbalanced, 2u);  // ~3e-5 of the rows need an output variable; a block runs out ~never
    EXPECT_LE(s.distinct_abc, table_values(p) + unbalanced);
    EXPECT_GE(s.distinct_abc, p.num_constants + 254);  // every constant and power drawn (~30 times each)
    EXPECT_LE(s.distinct_a, 2 * 254 + 2 * p.num_constants);  // drawn values and their cancelling negations
    EXPECT_LE(s.distinct_b, 2 * 254 + p.num_constants);      // drawn values only
    EXPECT_NEAR(s.other_coeff_share, 1 - p.coeff_one - p.coeff_minus_one - p.coeff_zero, 0.01);
  }
}

// Mostly random witness values: many rows need an output variable, more than their blocks own, so
// both the outputs and the coefficient outside the table are used, and every row still holds.
TEST(Synthetic, RowsTheTableCannotBalanceStillHold) {
  synthetic_params p = synthetic_params::porep(uint64_t{1} << 16, testing::test_seed());
  p.witness_zero = 0.3;
  p.witness_one = 0.1;
  auto c = make_synthetic(p);
  ASSERT_THAT(c, IsOk());
  const status st = check_satisfied(c->cs, c->w);
  EXPECT_THAT(st, IsOk());
  // Output variables: C columns in neither A nor B, with a value (zero-valued picks exclude them).
  const column_density d = compute_density(c->cs);
  const uint64_t aux0 = 1 + p.num_public;
  uint64_t outputs = 0;
  for (const uint32_t col : c->cs.c().cols) {
    outputs += col >= aux0 && !d.a.test(col) && !d.b.test(col) && !c->w[col].is_zero();
  }
  std::cout << outputs << " output variables, " << unbalanced_rows(c->cs) << " rows outside the table\n";
  EXPECT_GT(outputs, 0u);
  EXPECT_GT(unbalanced_rows(c->cs), 0u);
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
  ASSERT_THAT(c, IsOk());
  EXPECT_THAT(check_satisfied(c->cs, c->w), IsOk());
  EXPECT_NEAR(stats_of(c->cs, c->w).a_aux_density, p.nnz_a / 3, 0.01);
}

TEST(Synthetic, NoAuxVariables) {
  synthetic_params p;
  p.num_aux = 0;
  p.num_public = 3;
  auto c = make_synthetic(p);
  ASSERT_THAT(c, IsOk());
  EXPECT_THAT(check_satisfied(c->cs, c->w), IsOk());
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
  p.coeff_power_of_two = 0.2;  // with 0.8 + 0.05 + 0.01 past 1
  EXPECT_EQ(make_synthetic(p).error().code(), status_code::invalid_argument);
  p = {};
  p.num_constants = 0;
  EXPECT_EQ(make_synthetic(p).error().code(), status_code::invalid_argument);
  p = {};
  p.num_aux = constraint_system::max_variables;
  EXPECT_EQ(make_synthetic(p).error().code(), status_code::out_of_range);
}

}  // namespace
}  // namespace pp::r1cs
