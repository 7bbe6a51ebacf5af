// Host side of the precomputed MSM bases (msm_precompute.hpp): one kernel launch a copy, each from
// the copy before it. Included once per curve by msm_g1.cu, msm_g2.cu, msm_bn254_g1.cu and
// msm_bn254_g2.cu, which instantiate it.
#pragma once
#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"
#include "cuda/msm/msm_precompute.hpp"
#include "cuda/msm/msm_precompute_kernels.cuh"

namespace pp::cuda {

template <class Curve>
status precompute_msm_bases(ec::affine<Curve>* d_table, uint64_t n, const msm_precomputation& pre,
                            cudaStream_t stream) {
  PP_RETURN_IF_ERROR(check_msm_precomputation(pre, n));
  if (d_table == nullptr) return invalid_argument("GPU MSM precomputed bases: null table");
  if (n == 0) return ok_status();
  const int block = msm_tuning_sm90.block_threads;
  const uint64_t threads = (n + msm_precompute_batch - 1) / msm_precompute_batch;
  const uint64_t blocks = (threads + block - 1) / block;
  for (uint32_t g = 1; g < pre.groups; ++g) {
    msm_detail::precompute_copy_kernel<Curve, msm_precompute_batch><<<blocks, block, 0, stream>>>(
        d_table + uint64_t(g - 1) * pre.stride, d_table + uint64_t(g) * pre.stride, n,
        pre.group_windows * pre.window_bits);
    PP_CUDA_TRY(cudaGetLastError());
  }
  return ok_status();
}

}  // namespace pp::cuda

#define PP_CUDA_INSTANTIATE_MSM_PRECOMPUTE(Curve) \
  template status precompute_msm_bases<Curve>(ec::affine<Curve>*, uint64_t, const msm_precomputation&, cudaStream_t);
