// Device-made scalars for the GPU MSM benchmarks (cuda_msm_bench, cuda_msm_vectors_bench): fresh
// random values each run, or witness-like ones (45% zero, 45% one), from a seed.
#pragma once
#include <cstdint>

namespace pp::cuda::bench {

__device__ inline uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

// Right shift of a random top limb that keeps a 4-limb scalar below 2^(bits of r - 1) < r: 2 for
// BLS12-381 (r of 255 bits), 3 for BN254 (254 bits).
template <class Fr>
int scalar_top_shift() {
  static_assert(Fr::n64 == 4);
  return 65 - (64 - __builtin_clzll(Fr::params::modulus[3]));
}

// Scalars below 2^(bits of r - 1) < r (any value < r is a valid Montgomery form). witness: 45% zero,
// 45% one.
template <class Fr>
__global__ void fill_scalars(Fr* a, uint64_t n, uint64_t seed, bool witness, int top_shift) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    Fr v;
    for (int k = 0; k < 4; ++k) v.l[k] = mix(seed + (5 * i + k + 1) * 0x9e3779b97f4a7c15ull);
    v.l[3] >>= top_shift;
    if (witness) {
      const uint64_t r = mix(seed ^ (5 * i + 7) * 0x9e3779b97f4a7c15ull) % 100;
      if (r < 45) v = Fr::zero();
      else if (r < 90) v = Fr::one();
    }
    a[i] = v;
  }
}

}  // namespace pp::cuda::bench
