// Device twin of groth16::compute_h (src/groth16/qap.cpp) and the small Groth16 glue kernels the
// CUDA backend needs around SpMV and MSM: the QAP input rows, the H-query scalars for either basis,
// and the gather of a filtered query's scalars. Identical field elements to the CPU path. Templates on
// the scalar field (both curves' instantiated in groth16_qap.cpp and .cu; the unqualified names are
// BLS12-381's). Plain C++.
//
// Use: device_qap::workspace_bytes(log_n, basis) -> caller provides memory -> device_qap::create
// once per key (uploads the NTT tables of the key's root family and, for the snarkjs basis, the
// powers of omega_2n) -> compute_h_device per partition: no allocation, stream-ordered.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/result.hpp"
#include "cuda/ntt/ntt_device.hpp"
#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"
#include "groth16/keys.hpp"

namespace pp::cuda {

// Resident tables for one key's QAP domain: a view of device memory the caller owns.
template <class Fr>
class basic_device_qap {
 public:
  static result<uint64_t> workspace_bytes(int log_n, groth16::h_basis basis);
  // Builds the domain over the key's root family (5^t for snarkjs, 7^t for bellman) and uploads its
  // tables into d_workspace (>= workspace_bytes, 256-byte aligned); waits for stream (setup only).
  static result<basic_device_qap> create(int log_n, groth16::h_basis basis, void* d_workspace, uint64_t bytes,
                                         cudaStream_t stream);

  [[nodiscard]] uint64_t size() const { return ntt_.size(); }
  [[nodiscard]] groth16::h_basis basis() const { return basis_; }
  [[nodiscard]] const basic_device_ntt_domain<Fr>& ntt_domain() const { return ntt_; }
  // monomial: 1 / (g^n - 1), Z on the coset.
  [[nodiscard]] const Fr& z_coset_inv() const { return z_coset_inv_; }
  // odd_coset_lagrange: omega_2n^x / n, intt_shifted's tables.
  [[nodiscard]] basic_device_shift_powers<Fr> odd_coset_shift() const {
    return {d_shift_lo_, d_shift_hi_, int(shift_lo_log_)};
  }

 private:
  basic_device_ntt_domain<Fr> ntt_;
  groth16::h_basis basis_ = groth16::h_basis::odd_coset_lagrange;
  Fr z_coset_inv_{};
  const Fr* d_shift_lo_ = nullptr;  // omega_2n^x / n = lo[x mod 2^lo_log] * hi[x >> lo_log]
  const Fr* d_shift_hi_ = nullptr;
  uint32_t shift_lo_log_ = 0;
};

using device_qap = basic_device_qap<ff::fr>;

// QAP input rows (groth16::evaluate_qap): d_a[m + i] = d_w[i] for i < count (count = n_public + 1).
template <class Fr>
status set_input_rows(Fr* d_a, const Fr* d_w, uint64_t m, uint64_t count, cudaStream_t stream);

// The H-query scalars in place, as groth16::compute_h: on entry d_a, d_b, d_c hold the QAP
// evaluations over the domain (d_c is ignored and overwritten for odd_coset_lagrange, which uses
// c = a∘b). On return d_a[0..count) holds h (count = n for odd_coset_lagrange, n - 1 for monomial);
// d_b, d_c are scratch.
template <class Fr>
status compute_h_device(const basic_device_qap<Fr>& q, Fr* d_a, Fr* d_b, Fr* d_c, cudaStream_t stream);

// The same h for the monomial basis with two buffers instead of three, as three steps around the
// caller's SpMVs: h_to_coset(a), h_to_coset(b), h_multiply(a, b) (a = a∘b), then c into b and
// h_finish(a, b): a's coset iNTT, c's iNTT (over the domain: C's coefficients, poly/quotient.hpp),
// a = (a - c) / Z; c is left clobbered. Identical field elements to compute_h_device (the same
// transforms; exact in Fr whatever the order). failed_precondition for the snarkjs basis (its
// c = a∘b is taken before the transforms).
template <class Fr>
status h_to_coset(const basic_device_qap<Fr>& q, Fr* d_x, cudaStream_t stream);
template <class Fr>
status h_multiply(const basic_device_qap<Fr>& q, Fr* d_a, const Fr* d_b, cudaStream_t stream);
template <class Fr>
status h_finish(const basic_device_qap<Fr>& q, Fr* d_a, Fr* d_c, cudaStream_t stream);

// d_out[i] = d_in[d_idx[i]] for i < count: the scalars of a filtered (density) query.
template <class Fr>
status gather_scalars(Fr* d_out, const Fr* d_in, const uint32_t* d_idx, uint64_t count, cudaStream_t stream);

}  // namespace pp::cuda
