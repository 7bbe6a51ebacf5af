// constraint_system_builder: appends constraints <a,w> * <b,w> = <c,w> given as linear combinations
// and produces a constraint_system. Variables: one() is the constant, then public_var(i), aux_var(i).
// Terms are stored as given (no merging of repeated variables, zero coefficients kept). Over either
// curve's scalar field; `constraint_system_builder` is BLS12-381's.
#pragma once
#include <cstdint>
#include <span>

#include "core/result.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/linear_combination.hpp"

namespace pp::r1cs {

template <class Fr>
class basic_constraint_system_builder {
 public:
  using term_type = basic_term<Fr>;

  basic_constraint_system_builder(uint64_t num_public, uint64_t num_aux) : num_public_(num_public), num_aux_(num_aux) {}

  static constexpr uint32_t one() { return 0; }
  uint32_t public_var(uint64_t i) const { return static_cast<uint32_t>(1 + i); }
  uint32_t aux_var(uint64_t i) const { return static_cast<uint32_t>(1 + num_public_ + i); }
  uint64_t num_variables() const { return 1 + num_public_ + num_aux_; }
  uint64_t num_constraints() const { return a_.rows(); }

  // Pre-sizes storage for `constraints` rows and about `nnz_per_row` entries per row and matrix.
  void reserve(std::size_t constraints, std::size_t nnz_per_row);

  // invalid_argument naming the constraint, matrix and term when a variable is out of range;
  // the builder is unchanged in that case.
  status add_constraint(std::span<const term_type> a, std::span<const term_type> b, std::span<const term_type> c);

  // The finished system (the builder is left empty).
  result<basic_constraint_system<Fr>> build() &&;

 private:
  uint64_t num_public_;
  uint64_t num_aux_;
  basic_csr_matrix<Fr> a_, b_, c_;
};

using constraint_system_builder = basic_constraint_system_builder<ff::fr>;

}  // namespace pp::r1cs
