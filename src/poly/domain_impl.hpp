// Builds an evaluation_domain: the constants (a handful of pows and inverses) and the twiddle
// tables, filled in parallel by fill_powers (n/2 multiplications for the big table). Included only
// by the instantiation files (poly/<curve>_instances.cpp).
#pragma once
#include "poly/domain.hpp"

#include <bit>
#include <string>

#include "poly/powers_impl.hpp"

namespace pp::poly {

template <class Fr>
result<basic_evaluation_domain<Fr>> basic_evaluation_domain<Fr>::create(int log_n, ff::root_family family) {
  if (log_n < 0 || log_n > max_log_n) {
    return invalid_argument("evaluation_domain: log_n must be in [0, " + std::to_string(max_log_n) + "], got " +
                            std::to_string(log_n));
  }
  basic_evaluation_domain d;
  d.log_n_ = log_n;
  d.n_ = uint64_t{1} << log_n;
  d.family_ = family;
  d.omega_ = ff::root_of_unity<Fr>(log_n, family);
  d.omega_inv_ = d.omega_.inverse();
  d.size_inv_ = Fr::from_uint(d.n_).inverse();
  d.g_ = ff::coset_generator<Fr>();
  d.g_inv_ = d.g_.inverse();
  d.z_coset_ = d.g_.pow(d.n_) - Fr::one();
  d.z_coset_inv_ = d.z_coset_.inverse();

  d.twiddles_.resize(d.n_ / 2 + 1);
  fill_powers<Fr>(d.twiddles_, d.omega_);

  const int leaf_log = log_n < leaf_log_n ? log_n : leaf_log_n;
  d.leaf_n_ = uint64_t{1} << leaf_log;
  d.leaf_twiddles_.resize(d.leaf_n_ / 2 + 1);
  fill_powers<Fr>(d.leaf_twiddles_, ff::root_of_unity<Fr>(leaf_log, family));  // = omega^(n/leaf_n)
  return d;
}

template <class Fr>
result<basic_evaluation_domain<Fr>> basic_evaluation_domain<Fr>::for_size(uint64_t n, ff::root_family family) {
  if (!std::has_single_bit(n) || n > (uint64_t{1} << max_log_n)) {
    return invalid_argument("evaluation_domain: size must be a power of two in [1, 2^" + std::to_string(max_log_n) +
                            "], got " + std::to_string(n));
  }
  return create(std::countr_zero(n), family);
}

template <class Fr>
result<basic_evaluation_domain<Fr>> basic_evaluation_domain<Fr>::covering(uint64_t n, ff::root_family family) {
  if (n == 0 || n > (uint64_t{1} << max_log_n)) {
    return invalid_argument("evaluation_domain: size to cover must be in [1, 2^" + std::to_string(max_log_n) +
                            "], got " + std::to_string(n));
  }
  return create(std::bit_width(n - 1), family);
}

}  // namespace pp::poly
