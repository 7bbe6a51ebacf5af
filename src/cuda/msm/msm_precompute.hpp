// Precomputed bases for the GPU MSM: copies 2^(g * group_windows * c) P of a set of points, made
// once on the device (for a key, at upload), that let msm (msm_device.hpp, msm_config::precomputed)
// put all of a scalar's digits into group_windows windows of buckets. They cost
// (groups - 1) * stride affine points of device memory; what they buy per width and group count is
// measured in docs/perf/msm-h200.md (precomputed bases). Plain C++ header.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

#include "core/result.hpp"
#include "cuda/plan/msm_plan.hpp"
#include "ec/affine.hpp"

namespace pp::cuda {

// Affine points the copies take, the first (the points themselves) included: groups * stride.
inline uint64_t msm_precomputed_points(const msm_precomputation& pre) { return uint64_t(pre.groups) * pre.stride; }

// Fills copies 1 .. pre.groups - 1 of d_table (copy g at d_table + g * pre.stride, n points each,
// infinity as (0, 0)) from copy 0, which the caller has written: the points themselves. Jacobian
// doublings, then affine with one inversion per msm_precompute_batch points (Montgomery's trick).
// Stream-ordered, no allocation; pre must pass check_msm_precomputation for n.
template <class Curve>
status precompute_msm_bases(ec::affine<Curve>* d_table, uint64_t n, const msm_precomputation& pre,
                            cudaStream_t stream);

}  // namespace pp::cuda
