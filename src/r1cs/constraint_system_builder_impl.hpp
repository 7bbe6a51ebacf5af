// Appending constraints to CSR matrices with range checks on every variable.
// Included only by the instantiation files (r1cs/instantiate.hpp).
#pragma once
#include "r1cs/constraint_system_builder.hpp"

#include <string>

namespace pp::r1cs {

namespace builder_detail {

template <class Fr>
void append_row(basic_csr_matrix<Fr>& m, std::span<const basic_term<Fr>> lc) {
  for (const basic_term<Fr>& t : lc) {
    m.cols.push_back(t.var);
    m.coeffs.push_back(t.coeff);
  }
  m.row_ptr.push_back(m.cols.size());
}

}  // namespace builder_detail

template <class Fr>
void basic_constraint_system_builder<Fr>::reserve(std::size_t constraints, std::size_t nnz_per_row) {
  for (basic_csr_matrix<Fr>* m : {&a_, &b_, &c_}) {
    m->row_ptr.reserve(constraints + 1);
    m->cols.reserve(constraints * nnz_per_row);
    m->coeffs.reserve(constraints * nnz_per_row);
  }
}

template <class Fr>
status basic_constraint_system_builder<Fr>::add_constraint(std::span<const term_type> a, std::span<const term_type> b,
                                                           std::span<const term_type> c) {
  const uint64_t n_vars = num_variables();
  const std::span<const term_type> lcs[3] = {a, b, c};
  static constexpr const char* names[3] = {"A", "B", "C"};
  for (int k = 0; k < 3; ++k) {
    for (std::size_t i = 0; i < lcs[k].size(); ++i) {
      if (lcs[k][i].var >= n_vars) {
        return invalid_argument("constraint " + std::to_string(num_constraints()) + ", " + names[k] + " term " +
                                std::to_string(i) + ": variable " + std::to_string(lcs[k][i].var) +
                                " out of range, expected < " + std::to_string(n_vars));
      }
    }
  }
  builder_detail::append_row<Fr>(a_, a);
  builder_detail::append_row<Fr>(b_, b);
  builder_detail::append_row<Fr>(c_, c);
  return ok_status();
}

template <class Fr>
result<basic_constraint_system<Fr>> basic_constraint_system_builder<Fr>::build() && {
  return basic_constraint_system<Fr>::make(num_public_, num_aux_, std::move(a_), std::move(b_), std::move(c_));
}

}  // namespace pp::r1cs
