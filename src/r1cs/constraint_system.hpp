// constraint_system: an R1CS <A_i,w> * <B_i,w> = <C_i,w> for every constraint i, with the
// witness layout w = 1 | public (num_public values, the constant excluded) | aux (num_aux values).
// Built by constraint_system_builder or by the format readers; immutable and validated once made.
// Over either curve's scalar field (r1cs/<curve>_instances.cpp); `constraint_system` is BLS12-381's.
#pragma once
#include <cstdint>

#include "core/result.hpp"
#include "r1cs/csr_matrix.hpp"

namespace pp::r1cs {

enum class matrix_id { a, b, c };

template <class Fr>
class basic_constraint_system {
 public:
  // Column indices are 32-bit, so a system has at most 2^32 variables (the constant included).
  static constexpr uint64_t max_variables = uint64_t{1} << 32;

  using field = Fr;
  using matrix_type = basic_csr_matrix<Fr>;

  basic_constraint_system() = default;  // no inputs, no constraints

  // Checks that the three matrices have the same number of rows and that every column is a variable.
  static result<basic_constraint_system> make(uint64_t num_public, uint64_t num_aux, matrix_type a, matrix_type b,
                                              matrix_type c);

  uint64_t num_public() const { return num_public_; }
  uint64_t num_aux() const { return num_aux_; }
  uint64_t num_variables() const { return 1 + num_public_ + num_aux_; }
  uint64_t num_constraints() const { return a_.rows(); }

  const matrix_type& a() const { return a_; }
  const matrix_type& b() const { return b_; }
  const matrix_type& c() const { return c_; }
  const matrix_type& matrix(matrix_id m) const { return m == matrix_id::a ? a_ : m == matrix_id::b ? b_ : c_; }

  friend bool operator==(const basic_constraint_system&, const basic_constraint_system&) = default;

 private:
  uint64_t num_public_ = 0;
  uint64_t num_aux_ = 0;
  matrix_type a_, b_, c_;
};

using constraint_system = basic_constraint_system<ff::fr>;
namespace bn254 {
using constraint_system = basic_constraint_system<ff::bn254::fr>;
}  // namespace bn254

}  // namespace pp::r1cs
