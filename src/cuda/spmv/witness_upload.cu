// Device half of the compact witness upload (witness_upload.hpp): one copy, then bitmap expansion
// (one thread per variable) and the scatter of the other values (one thread per listed value).
#include <string>

#include "core/cuda_try.hpp"
#include "cuda/ff/fr_vector_access.cuh"
#include "cuda/spmv/witness_upload.hpp"

namespace pp::cuda {
namespace {

template <class Fr>
__global__ void expand_bitmap_kernel(const uint32_t* __restrict__ bitmap, Fr* __restrict__ w, uint64_t n) {
  const uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  const bool bit = (__ldg(bitmap + i / 32) >> (i % 32)) & 1u;
  store_fr(w + i, bit ? Fr::one() : Fr::zero());
}

template <class Fr>
__global__ void scatter_kernel(const uint32_t* __restrict__ positions, const Fr* __restrict__ values,
                               Fr* __restrict__ w, uint64_t k) {
  const uint64_t j = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (j >= k) return;
  store_fr(w + __ldg(positions + j), ldg_fr(values + j));
}

}  // namespace

template <class Fr>
status upload_witness(const compact_witness_layout& l, const void* h_staging, void* d_workspace, Fr* d_w,
                      cudaStream_t stream, const spmv_tuning& tuning) {
  if (l.num_variables == 0) return ok_status();
  if (h_staging == nullptr || d_workspace == nullptr || d_w == nullptr) {
    return invalid_argument("upload_witness: null buffer");
  }
  if (reinterpret_cast<uintptr_t>(d_workspace) % 256 != 0) {
    return invalid_argument("upload_witness: workspace not 256-byte aligned");
  }
  PP_CUDA_TRY(cudaMemcpyAsync(d_workspace, h_staging, l.bytes, cudaMemcpyHostToDevice, stream));
  const auto* d = static_cast<const std::byte*>(d_workspace);
  const uint64_t t = uint64_t(tuning.expand_block_threads);
  expand_bitmap_kernel<<<uint32_t((l.num_variables + t - 1) / t), uint32_t(t), 0, stream>>>(
      reinterpret_cast<const uint32_t*>(d), d_w, l.num_variables);
  PP_CUDA_TRY(cudaGetLastError());
  if (l.num_other != 0) {
    scatter_kernel<<<uint32_t((l.num_other + t - 1) / t), uint32_t(t), 0, stream>>>(
        reinterpret_cast<const uint32_t*>(d + l.positions_offset), reinterpret_cast<const Fr*>(d + l.values_offset),
        d_w, l.num_other);
    PP_CUDA_TRY(cudaGetLastError());
  }
  return ok_status();
}

template status upload_witness(const compact_witness_layout&, const void*, void*, ff::fr*, cudaStream_t,
                               const spmv_tuning&);
template status upload_witness(const compact_witness_layout&, const void*, void*, ff::bn254::fr*, cudaStream_t,
                               const spmv_tuning&);

}  // namespace pp::cuda
