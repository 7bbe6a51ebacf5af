// Appending constraints to CSR matrices with range checks on every variable.
#include "r1cs/constraint_system_builder.hpp"

#include <string>

namespace pp::r1cs {

namespace {

void append_row(csr_matrix& m, std::span<const term> lc) {
  for (const term& t : lc) {
    m.cols.push_back(t.var);
    m.coeffs.push_back(t.coeff);
  }
  m.row_ptr.push_back(m.cols.size());
}

}  // namespace

void constraint_system_builder::reserve(std::size_t constraints, std::size_t nnz_per_row) {
  for (csr_matrix* m : {&a_, &b_, &c_}) {
    m->row_ptr.reserve(constraints + 1);
    m->cols.reserve(constraints * nnz_per_row);
    m->coeffs.reserve(constraints * nnz_per_row);
  }
}

status constraint_system_builder::add_constraint(std::span<const term> a, std::span<const term> b,
                                                 std::span<const term> c) {
  const uint64_t n_vars = num_variables();
  const std::span<const term> lcs[3] = {a, b, c};
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
  append_row(a_, a);
  append_row(b_, b);
  append_row(c_, c);
  return ok_status();
}

result<constraint_system> constraint_system_builder::build() && {
  return constraint_system::make(num_public_, num_aux_, std::move(a_), std::move(b_), std::move(c_));
}

}  // namespace pp::r1cs
