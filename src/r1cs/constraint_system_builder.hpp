// constraint_system_builder: appends constraints <a,w> * <b,w> = <c,w> given as linear combinations
// and produces a constraint_system. Variables: one() is the constant, then public_var(i), aux_var(i).
// Terms are stored as given (no merging of repeated variables, zero coefficients kept).
#pragma once
#include <cstdint>
#include <span>

#include "core/result.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/linear_combination.hpp"

namespace pp::r1cs {

class constraint_system_builder {
 public:
  constraint_system_builder(uint64_t num_public, uint64_t num_aux) : num_public_(num_public), num_aux_(num_aux) {}

  static constexpr uint32_t one() { return 0; }
  uint32_t public_var(uint64_t i) const { return static_cast<uint32_t>(1 + i); }
  uint32_t aux_var(uint64_t i) const { return static_cast<uint32_t>(1 + num_public_ + i); }
  uint64_t num_variables() const { return 1 + num_public_ + num_aux_; }
  uint64_t num_constraints() const { return a_.rows(); }

  // Pre-sizes storage for `constraints` rows and about `nnz_per_row` entries per row and matrix.
  void reserve(std::size_t constraints, std::size_t nnz_per_row);

  // invalid_argument naming the constraint, matrix and term when a variable is out of range;
  // the builder is unchanged in that case.
  status add_constraint(std::span<const term> a, std::span<const term> b, std::span<const term> c);

  // The finished system (the builder is left empty).
  result<constraint_system> build() &&;

 private:
  uint64_t num_public_;
  uint64_t num_aux_;
  csr_matrix a_, b_, c_;
};

}  // namespace pp::r1cs
