// Device half of groth16_qap.hpp: one thread per element for the pointwise Groth16 steps (input
// rows, c = a∘b, h = a b - c, h = (p - c) / Z) around the resident NTTs. Each coset shift rides on its
// inverse transform's 1/n (intt_shifted), and the chains keep every vector in one order without a
// bit-reversal pass: intt_shifted natural -> bit-reversed (DIF), ntt bit-reversed -> natural (DIT).
#include <string>

#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"
#include "cuda/ff/fr_vector_access.cuh"
#include "cuda/qap/groth16_qap.hpp"

namespace pp::cuda {
namespace {

constexpr uint32_t block_threads = 256;

__device__ __forceinline__ uint64_t tid() { return blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; }

template <class Fr>
__global__ void input_rows_kernel(Fr* __restrict__ a, const Fr* __restrict__ w, uint64_t m, uint64_t count) {
  const uint64_t i = tid();
  if (i < count) store_fr(a + m + i, ldg_fr(w + i));
}

template <class Fr>
__global__ void hadamard_kernel(const Fr* __restrict__ a, const Fr* __restrict__ b, Fr* __restrict__ c, uint64_t n) {
  const uint64_t i = tid();
  if (i < n) store_fr(c + i, ldg_fr(a + i) * ldg_fr(b + i));
}

// a = a b - c (the snarkjs basis: h on the odd coset).
template <class Fr>
__global__ void combine_kernel(Fr* __restrict__ a, const Fr* __restrict__ b, const Fr* __restrict__ c, uint64_t n) {
  const uint64_t i = tid();
  if (i < n) store_fr(a + i, ldg_fr(a + i) * ldg_fr(b + i) - ldg_fr(c + i));
}

// a = (a - c) z_inv.
template <class Fr>
__global__ void sub_scale_kernel(Fr* __restrict__ a, const Fr* __restrict__ c, Fr z_inv, uint64_t n) {
  const uint64_t i = tid();
  if (i < n) store_fr(a + i, (ldg_fr(a + i) - ldg_fr(c + i)) * z_inv);
}

template <class Fr>
__global__ void gather_kernel(Fr* __restrict__ out, const Fr* __restrict__ in, const uint32_t* __restrict__ idx,
                              uint64_t count) {
  const uint64_t i = tid();
  if (i < count) store_fr(out + i, ldg_fr(in + __ldg(idx + i)));
}

uint32_t blocks(uint64_t n) { return uint32_t((n + block_threads - 1) / block_threads); }

}  // namespace

template <class Fr>
status set_input_rows(Fr* d_a, const Fr* d_w, uint64_t m, uint64_t count, cudaStream_t stream) {
  if (count == 0) return ok_status();
  input_rows_kernel<<<blocks(count), block_threads, 0, stream>>>(d_a, d_w, m, count);
  PP_CUDA_TRY(cudaGetLastError());
  return ok_status();
}

template <class Fr>
status gather_scalars(Fr* d_out, const Fr* d_in, const uint32_t* d_idx, uint64_t count, cudaStream_t stream) {
  if (count == 0) return ok_status();
  gather_kernel<<<blocks(count), block_threads, 0, stream>>>(d_out, d_in, d_idx, count);
  PP_CUDA_TRY(cudaGetLastError());
  return ok_status();
}

namespace {
// Evaluations over the domain -> evaluations on the coset s<omega>, natural order in and out.
template <class Fr>
status to_coset(const basic_device_ntt_domain<Fr>& dd, Fr* d_x, const basic_device_shift_powers<Fr>& s,
                cudaStream_t stream) {
  PP_RETURN_IF_ERROR(intt_shifted(dd, d_x, poly::ntt_order::nr, s, stream));
  return ntt(dd, d_x, poly::ntt_order::rn, stream);
}
}  // namespace

template <class Fr>
status h_to_coset(const basic_device_qap<Fr>& q, Fr* d_x, cudaStream_t stream) {
  if (q.basis() != groth16::h_basis::monomial) return failed_precondition("h_to_coset: monomial basis only");
  return to_coset(q.ntt_domain(), d_x, q.ntt_domain().coset_shift_powers(), stream);
}

template <class Fr>
status h_multiply(const basic_device_qap<Fr>& q, Fr* d_a, const Fr* d_b, cudaStream_t stream) {
  if (q.basis() != groth16::h_basis::monomial) return failed_precondition("h_multiply: monomial basis only");
  const uint64_t n = q.size();
  hadamard_kernel<<<blocks(n), block_threads, 0, stream>>>(d_a, d_b, d_a, n);
  PP_CUDA_TRY(cudaGetLastError());
  return ok_status();
}

template <class Fr>
status h_finish(const basic_device_qap<Fr>& q, Fr* d_a, Fr* d_c, cudaStream_t stream) {
  if (q.basis() != groth16::h_basis::monomial) return failed_precondition("h_finish: monomial basis only");
  const uint64_t n = q.size();
  PP_RETURN_IF_ERROR(coset_intt(q.ntt_domain(), d_a, poly::ntt_order::nn, stream));
  PP_RETURN_IF_ERROR(intt(q.ntt_domain(), d_c, poly::ntt_order::nn, stream));
  sub_scale_kernel<<<blocks(n), block_threads, 0, stream>>>(d_a, d_c, q.z_coset_inv(), n);
  PP_CUDA_TRY(cudaGetLastError());
  return ok_status();
}

template <class Fr>
status compute_h_device(const basic_device_qap<Fr>& q, Fr* d_a, Fr* d_b, Fr* d_c, cudaStream_t stream) {
  const uint64_t n = q.size();
  const basic_device_ntt_domain<Fr>& dd = q.ntt_domain();
  if (d_a == nullptr || d_b == nullptr || d_c == nullptr) return invalid_argument("compute_h_device: null buffer");
  if (q.basis() == groth16::h_basis::monomial) {
    // poly::compute_quotient's coefficient form: a and b to the coset, b = a∘b, its coset iNTT into
    // a, c's iNTT into b (both out of place, natural order: no bit-reversal pass), a = (a - b) / Z.
    PP_RETURN_IF_ERROR(to_coset(dd, d_a, dd.coset_shift_powers(), stream));
    PP_RETURN_IF_ERROR(to_coset(dd, d_b, dd.coset_shift_powers(), stream));
    hadamard_kernel<<<blocks(n), block_threads, 0, stream>>>(d_a, d_b, d_b, n);
    PP_CUDA_TRY(cudaGetLastError());
    PP_RETURN_IF_ERROR(ntt_into(dd, d_b, d_a, ntt_kind::coset_inverse, stream));
    PP_RETURN_IF_ERROR(ntt_into(dd, d_c, d_b, ntt_kind::inverse, stream));
    sub_scale_kernel<<<blocks(n), block_threads, 0, stream>>>(d_a, d_b, q.z_coset_inv(), n);
    PP_CUDA_TRY(cudaGetLastError());
    return ok_status();
  }
  // snarkjs: c = a∘b; each of a, b, c: iNTT, coefficient i times omega_2n^i, NTT (all over <omega_5>).
  hadamard_kernel<<<blocks(n), block_threads, 0, stream>>>(d_a, d_b, d_c, n);
  PP_CUDA_TRY(cudaGetLastError());
  const basic_device_shift_powers<Fr> shift = q.odd_coset_shift();
  for (Fr* x : {d_a, d_b, d_c}) PP_RETURN_IF_ERROR(to_coset(dd, x, shift, stream));
  combine_kernel<<<blocks(n), block_threads, 0, stream>>>(d_a, d_b, d_c, n);
  PP_CUDA_TRY(cudaGetLastError());
  return ok_status();
}

#define PP_QAP_INSTANTIATE(F)                                                             \
  template status set_input_rows(F*, const F*, uint64_t, uint64_t, cudaStream_t);         \
  template status compute_h_device(const basic_device_qap<F>&, F*, F*, F*, cudaStream_t); \
  template status h_to_coset(const basic_device_qap<F>&, F*, cudaStream_t);               \
  template status h_multiply(const basic_device_qap<F>&, F*, const F*, cudaStream_t);     \
  template status h_finish(const basic_device_qap<F>&, F*, F*, cudaStream_t);       \
  template status gather_scalars(F*, const F*, const uint32_t*, uint64_t, cudaStream_t);
PP_QAP_INSTANTIATE(ff::fr)
PP_QAP_INSTANTIATE(ff::bn254::fr)
#undef PP_QAP_INSTANTIATE

}  // namespace pp::cuda
