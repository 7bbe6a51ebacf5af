// Witness layout checks.
// Included only by the instantiation files (r1cs/instantiate.hpp).
#pragma once
#include "r1cs/witness.hpp"

#include <string>

namespace pp::r1cs {

template <class Fr>
status check_witness_size(const basic_constraint_system<Fr>& cs, std::size_t size) {
  if (size == cs.num_variables()) return ok_status();
  return invalid_argument("witness has " + std::to_string(size) + " values, the constraint system expects " +
                          std::to_string(cs.num_variables()) + " (1 + " + std::to_string(cs.num_public()) +
                          " public + " + std::to_string(cs.num_aux()) + " aux)");
}

template <class Fr>
status check_witness(const basic_constraint_system<Fr>& cs, std::span<const std::type_identity_t<Fr>> w) {
  if (status s = check_witness_size(cs, w.size()); !s.ok()) return s;
  if (!w[0].is_one()) return invalid_argument("witness value 0 must be the constant 1");
  return ok_status();
}

}  // namespace pp::r1cs
