// The CPU prover backend (oneTBB on the calling arena). start(): SpMV, the H polynomial (NTTs) and
// the five MSMs (H, L, A, B_G1, B_G2); finish(): assembly with (r, s) and the optional
// self-verification. Any key layout in keys.hpp (odd_coset_lagrange or monomial, filtered or not).
#pragma once
#include <string_view>

#include "groth16/backend.hpp"

namespace pp::groth16 {

class cpu_backend final : public backend {
 public:
  [[nodiscard]] std::string_view name() const override { return "cpu"; }
  result<pending_ptr> start(const prove_request& req) override;
  result<prove_output> finish(pending_ptr p) override;
  // 32 B x (variables + 8 x domain) (witness; a, b, c and their cosets; H) + (G2 affine point + 32 B)
  // x variables (the split MSM's gather of B_G2 points and scalars, worst case), rounded up to 4 KiB.
  [[nodiscard]] uint64_t host_bytes_per_partition(uint64_t num_variables, uint64_t domain_size) const override;
};

}  // namespace pp::groth16
