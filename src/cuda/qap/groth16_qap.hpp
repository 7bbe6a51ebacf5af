// Device twin of groth16::compute_h (src/groth16/qap.cpp) and the small Groth16 glue kernels the
// CUDA backend needs around SpMV and MSM: the QAP input rows, the H-query scalars for either basis,
// and the gather of a filtered query's scalars. Identical field elements to the CPU path. Plain C++.
//
// Use: device_qap::workspace_bytes(log_n, basis) -> caller provides memory -> device_qap::create
// once per key (uploads the NTT tables of the key's root family and, for the snarkjs basis, the
// powers of omega_2n) -> compute_h_device per partition: no allocation, stream-ordered.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/result.hpp"
#include "cuda/ntt/ntt_device.hpp"
#include "ff/fr.hpp"
#include "groth16/keys.hpp"

namespace pp::cuda {

// Resident tables for one key's QAP domain: a view of device memory the caller owns.
class device_qap {
 public:
  static result<uint64_t> workspace_bytes(int log_n, groth16::h_basis basis);
  // Builds the domain over the key's root family (5^t for snarkjs, 7^t for bellman) and uploads its
  // tables into d_workspace (>= workspace_bytes, 256-byte aligned); waits for stream (setup only).
  static result<device_qap> create(int log_n, groth16::h_basis basis, void* d_workspace, uint64_t bytes,
                                   cudaStream_t stream);

  [[nodiscard]] uint64_t size() const { return ntt_.size(); }
  [[nodiscard]] groth16::h_basis basis() const { return basis_; }
  [[nodiscard]] const device_ntt_domain& ntt_domain() const { return ntt_; }

 private:
  friend status compute_h_device(const device_qap&, ff::fr*, ff::fr*, ff::fr*, cudaStream_t);
  friend status h_to_coset(const device_qap&, ff::fr*, cudaStream_t);
  friend status h_multiply(const device_qap&, ff::fr*, const ff::fr*, cudaStream_t);
  friend status h_finish(const device_qap&, ff::fr*, const ff::fr*, cudaStream_t);
  device_ntt_domain ntt_;
  groth16::h_basis basis_ = groth16::h_basis::odd_coset_lagrange;
  ff::fr z_coset_inv_{};             // monomial: 1 / (g^n - 1)
  const ff::fr* d_shift_lo_ = nullptr;  // odd_coset_lagrange: omega_2n^x / n = lo[x mod 2^lo_log] * hi[x >> lo_log]
  const ff::fr* d_shift_hi_ = nullptr;
  uint32_t shift_lo_log_ = 0;
};

// QAP input rows (groth16::evaluate_qap): d_a[m + i] = d_w[i] for i < count (count = n_public + 1).
status set_input_rows(ff::fr* d_a, const ff::fr* d_w, uint64_t m, uint64_t count, cudaStream_t stream);

// The H-query scalars in place, as groth16::compute_h: on entry d_a, d_b, d_c hold the QAP
// evaluations over the domain (d_c is ignored and overwritten for odd_coset_lagrange, which uses
// c = a∘b). On return d_a[0..count) holds h (count = n for odd_coset_lagrange, n - 1 for monomial);
// d_b, d_c are scratch.
status compute_h_device(const device_qap& q, ff::fr* d_a, ff::fr* d_b, ff::fr* d_c, cudaStream_t stream);

// The same h for the monomial basis with two buffers instead of three, as three steps around the
// caller's SpMVs: h_to_coset(a), h_to_coset(b), h_multiply(a, b) (a = a∘b), then c into b and
// h_to_coset(b), then h_finish(a, b): a = (a - c) / Z, coset iNTT. Identical field elements to
// compute_h_device (the same transforms; a b - c is exact in Fr whatever the order).
// failed_precondition for the snarkjs basis (its c = a∘b is taken before the transforms).
status h_to_coset(const device_qap& q, ff::fr* d_x, cudaStream_t stream);
status h_multiply(const device_qap& q, ff::fr* d_a, const ff::fr* d_b, cudaStream_t stream);
status h_finish(const device_qap& q, ff::fr* d_a, const ff::fr* d_c, cudaStream_t stream);

// d_out[i] = d_in[d_idx[i]] for i < count: the scalars of a filtered (density) query.
status gather_scalars(ff::fr* d_out, const ff::fr* d_in, const uint32_t* d_idx, uint64_t count, cudaStream_t stream);

}  // namespace pp::cuda
