// Validation of CSR matrices and constraint systems.
// Included only by the instantiation files (r1cs/instantiate.hpp).
#pragma once
#include "r1cs/constraint_system.hpp"

#include <string>

namespace pp::r1cs {

template <class Fr>
status basic_csr_matrix<Fr>::validate(std::size_t expected_rows, uint64_t num_variables, std::string_view name) const {
  const std::string m(name);
  if (row_ptr.empty() || row_ptr[0] != 0) return invalid_argument("matrix " + m + ": row_ptr must start with 0");
  if (rows() != expected_rows) {
    return invalid_argument("matrix " + m + ": expected " + std::to_string(expected_rows) + " rows, got " +
                            std::to_string(rows()));
  }
  if (cols.size() != coeffs.size()) {
    return invalid_argument("matrix " + m + ": " + std::to_string(cols.size()) + " column indices but " +
                            std::to_string(coeffs.size()) + " coefficients");
  }
  if (row_ptr.back() != cols.size()) {
    return invalid_argument("matrix " + m + ": last row pointer is " + std::to_string(row_ptr.back()) +
                            ", expected nnz " + std::to_string(cols.size()));
  }
  for (std::size_t r = 0; r < rows(); ++r) {
    if (row_ptr[r + 1] < row_ptr[r]) {
      return invalid_argument("matrix " + m + ": row pointers decrease at row " + std::to_string(r));
    }
  }
  for (std::size_t k = 0; k < cols.size(); ++k) {
    if (cols[k] >= num_variables) {
      return invalid_argument("matrix " + m + ": entry " + std::to_string(k) + " has column " +
                              std::to_string(cols[k]) + ", expected < " + std::to_string(num_variables) +
                              " variables");
    }
  }
  return ok_status();
}

template <class Fr>
result<basic_constraint_system<Fr>> basic_constraint_system<Fr>::make(uint64_t num_public, uint64_t num_aux,
                                                                      matrix_type a, matrix_type b, matrix_type c) {
  if (num_public >= max_variables || num_aux >= max_variables || 1 + num_public + num_aux > max_variables) {
    return out_of_range("constraint system: 1 + " + std::to_string(num_public) + " public + " +
                        std::to_string(num_aux) + " aux variables exceed the limit of 2^32");
  }
  const uint64_t n_vars = 1 + num_public + num_aux;
  const std::size_t rows = a.rows();
  if (status s = a.validate(rows, n_vars, "A"); !s.ok()) return s;
  if (status s = b.validate(rows, n_vars, "B"); !s.ok()) return s;
  if (status s = c.validate(rows, n_vars, "C"); !s.ok()) return s;
  basic_constraint_system cs;
  cs.num_public_ = num_public;
  cs.num_aux_ = num_aux;
  cs.a_ = std::move(a);
  cs.b_ = std::move(b);
  cs.c_ = std::move(c);
  return cs;
}

}  // namespace pp::r1cs
