// Kernel of the precomputed MSM bases (msm_precompute.hpp); msm_precompute_run.cuh launches it.
#pragma once
#include <cstdint>

#include "ec/xyzz.hpp"

namespace pp::cuda::msm_detail {

// Thread t: dst[i] = 2^shift src[i] for its batch i in [t * Batch, t * Batch + Batch) below n,
// by shift XYZZ doublings, then to affine with one inversion for the batch: 1/ZZ and 1/ZZZ from
// 1/(ZZ ZZZ) as ec::to_affine does. Infinity (ZZ = 0) stays infinity, stored (0, 0).
template <class Curve, int Batch>
__global__ void __launch_bounds__(128) precompute_copy_kernel(const ec::affine<Curve>* __restrict__ src,
                                                              ec::affine<Curve>* __restrict__ dst, uint64_t n,
                                                              int shift) {
  using field = typename Curve::field;
  const uint64_t lo = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) * Batch;
  if (lo >= n) return;
  ec::xyzz<Curve> p[Batch];
  field inv[Batch], scratch[Batch];
  for (int j = 0; j < Batch; ++j) {
    p[j] = ec::xyzz<Curve>::infinity();
    if (lo + j < n) {
      p[j] = ec::to_xyzz(src[lo + j]);
      for (int s = 0; s < shift; ++s) p[j] = ec::dbl(p[j]);
    }
    inv[j] = p[j].zz * p[j].zzz;
  }
  ff::batch_inverse(inv, scratch, Batch);
  for (int j = 0; j < Batch && lo + j < n; ++j) {
    dst[lo + j] = ec::is_infinity(p[j]) ? ec::affine<Curve>::infinity()
                                        : ec::affine<Curve>{p[j].x * (inv[j] * p[j].zzz), p[j].y * (inv[j] * p[j].zz)};
  }
}

}  // namespace pp::cuda::msm_detail
