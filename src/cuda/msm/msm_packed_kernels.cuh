// Kernels of the packed scalar vectors (msm_device.hpp, packed_scalars): a witness kept packed on the
// device (cuda/plan/witness_layout.hpp) read as a table's scalars, chunk by chunk. nvcc only; included
// by msm_run.cuh.
#pragma once
#include <cuda_runtime.h>

#include <cstdint>

#include "cuda/ff/fr_vector_access.cuh"
#include "cuda/plan/witness_layout.hpp"

namespace pp::cuda::msm_detail {

// A packed witness's sections and how a table reads it: scalar t is variable gather[t], or first + t
// without a gather list. Variables past the witness read as 0 (never out of bounds).
struct packed_view {
  const uint32_t* bitmap;     // bit v: variable v is 1 (0 for 0 and for the others)
  const uint32_t* positions;  // the others' variables, ascending
  const void* values;         // their values, Fr
  uint64_t num_other;
  uint64_t num_variables;
  const uint32_t* gather;
  uint64_t first;

  __device__ __forceinline__ uint64_t variable(uint64_t t) const {
    return gather != nullptr ? __ldg(gather + t) : first + t;
  }
  // The index of variable v among the others, or num_other when it is 0 or 1 (or past the witness).
  __device__ __forceinline__ uint64_t other_index(uint64_t v) const {
    if (v >= num_variables || ((__ldg(bitmap + v / 32) >> (v % 32)) & 1u)) return num_other;
    uint64_t lo = 0, hi = num_other;
    while (lo < hi) {
      const uint64_t mid = (lo + hi) / 2;
      if (__ldg(positions + mid) < v) lo = mid + 1;
      else hi = mid;
    }
    return lo < num_other && __ldg(positions + lo) == v ? lo : num_other;
  }
};

// out[j] = scalar first_t + j of the table, j < len.
template <class Fr>
__global__ void expand_packed_kernel(packed_view p, uint64_t first_t, uint64_t len, Fr* __restrict__ out) {
  const uint64_t j = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (j >= len) return;
  const uint64_t v = p.variable(first_t + j);
  Fr s = Fr::zero();
  if (v < p.num_variables && ((__ldg(p.bitmap + v / 32) >> (v % 32)) & 1u)) {
    s = Fr::one();
  } else {
    const uint64_t i = p.other_index(v);
    if (i < p.num_other) s = ldg_fr(static_cast<const Fr*>(p.values) + i);
  }
  store_fr(out + j, s);
}

// counts[c] += the table's scalars t < total with t / chunk_n = c that are neither 0 nor 1 (counts
// zeroed by the caller); one atomic a warp and chunk. A template (on the values' field) so that
// every instantiation unit of msm_run.cuh has its own.
template <class Fr>
__global__ void count_packed_others_kernel(packed_view p, uint64_t total, uint64_t chunk_n, uint32_t* counts) {
  const uint64_t t = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x;
  if (t >= total) return;
  const bool other = p.other_index(p.variable(t)) < p.num_other;
  const uint32_t chunk = uint32_t(t / chunk_n);
  const unsigned active = __activemask();
  const unsigned same = __match_any_sync(active, chunk);
  const unsigned votes = __ballot_sync(active, other) & same;
  if (votes != 0 && unsigned(__ffs(same) - 1) == (threadIdx.x & 31u)) {
    atomicAdd(counts + chunk, uint32_t(__popc(votes)));
  }
}

}  // namespace pp::cuda::msm_detail
