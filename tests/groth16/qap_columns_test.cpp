// column_evaluations (the parallel column sums of setup) against the serial reference: several
// column ranges and row blocks, a column in every row (the split path), repeated columns within a
// row, empty rows and matrices, coefficients 0, 1, -1 and random.
#include "groth16/qap_columns.hpp"

#include <gtest/gtest.h>

#include "groth16/test_circuits.hpp"
#include "r1cs/synthetic.hpp"

namespace pp::groth16 {
namespace {

using ff::fr;

r1cs::csr_matrix random_matrix(uint64_t& state, uint64_t rows, uint64_t vars, uint64_t max_terms, bool column0) {
  r1cs::csr_matrix m;
  for (uint64_t r = 0; r < rows; ++r) {
    const uint64_t terms = r1cs::random_fr(state).is_zero() ? 0 : (state >> 7) % (max_terms + 1);
    for (uint64_t t = 0; t < terms + (column0 ? 1 : 0); ++t) {
      const uint64_t pick = state * 0x9e3779b97f4a7c15ull;
      const fr c = r1cs::random_fr(state);
      const uint64_t col = t == terms ? 0 : (t > 0 && pick % 5 == 0) ? m.cols.back() : (state >> 3) % vars;
      m.cols.push_back(static_cast<uint32_t>(col));
      const uint64_t kind = (pick >> 20) % 8;
      m.coeffs.push_back(kind < 4 ? fr::one() : kind == 4 ? -fr::one() : kind == 5 ? fr::zero() : c);
    }
    m.row_ptr.push_back(m.cols.size());
  }
  return m;
}

void check(uint64_t& state, uint64_t rows, uint64_t vars, uint64_t max_terms, bool column0) {
  const r1cs::csr_matrix m = random_matrix(state, rows, vars, max_terms, column0);
  std::vector<fr> lag(rows + 5);
  for (fr& x : lag) x = r1cs::random_fr(state);
  const auto want = reference::column_evaluations(m, lag, vars);
  const auto got = column_evaluations(m, lag, vars);
  ASSERT_EQ(got.size(), want.size());
  uint64_t bad = 0;
  for (uint64_t i = 0; i < vars; ++i) bad += got[i] != want[i];
  EXPECT_EQ(bad, 0u) << rows << " rows, " << vars << " variables, column 0 in every row: " << column0;
}

TEST(QapColumns, MatchesReference) {
  uint64_t state = testing::test_seed();
  check(state, 0, 5, 3, false);
  check(state, 1, 1, 3, true);
  check(state, 10, 3, 4, false);
  check(state, 1000, 700, 4, true);
  // Three column ranges (2^17 columns each), five row blocks (2^14 rows), the constant's column split.
  check(state, 70000, 300000, 4, true);
  check(state, 70000, 300000, 4, false);
  check(state, 40000, 1000, 3, false);  // one range holding every entry: split across threads
}

}  // namespace
}  // namespace pp::groth16
