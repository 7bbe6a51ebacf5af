// Host half of groth16_qap.hpp: the domain over the key's root family and the resident tables.
#include <string>
#include <vector>

#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"
#include "cuda/plan/qap_tables.hpp"
#include "cuda/qap/groth16_qap.hpp"
#include "groth16/qap.hpp"
#include "poly/powers.hpp"

namespace pp::cuda {
namespace {

uint64_t pad256(uint64_t b) { return (b + 255) / 256 * 256; }

}  // namespace

template <class Fr>
result<uint64_t> basic_device_qap<Fr>::workspace_bytes(int log_n, groth16::h_basis basis) {
  return qap_tables_bytes(log_n, basis);
}

template <class Fr>
result<basic_device_qap<Fr>> basic_device_qap<Fr>::create(int log_n, groth16::h_basis basis, void* d_workspace,
                                                          uint64_t bytes, cudaStream_t stream) {
  PP_ASSIGN_OR_RETURN(const uint64_t need, workspace_bytes(log_n, basis));
  if (bytes < need) {
    return invalid_argument("device_qap: workspace of " + std::to_string(bytes) + " bytes, expected " +
                            std::to_string(need));
  }
  // The 5^t (snarkjs) or 7^t (bellman) domain itself: natural-order results equal qap_domain's.
  using domain = poly::basic_evaluation_domain<Fr>;
  PP_ASSIGN_OR_RETURN(const domain d, domain::create(log_n, groth16::root_family_for(basis)));
  const uint64_t ntt_bytes = pad256(basic_device_ntt_domain<Fr>::workspace_bytes(d));
  basic_device_qap q;
  PP_ASSIGN_OR_RETURN(q.ntt_, basic_device_ntt_domain<Fr>::create(d, d_workspace, ntt_bytes, stream));
  q.basis_ = basis;
  q.z_coset_inv_ = d.vanishing_on_coset_inv();
  if (basis == groth16::h_basis::odd_coset_lagrange) {
    const Fr shift = ff::root_of_unity<Fr>(log_n + 1, d.family());  // omega_2n, as groth16::compute_h
    const uint32_t lo_log = uint32_t(qap_shift_lo_log(log_n));
    std::vector<Fr> lo(uint64_t{1} << lo_log), hi(uint64_t{1} << (log_n - lo_log));
    poly::fill_powers(lo, shift);
    poly::fill_powers(hi, shift.pow(lo.size()), d.size_inv());  // 1/n folded in: intt_shifted's tables
    char* p = static_cast<char*>(d_workspace) + ntt_bytes;
    PP_CUDA_TRY(cudaMemcpyAsync(p, lo.data(), lo.size() * sizeof(Fr), cudaMemcpyHostToDevice, stream));
    q.d_shift_lo_ = reinterpret_cast<const Fr*>(p);
    p += pad256(lo.size() * sizeof(Fr));
    PP_CUDA_TRY(cudaMemcpyAsync(p, hi.data(), hi.size() * sizeof(Fr), cudaMemcpyHostToDevice, stream));
    q.d_shift_hi_ = reinterpret_cast<const Fr*>(p);
    q.shift_lo_log_ = lo_log;
    PP_CUDA_TRY(cudaStreamSynchronize(stream));  // the host vectors die here (setup only)
  }
  return q;
}

template class basic_device_qap<ff::fr>;
template class basic_device_qap<ff::bn254::fr>;

}  // namespace pp::cuda
