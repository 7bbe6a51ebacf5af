// Sparse matrix times witness: a = A*w, b = B*w, c = C*w, the first step of a Groth16 proof.
// Rows are split over oneTBB workers; outputs longer than the number of constraints are padded with
// zeros (the caller passes spans of the evaluation-domain size n). Outputs must not alias w.
#pragma once
#include <cstddef>
#include <span>
#include <type_traits>
#include <vector>

#include "core/status.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::r1cs {

struct spmv_options {
  bool parallel = true;
  // Skip the multiply when the coefficient or the witness value is 0 or 1 (PoRep witnesses are mostly
  // 0/1, coefficients mostly 1). Results are identical either way; see bench/r1cs/spmv_bench.cpp.
  bool fast_paths = true;
  std::size_t grain_rows = 4096;  // rows per task
};

// out[i] = <M_i, w> for i < num_constraints, 0 after that. invalid_argument when w.size() is not
// num_variables or out is shorter than num_constraints.
template <class Fr>
status spmv(const basic_constraint_system<Fr>& cs, matrix_id m, std::span<const std::type_identity_t<Fr>> w,
            std::span<std::type_identity_t<Fr>> out, const spmv_options& opt = {});

// All three products in one pass over the rows; a, b, c may have different lengths >= num_constraints.
template <class Fr>
status evaluate_abc(const basic_constraint_system<Fr>& cs, std::span<const std::type_identity_t<Fr>> w,
                    std::span<std::type_identity_t<Fr>> a, std::span<std::type_identity_t<Fr>> b,
                    std::span<std::type_identity_t<Fr>> c, const spmv_options& opt = {});

// <row r of m, w>; the kernel the routines above run per row, exposed for the satisfaction check.
template <bool FastPaths, class Fr>
inline Fr row_dot(const basic_csr_matrix<Fr>& m, std::size_t r, const Fr* w) {
  Fr acc = Fr::zero();
  const uint64_t end = m.row_ptr[r + 1];
  for (uint64_t k = m.row_ptr[r]; k < end; ++k) {
    const Fr& x = w[m.cols[k]];
    const Fr& coeff = m.coeffs[k];
    if constexpr (FastPaths) {
      if (x.is_zero()) continue;
      if (coeff.is_one()) {
        acc += x;
      } else if (x.is_one()) {
        acc += coeff;
      } else {
        acc += coeff * x;
      }
    } else {
      acc += coeff * x;
    }
  }
  return acc;
}

namespace reference {

// One multiply per entry, serial, no padding: the reference the fast paths are checked against.
template <class Fr>
std::vector<Fr> naive_spmv(const basic_constraint_system<Fr>& cs, matrix_id m, std::span<const std::type_identity_t<Fr>> w);

}  // namespace reference
}  // namespace pp::r1cs
