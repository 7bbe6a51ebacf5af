// The poly layer's templates, defined in the *_impl.hpp headers, instantiated for one scalar field:
// each curve's instantiation file (poly/bls12_381_instances.cpp, poly/bn254_instances.cpp) expands
// PP_POLY_INSTANTIATE once, so the list of what the layer exports is written here only.
#pragma once
#include "poly/domain_impl.hpp"
#include "poly/ntt_impl.hpp"
#include "poly/powers_impl.hpp"
#include "poly/quotient_impl.hpp"
#include "poly/reference_dft_impl.hpp"

#define PP_POLY_INSTANTIATE(Fr)                                                                              \
  template class basic_evaluation_domain<Fr>;                                                                \
  template void fill_powers<Fr>(std::span<Fr>, const Fr&, const Fr&);                                        \
  template void distribute_powers<Fr>(std::span<Fr>, const Fr&, const Fr&);                                  \
  template status ntt<Fr>(const basic_evaluation_domain<Fr>&, std::span<Fr>, ntt_order);                     \
  template status intt<Fr>(const basic_evaluation_domain<Fr>&, std::span<Fr>, ntt_order);                    \
  template status coset_ntt<Fr>(const basic_evaluation_domain<Fr>&, std::span<Fr>, ntt_order);               \
  template status coset_intt<Fr>(const basic_evaluation_domain<Fr>&, std::span<Fr>, ntt_order);              \
  template std::vector<Fr> bit_reversed_powers<Fr>(const basic_evaluation_domain<Fr>&, const Fr&, const Fr&); \
  template status evaluations_to_coset<Fr>(const basic_evaluation_domain<Fr>&, std::span<Fr>,                \
                                           std::span<const Fr>);                                             \
  template status compute_quotient<Fr>(const basic_evaluation_domain<Fr>&, std::span<Fr>, std::span<Fr>,     \
                                       std::span<Fr>, quotient_form);                                        \
  template std::vector<Fr> reference::dft<Fr>(std::span<const Fr>, const Fr&);                               \
  template Fr reference::evaluate<Fr>(std::span<const Fr>, const Fr&)
