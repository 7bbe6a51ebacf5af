// The r1cs layer's templates, defined in the *_impl.hpp headers, instantiated for one scalar field:
// each curve's instantiation file (r1cs/bls12_381_instances.cpp, r1cs/bn254_instances.cpp) expands
// PP_R1CS_INSTANTIATE once.
#pragma once
#include "r1cs/constraint_system_builder_impl.hpp"
#include "r1cs/constraint_system_impl.hpp"
#include "r1cs/satisfaction_impl.hpp"
#include "r1cs/spmv_impl.hpp"
#include "r1cs/witness_impl.hpp"

#define PP_R1CS_INSTANTIATE(Fr)                                                                                  \
  template struct basic_csr_matrix<Fr>;                                                                          \
  template class basic_constraint_system<Fr>;                                                                    \
  template class basic_constraint_system_builder<Fr>;                                                            \
  template status check_witness_size<Fr>(const basic_constraint_system<Fr>&, std::size_t);                       \
  template status check_witness<Fr>(const basic_constraint_system<Fr>&, std::span<const Fr>);                    \
  template status check_satisfied<Fr>(const basic_constraint_system<Fr>&, std::span<const Fr>);                  \
  template status spmv<Fr>(const basic_constraint_system<Fr>&, matrix_id, std::span<const Fr>, std::span<Fr>,    \
                           const spmv_options&);                                                                 \
  template status evaluate_abc<Fr>(const basic_constraint_system<Fr>&, std::span<const Fr>, std::span<Fr>,       \
                                   std::span<Fr>, std::span<Fr>, const spmv_options&);                           \
  template std::vector<Fr> reference::naive_spmv<Fr>(const basic_constraint_system<Fr>&, matrix_id,              \
                                                     std::span<const Fr>)
