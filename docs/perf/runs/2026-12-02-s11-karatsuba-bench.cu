// s11 harness as run on the H200 (docs/perf/msm-h200.md, session 11), not part of the build: built
// with nvcc -O3 -DNDEBUG -std=c++20 -arch=sm_90 against the tree's include folders, once as it is
// (kmul_byval), once with -DPP_EXPERIMENT_KARATSUBA [-DPP_EXPERIMENT_KARA_SQR] and
// 2026-12-02-s11-karatsuba-hook.diff's mont_mul_device.hpp ahead of the tree's (kmul_kara2[sq]).
// The occupancy call used the same harness with __launch_bounds__(T, B) copies of the two kernels.
// s11 experiment: the accumulation and bucket-segment kernels of the GPU MSM at other launch shapes
// (threads per block, min blocks per SM -> register cap -> warps per SM). Synthetic input shaped like
// a c = 20 MSM of 2^LOG points: 13 windows, 2^19 buckets each, runs of ~n / 2^19 entries, random
// point indices and signs, random field elements as points (the formulas' cost does not depend on
// the point being on the curve). Every variant's buckets must equal the first's bit for bit.
#include <cuda_runtime.h>
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <vector>
#include "cuda/msm_kernels.cuh"

using namespace pp;
using namespace pp::cuda::msm_detail;

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { std::printf("CUDA %s at %d\n", cudaGetErrorString(e_), __LINE__); std::exit(1);} } while (0)

__device__ uint64_t mix(uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

__global__ void fill_words(uint64_t* w, uint64_t count, uint64_t seed, int limbs_per_elem) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < count; i += uint64_t(gridDim.x) * blockDim.x) {
    uint64_t v = mix(seed + i * 0x9e3779b97f4a7c15ull);
    if (i % limbs_per_elem == uint64_t(limbs_per_elem - 1)) v &= 0x0fffffffffffffffull;  // < p
    w[i] = v;
  }
}

__global__ void fill_entries(uint32_t* keys, uint32_t* vals, uint64_t m, uint64_t buckets, uint32_t n, uint64_t seed) {
  for (uint64_t e = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; e < m; e += uint64_t(gridDim.x) * blockDim.x) {
    keys[e] = uint32_t((e * buckets) / m);
    const uint64_t r = mix(seed ^ (e * 0x9e3779b97f4a7c15ull));
    vals[e] = uint32_t(r % n) | (r >> 63 ? sign_bit : 0u);
  }
}

template <class C> const char* curve_name() { return std::is_same_v<C, ec::g1_curve> ? "G1" : "G2"; }

static char hexbuf[8][20]; static int hexi = 0;
const char* hex(uint64_t v) { char* b = hexbuf[hexi++ & 7]; std::snprintf(b, 20, "%016llx", (unsigned long long)v); return b; }

uint64_t checksum(const void* d, size_t bytes) {
  std::vector<uint64_t> h(bytes / 8);
  CK(cudaMemcpy(h.data(), d, bytes, cudaMemcpyDeviceToHost));
  uint64_t s = 0;
  for (size_t i = 0; i < h.size(); ++i) s = s * 0x100000001b3ull + h[i];
  return s;
}

template <class Curve>
struct ctx {
  using B = xyzz_t<Curve>;
  uint32_t n; uint64_t m, buckets, threads; uint32_t chunk = 256;
  uint32_t *keys, *vals, *sk; uint8_t* sf; B *bk, *sv, *ot, *os; affine_t<Curve>* pts;
  uint64_t ref_acc = 0, ref_seg = 0;
  const uint32_t* d_null = nullptr;
  explicit ctx(int log_n) {
    n = 1u << log_n; const int windows = 13; buckets = uint64_t(windows) << 19; m = uint64_t(windows) * n;
    threads = (m + chunk - 1) / chunk;
    CK(cudaMalloc(&keys, m * 4)); CK(cudaMalloc(&vals, m * 4)); CK(cudaMalloc(&pts, sizeof(affine_t<Curve>) * n));
    CK(cudaMalloc(&bk, sizeof(B) * buckets)); CK(cudaMalloc(&sk, 8 * threads)); CK(cudaMalloc(&sf, 2 * threads));
    CK(cudaMalloc(&sv, sizeof(B) * 2 * threads));
    CK(cudaMalloc(&ot, sizeof(B) * (buckets / 64))); CK(cudaMalloc(&os, sizeof(B) * (buckets / 64)));
    fill_words<<<4096, 256>>>(reinterpret_cast<uint64_t*>(pts), sizeof(affine_t<Curve>) / 8 * uint64_t(n), 0x1234, 6);
    fill_entries<<<4096, 256>>>(keys, vals, m, buckets, n, 0x5678);
    CK(cudaDeviceSynchronize());
  }
  template <int T, int Bn>
  void acc(const char* label) {
    auto* fn = segmented_sum_kernel<Curve, point_source<Curve>>;
    cudaFuncAttributes a{}; CK(cudaFuncGetAttributes(&a, fn));
    int blocks_sm = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_sm, fn, T, 0));
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    std::vector<float> ms;
    for (int r = 0; r < 4; ++r) {
      CK(cudaMemset(bk, 0, sizeof(B) * buckets));
      CK(cudaEventRecord(e0));
      if constexpr (Bn == 0) {
        segmented_sum_kernel<Curve, point_source<Curve>><<<(threads + T - 1) / T, T>>>(
            keys, point_source<Curve>{pts, vals}, m, d_null, uint32_t(buckets), chunk, threads, bk, sk, sf, sv);
      }
      CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
      float t; CK(cudaEventElapsedTime(&t, e0, e1)); if (r > 0) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    const uint64_t cs = checksum(bk, sizeof(B) * buckets);
    if (ref_acc == 0) ref_acc = cs;
    std::printf("| %s | accumulate | %d | %d (0: as built) | %d | %zu | %d | %.3f | %s |\n", curve_name<Curve>(), T, Bn, a.numRegs,
                a.localSizeBytes, blocks_sm * T / 32, ms[1], hex(cs));
  }
  template <int T, int Bn>
  void seg(const char* label) {
    auto* fn = bucket_segments_kernel<Curve>;
    cudaFuncAttributes a{}; CK(cudaFuncGetAttributes(&a, fn));
    int blocks_sm = 0; CK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks_sm, fn, T, 0));
    const uint32_t segs = (1u << 19) / 64; const uint64_t th = 13ull * segs;
    cudaEvent_t e0, e1; CK(cudaEventCreate(&e0)); CK(cudaEventCreate(&e1));
    std::vector<float> ms;
    for (int r = 0; r < 4; ++r) {
      CK(cudaEventRecord(e0));
      if constexpr (Bn == 0) bucket_segments_kernel<Curve><<<(th + T - 1) / T, T>>>(bk, 1u << 19, 64, segs, th, ot, os);
      CK(cudaEventRecord(e1)); CK(cudaEventSynchronize(e1)); CK(cudaGetLastError());
      float t; CK(cudaEventElapsedTime(&t, e0, e1)); if (r > 0) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    const uint64_t cs = checksum(os, sizeof(B) * th) ^ checksum(ot, sizeof(B) * th);
    if (ref_seg == 0) ref_seg = cs;
    std::printf("| %s | bucket segments | %d | %d (0: as built) | %d | %zu | %d | %.3f | %s |\n", curve_name<Curve>(), T, Bn, a.numRegs,
                a.localSizeBytes, blocks_sm * T / 32, ms[1], hex(cs));
  }
};

int main(int argc, char** argv) {
  const int log_n = argc > 1 ? std::atoi(argv[1]) : 24;
#if defined(PP_EXPERIMENT_KARA_SQR)
  const char* mul = "karatsuba v2 + squaring";
#elif defined(PP_EXPERIMENT_KARATSUBA)
  const char* mul = "karatsuba v2";
#else
  const char* mul = "cios";
#endif
  std::printf("Fp product: %s; synthetic c = 20 MSM, n = 2^%d, 13 windows; median of 3 after a warm-up\n", mul, log_n);
  std::printf("| curve | kernel | threads/block | min blocks | registers | local bytes | warps/SM | ms | checksum |\n|---|---|---|---|---|---|---|---|---|\n");
  {
    ctx<ec::g1_curve> g(log_n);
    g.acc<128, 0>(""); g.acc<128, 0>(""); g.seg<128, 0>("");
  }
  CK(cudaDeviceSynchronize());
  {
    ctx<ec::g2_curve> g(log_n);
    g.acc<128, 0>(""); g.acc<128, 0>(""); g.seg<128, 0>("");
  }
  return 0;
}
