// The CPU prover backend (oneTBB on the calling arena). start(): SpMV, the H polynomial (NTTs) and
// the five MSMs (H, L, A, B_G1, B_G2); finish(): assembly with (r, s) and the optional
// self-verification. Any key layout in keys.hpp (odd_coset_lagrange or monomial, filtered or not), for
// both curve families (prover.cpp instantiates them); `cpu_backend` is BLS12-381's.
#pragma once
#include <string_view>

#include "groth16/backend.hpp"

namespace pp::groth16 {

template <class Family>
class basic_cpu_backend final : public basic_backend<Family> {
 public:
  using typename basic_backend<Family>::request;
  using typename basic_backend<Family>::output;

  [[nodiscard]] std::string_view name() const override { return "cpu"; }
  result<pending_ptr> start(const request& req) override;
  result<output> finish(pending_ptr p) override;
  // 32 B x (variables + 8 x domain) (witness; a, b, c and their cosets; H) + (G2 affine point + 32 B)
  // x variables (the split MSM's gather of B_G2 points and scalars, worst case), rounded up to 4 KiB.
  [[nodiscard]] uint64_t host_bytes_per_partition(uint64_t num_variables, uint64_t domain_size) const override;
};

using cpu_backend = basic_cpu_backend<ec::bls12_381::family>;
namespace bn254 {
using cpu_backend = basic_cpu_backend<ec::bn254::family>;
}  // namespace bn254

}  // namespace pp::groth16
