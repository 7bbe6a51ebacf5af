// cuda_bn254_backend: a cuda_backend's face as groth16::basic_backend for BN254 (circom's bn128), so
// that the engine drives BN254 partitions on a GPU as it drives BLS12-381's (docs/design.md, "Curve
// families"): start and finish go to the cuda_backend's BN254 overloads, which run them on the same
// device region, lanes and kernel turns as its BLS12-381 partitions. The cuda_backend must outlive it.
#pragma once
#include <cstdint>
#include <string_view>
#include <utility>

#include "cuda/prover/cuda_backend.hpp"
#include "ec/bn254_curves.hpp"
#include "groth16/backend.hpp"

namespace pp::cuda {

class cuda_bn254_backend final : public groth16::basic_backend<ec::bn254::family> {
 public:
  explicit cuda_bn254_backend(cuda_backend& be) : be_(be) {}

  [[nodiscard]] std::string_view name() const override { return be_.name(); }
  result<groth16::pending_ptr> start(const request& req) override { return be_.start(req); }
  result<output> finish(groth16::pending_ptr p) override { return be_.finish_bn254(std::move(p)); }
  [[nodiscard]] uint64_t host_bytes_per_partition(uint64_t num_variables, uint64_t domain_size) const override {
    return be_.host_bytes_per_partition(num_variables, domain_size);
  }

 private:
  cuda_backend& be_;
};

}  // namespace pp::cuda
