// Kernel of the precomputed MSM bases (msm_precompute.hpp); msm_precompute_run.cuh launches it.
#pragma once
#include <cstdint>

#include "ec/jacobian.hpp"

namespace pp::cuda::msm_detail {

// Thread t: dst[i] = 2^shift src[i] for its batch i in [t * Batch, t * Batch + Batch) below n,
// by shift Jacobian doublings (2M + 5S, XYZZ's cost 6M + 3S), then to affine with one inversion of
// the batch's Z. Infinity (Z = 0) stays infinity, stored (0, 0).
template <class Curve, int Batch>
__global__ void __launch_bounds__(128) precompute_copy_kernel(const ec::affine<Curve>* __restrict__ src,
                                                              ec::affine<Curve>* __restrict__ dst, uint64_t n,
                                                              int shift) {
  using field = typename Curve::field;
  const uint64_t lo = (uint64_t(blockIdx.x) * blockDim.x + threadIdx.x) * Batch;
  if (lo >= n) return;
  ec::jacobian<Curve> p[Batch];
  field inv[Batch], scratch[Batch];
  for (int j = 0; j < Batch; ++j) {
    p[j] = ec::jacobian<Curve>::infinity();
    if (lo + j < n) {
      p[j] = ec::to_jacobian(src[lo + j]);
      for (int s = 0; s < shift; ++s) p[j] = ec::dbl(p[j]);
    }
    inv[j] = p[j].z;
  }
  ff::batch_inverse(inv, scratch, Batch);
  for (int j = 0; j < Batch && lo + j < n; ++j) {
    const field zz = inv[j].sqr();
    dst[lo + j] = ec::is_infinity(p[j]) ? ec::affine<Curve>::infinity()
                                        : ec::affine<Curve>{p[j].x * zz, p[j].y * (zz * inv[j])};
  }
}

}  // namespace pp::cuda::msm_detail
