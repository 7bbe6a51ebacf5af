// Kernel of the GPU fixed-base multiplication (fixed_base_device.hpp, fixed_base_launch.hpp), a template over the curve;
// fixed_base_g1.cu / fixed_base_g2.cu instantiate it with its launcher.
#pragma once
#include <cstdint>

#include "core/cuda_try.hpp"
#include "cuda/setup/fixed_base_launch.hpp"
#include "ec/xyzz.hpp"
#include "ff/fr.hpp"

namespace pp::cuda::fixed_base_detail {

inline constexpr int block_threads = 128;

// Thread i: [k_i] B = sum over windows j of T[j][digit_j(k_i)] with T[j][d] = [d 2^(8j)] B; digit 0
// adds nothing, so k = 0 stays infinity and comes out as (0, 0). 32 madd-2008-s (8M + 2S) and one
// inversion of ZZ * ZZZ.
template <class Curve>
__global__ void __launch_bounds__(block_threads)
    fixed_base_kernel(const ec::affine<Curve>* __restrict__ table, const ff::fr* __restrict__ scalars, uint32_t n,
                      ec::affine<Curve>* __restrict__ out) {
  constexpr int w = window_bits;
  constexpr uint32_t mask = (1u << w) - 1;
  const uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  uint64_t k[4];
  scalars[i].to_canonical(k);
  ec::xyzz<Curve> acc = ec::xyzz<Curve>::infinity();
#pragma unroll 1
  for (int j = 0; j < num_windows; ++j) {
    const int bit = j * w;
    const uint32_t d = uint32_t(k[bit >> 6] >> (bit & 63)) & mask;
    if (d != 0) acc = ec::add(acc, table[(uint32_t(j) << w) + d]);
  }
  out[i] = ec::to_affine(acc);
}

template <class Curve>
status launch(const ec::affine<Curve>* d_table, const ff::fr* d_scalars, uint64_t n, ec::affine<Curve>* d_out,
              cudaStream_t stream) {
  if (n == 0) return ok_status();
  if (n > max_launch) return invalid_argument("fixed_base_device: more than 2^30 scalars in one launch");
  const uint64_t blocks = (n + block_threads - 1) / block_threads;
  fixed_base_kernel<Curve><<<unsigned(blocks), block_threads, 0, stream>>>(d_table, d_scalars, uint32_t(n), d_out);
  PP_CUDA_TRY(cudaGetLastError());
  return ok_status();
}

}  // namespace pp::cuda::fixed_base_detail

// In namespace pp::cuda: the launcher declared in fixed_base_launch.hpp for one curve.
#define PP_CUDA_INSTANTIATE_FIXED_BASE(Curve)                                                          \
  template status fixed_base_detail::launch<Curve>(const ec::affine<Curve>*, const ff::fr*, uint64_t, \
                                                   ec::affine<Curve>*, cudaStream_t);
