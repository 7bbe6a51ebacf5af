// Builder and constraint_system::make: layout, range checks, CSR validation.
#include "r1cs/constraint_system.hpp"

#include <gtest/gtest.h>

#include "r1cs/constraint_system_builder.hpp"
#include "random_system.hpp"
#include "support/status_matchers.hpp"

namespace pp::r1cs {
namespace {

using ::testing::Not;

using ff::fr;

TEST(ConstraintSystem, EmptyDefault) {
  constraint_system cs;
  EXPECT_EQ(cs.num_variables(), 1u);
  EXPECT_EQ(cs.num_constraints(), 0u);
  auto built = constraint_system_builder(0, 0).build();
  ASSERT_THAT(built, IsOk());
  EXPECT_EQ(*built, cs);
}

TEST(ConstraintSystem, BuilderLayoutAndCsr) {
  constraint_system_builder b(2, 3);
  EXPECT_EQ(b.one(), 0u);
  EXPECT_EQ(b.public_var(0), 1u);
  EXPECT_EQ(b.aux_var(0), 3u);
  const fr two = fr::from_uint(2);
  ASSERT_TRUE(b.add_constraint(std::vector<term>{{1, fr::one()}, {3, two}}, std::vector<term>{{0, fr::one()}},
                               std::vector<term>{{5, fr::one()}})
                  .ok());
  ASSERT_THAT(b.add_constraint({}, {}, {}), IsOk());  // an empty row is allowed (0 * 0 = 0)
  auto cs = std::move(b).build();
  ASSERT_THAT(cs, IsOk());
  EXPECT_EQ(cs->num_constraints(), 2u);
  EXPECT_EQ(cs->num_variables(), 6u);
  EXPECT_EQ(cs->a().row_ptr, (std::vector<uint64_t>{0, 2, 2}));
  EXPECT_EQ(cs->a().cols, (std::vector<uint32_t>{1, 3}));
  EXPECT_EQ(cs->a().coeffs[1], two);
  EXPECT_EQ(cs->c().cols, (std::vector<uint32_t>{5}));
}

TEST(ConstraintSystem, BuilderRejectsOutOfRangeVariable) {
  constraint_system_builder b(1, 1);
  ASSERT_THAT(b.add_constraint({}, {}, {}), IsOk());
  const status s = b.add_constraint(std::vector<term>{{0, fr::one()}}, std::vector<term>{{1, fr::one()}, {3, fr::one()}}, {});
  EXPECT_EQ(s.code(), status_code::invalid_argument);
  EXPECT_EQ(s.message(), "constraint 1, B term 1: variable 3 out of range, expected < 3");
  EXPECT_EQ(b.num_constraints(), 1u);  // unchanged
}

TEST(ConstraintSystem, MakeValidates) {
  csr_matrix ok;
  ok.row_ptr = {0, 1};
  ok.cols = {2};
  ok.coeffs = {fr::one()};
  EXPECT_THAT(constraint_system::make(1, 1, ok, ok, ok), IsOk());
  auto bad_col = constraint_system::make(1, 0, ok, ok, ok);
  EXPECT_EQ(bad_col.error().code(), status_code::invalid_argument);
  EXPECT_NE(bad_col.error().message().find("column 2, expected < 2"), std::string::npos) << bad_col.error().message();
  csr_matrix rows2 = ok;
  rows2.row_ptr = {0, 1, 1};
  EXPECT_NE(constraint_system::make(1, 1, ok, rows2, ok).error().message().find("matrix B: expected 1 rows, got 2"),
            std::string::npos);
  csr_matrix decreasing = ok;
  decreasing.row_ptr = {0, 2, 1};
  decreasing.cols = {0};
  EXPECT_THAT(constraint_system::make(1, 1, decreasing, decreasing, decreasing), Not(IsOk()));
  csr_matrix mismatch = ok;
  mismatch.coeffs.push_back(fr::one());
  EXPECT_THAT(constraint_system::make(1, 1, mismatch, ok, ok), Not(IsOk()));
  EXPECT_EQ(constraint_system::make(uint64_t{1} << 32, 0, {}, {}, {}).error().code(), status_code::out_of_range);
}

TEST(ConstraintSystem, RandomBuildKeepsTermsAsGiven) {
  uint64_t seed = testing::test_seed();
  const auto sys = testing::random_lc_system(seed, 300, 5, 40, 6);
  const constraint_system cs = sys.build();
  ASSERT_EQ(cs.num_constraints(), 300u);
  for (std::size_t i = 0; i < 300; ++i) {
    const auto cols = cs.b().row_cols(i);
    const auto coeffs = cs.b().row_coeffs(i);
    ASSERT_EQ(cols.size(), sys.b[i].size());
    for (std::size_t k = 0; k < cols.size(); ++k) {
      EXPECT_EQ(cols[k], sys.b[i][k].var);
      EXPECT_EQ(coeffs[k], sys.b[i][k].coeff);
    }
  }
}

}  // namespace
}  // namespace pp::r1cs
