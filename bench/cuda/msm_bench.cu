// GPU MSM throughput (src/cuda/msm/msm_device.hpp): points and scalars resident, CUDA events around
// each MSM (result copy to pinned memory included), median of 5 after one warm-up, fresh random
// scalars (device-generated) before every run. Points: up to 2^22 distinct host-made points, tiled.
// Prints one table, rows labelled by curve, with the ratio to the best public library's figures
// (workload notes; BLS12-381 only).
// Usage: cuda_msm_bench [quick] [LOG_N | g2:LOG_N | bn254:LOG_N ...] [chunk=LOG] [c=W,W...] [pre=G,G...].
// With sizes, only those run (BLS12-381's G1 unless g2: (its G2) or bn254: (BN254's G1), plain
// random + split witness + plain witness at the default width, e.g. 26 27, or 24 bn254:24 side by
// side); chunk=LOG sets msm_config::max_chunk_points = 2^LOG for every case; c= lists
// the widths of the plain random runs of the given sizes (0: the tuning's; default 0), e.g.
// c=0,21,22; pre= adds plain random runs over precomputed bases (msm_precompute.hpp) of G copies
// each, at each c= width (0: make_msm_precomputation's; more copies than digits: one per digit),
// and a second table of what the copies cost: device memory beyond the points, time to make them.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_fail_fast.hpp"
#include "bench_list_arg.hpp"
#include "bench_scalars.cuh"
#include "cuda/msm/msm_device.hpp"
#include "cuda/msm/msm_precompute.hpp"
#include "ec/bls12_381_curves.hpp"
#include "ec/bn254_curves.hpp"
#include "msm_points.hpp"
#include "support/seed.hpp"

namespace {

using pp::cuda::bench::fill_scalars;
using pp::cuda::bench::scalar_top_shift;

template <class Curve>
double reference_ms(int log_n) {
  if constexpr (std::is_same_v<Curve, pp::ec::g1_curve>) return log_n == 24 ? 156.5 : log_n == 26 ? 561.6 : 0;
  if constexpr (std::is_same_v<Curve, pp::ec::g2_curve>) return log_n == 24 ? 449.5 : 0;
  return 0;
}

uint64_t g_max_chunk_points = 0;  // chunk=LOG; 0 = the tuning's limit
std::vector<std::string> g_precompute_rows;  // the second table, printed at the end

template <class Curve>
void run_case(const char* label, int log_n, bool split, bool witness, int window_bits, void* d_points_all,
              typename Curve::scalar_field* d_scalars, uint64_t seed, const pp::cuda::msm_precomputation& pre = {}) {
  using fr = typename Curve::scalar_field;
  const uint64_t n = uint64_t{1} << log_n;
  const pp::cuda::msm_config cfg{
      .window_bits = window_bits, .max_chunk_points = g_max_chunk_points, .precomputed = pre};
  auto plan = pp::cuda::plan_msm<Curve>(n, split, cfg);
  if (!plan.ok()) {
    std::printf("%s: %s\n", label, plan.error().to_string().c_str());
    return;
  }
  void* ws = nullptr;
  BENCH_CHECK(cudaMalloc(&ws, plan->layout.total));
  pp::ec::xyzz<Curve>* h_out = nullptr;
  BENCH_CHECK(cudaMallocHost(&h_out, sizeof(*h_out)));
  cudaEvent_t e0, e1;
  BENCH_CHECK(cudaEventCreate(&e0));
  BENCH_CHECK(cudaEventCreate(&e1));
  const auto* pts = static_cast<const pp::ec::affine<Curve>*>(d_points_all);
  std::vector<float> ms;
  for (int rep = 0; rep < 6; ++rep) {
    fill_scalars<fr><<<1024, 256>>>(d_scalars, n, seed + 1000003ull * rep, witness, scalar_top_shift<fr>());
    BENCH_CHECK(cudaGetLastError());
    BENCH_CHECK(cudaEventRecord(e0));
    const pp::status st = split ? pp::cuda::split_msm<Curve>(pts, d_scalars, n, ws, plan->layout.total, h_out, nullptr, cfg)
                                : pp::cuda::msm<Curve>(pts, d_scalars, n, ws, plan->layout.total, h_out, nullptr, cfg);
    BENCH_CHECK(cudaEventRecord(e1));
    BENCH_CHECK(cudaEventSynchronize(e1));
    if (!st.ok()) {
      std::printf("%s: %s\n", label, st.to_string().c_str());
      break;
    }
    float t = 0;
    BENCH_CHECK(cudaEventElapsedTime(&t, e0, e1));
    if (rep > 0) ms.push_back(t);
  }
  BENCH_CHECK(cudaGetLastError());
  if (!ms.empty()) {
    std::sort(ms.begin(), ms.end());
    const double med = ms[ms.size() / 2];
    const double ref = split ? 0 : reference_ms<Curve>(log_n);
    const std::string path = split ? "split" : pre.groups > 1 ? "pre:" + std::to_string(pre.groups) : "plain";
    std::printf("| %-4s | 2^%d | %-6s | %-7s | %2d | %10.3f | %8.3f | %8.3f | %7.1f | %s |\n", Curve::name, log_n,
                path.c_str(), witness ? "witness" : "random", plan->shape.window_bits, med, ms.front(),
                ms.back(), plan->layout.total / 1048576.0, ref > 0 ? std::to_string(ref / med).c_str() : "-");
    std::fflush(stdout);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaFreeHost(h_out);
  cudaFree(ws);
}

// Device points: up to 2^22 distinct ones, tiled to n.
template <class Curve>
void* make_points(int log_n, uint64_t seed) {
  const uint64_t n = uint64_t{1} << log_n;
  const uint64_t u = std::min<uint64_t>(n, uint64_t{1} << 22);
  const auto host = pp::cuda::test::random_points<Curve>(seed, u);
  void* d = nullptr;
  const uint64_t bytes = u * sizeof(host[0]);
  BENCH_CHECK(cudaMalloc(&d, n * sizeof(host[0])));
  BENCH_CHECK(cudaMemcpy(d, host.data(), bytes, cudaMemcpyHostToDevice));
  for (uint64_t off = u; off < n; off += u) {
    BENCH_CHECK(cudaMemcpy(static_cast<char*>(d) + off * sizeof(host[0]), d, bytes, cudaMemcpyDeviceToDevice));
  }
  return d;
}

// Plain random runs over `groups` precomputed copies of the points at width window_bits (a table made
// here from them, timed with CUDA events, freed after its runs), and its row of the cost table.
template <class Curve>
void run_precomputed(int log_n, uint32_t groups, int window_bits, const void* d_points,
                     typename Curve::scalar_field* d_scalars, uint64_t seed) {
  using affine = pp::ec::affine<Curve>;
  const uint64_t n = uint64_t{1} << log_n;
  const auto pre = pp::cuda::make_msm_precomputation(n, groups, window_bits);
  if (!pre.ok() || pre->groups < 2) {
    std::printf("pre:%u 2^%d: %s\n", groups, log_n, pre.ok() ? "one copy, no precomputation" : pre.error().to_string().c_str());
    return;
  }
  const uint64_t extra = (pp::cuda::msm_precomputed_points(*pre) - n) * sizeof(affine);
  void* table = nullptr;
  if (cudaMalloc(&table, n * sizeof(affine) + extra) != cudaSuccess) {
    cudaGetLastError();
    std::printf("pre:%u 2^%d: %.1f GiB of copies do not fit\n", groups, log_n, extra / 1073741824.0);
    return;
  }
  BENCH_CHECK(cudaMemcpy(table, d_points, n * sizeof(affine), cudaMemcpyDeviceToDevice));
  cudaEvent_t e0, e1;
  BENCH_CHECK(cudaEventCreate(&e0));
  BENCH_CHECK(cudaEventCreate(&e1));
  BENCH_CHECK(cudaEventRecord(e0));
  const pp::status st = pp::cuda::precompute_msm_bases<Curve>(static_cast<affine*>(table), n, *pre, nullptr);
  BENCH_CHECK(cudaEventRecord(e1));
  BENCH_CHECK(cudaEventSynchronize(e1));
  float made_ms = 0;
  BENCH_CHECK(cudaEventElapsedTime(&made_ms, e0, e1));
  if (!st.ok()) {
    std::printf("pre:%u 2^%d: %s\n", groups, log_n, st.to_string().c_str());
  } else {
    run_case<Curve>("pre", log_n, false, false, 0, table, d_scalars, seed, *pre);
    char row[256];
    std::snprintf(row, sizeof(row), "| %-4s | 2^%d | %2u | %2d | %2d | %8.2f | %9.1f |", Curve::name, log_n, pre->groups,
                  pre->group_windows, pre->window_bits, extra / 1073741824.0, made_ms);
    g_precompute_rows.emplace_back(row);
  }
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  cudaFree(table);
}

template <class Curve>
void sweep(int log_n, const std::vector<int>& plain_windows, bool with_split, uint64_t seed,
           const std::vector<int>& precomputed = {}) {
  void* d_points = make_points<Curve>(log_n, seed);
  typename Curve::scalar_field* d_scalars = nullptr;
  BENCH_CHECK(cudaMalloc(&d_scalars, (uint64_t{1} << log_n) * sizeof(*d_scalars)));
  for (int c : plain_windows) run_case<Curve>("plain", log_n, false, false, c, d_points, d_scalars, seed);
  for (int g : precomputed) {
    for (int c : plain_windows) run_precomputed<Curve>(log_n, uint32_t(g), c, d_points, d_scalars, seed);
  }
  if (with_split) {
    run_case<Curve>("split", log_n, true, true, 0, d_points, d_scalars, seed);
    run_case<Curve>("plain-witness", log_n, false, true, 0, d_points, d_scalars, seed);
  }
  cudaFree(d_scalars);
  cudaFree(d_points);
}

}  // namespace

int main(int argc, char** argv) {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device\n");
    return 77;
  }
  cudaDeviceProp prop{};
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  const uint64_t seed = pp::test::run_seed();
  std::printf("device %s, %d SMs\n", prop.name, prop.multiProcessorCount);
  bool quick = false;
  std::vector<int> g1_sizes, g2_sizes, bn254_sizes, widths{0}, groups;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "quick") {
      quick = true;
    } else if (a.rfind("chunk=", 0) == 0) {
      g_max_chunk_points = uint64_t{1} << std::atoi(a.c_str() + 6);
    } else if (a.rfind("c=", 0) == 0) {
      widths = comma_list(a.substr(2), [](const char* v) { return std::atoi(v); });
    } else if (a.rfind("pre=", 0) == 0) {
      groups = comma_list(a.substr(4), [](const char* v) { return std::atoi(v); });
    } else if (a.rfind("g2:", 0) == 0) {
      g2_sizes.push_back(std::atoi(a.c_str() + 3));
    } else if (a.rfind("bn254:", 0) == 0) {
      bn254_sizes.push_back(std::atoi(a.c_str() + 6));
    } else if (!a.empty() && a[0] >= '0' && a[0] <= '9') {
      g1_sizes.push_back(std::atoi(a.c_str()));
    } else {
      std::fprintf(stderr,
                   "usage: %s [quick] [LOG_N | g2:LOG_N | bn254:LOG_N ...] [chunk=LOG] [c=W,W...] [pre=G,G...]\n",
                   argv[0]);
      return 2;
    }
  }
  if (g_max_chunk_points > 0) std::printf("chunk limit %llu points\n", (unsigned long long)g_max_chunk_points);
  std::printf("| curve | n | path | scalars | c | median ms | min ms | max ms | workspace MiB | ref / ours |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|\n");
  using pp::ec::g1_curve;
  using pp::ec::g2_curve;
  if (!g1_sizes.empty() || !g2_sizes.empty() || !bn254_sizes.empty()) {
    for (int log_n : g1_sizes) sweep<g1_curve>(log_n, widths, true, seed, groups);
    for (int log_n : g2_sizes) sweep<g2_curve>(log_n, widths, true, seed, groups);
    for (int log_n : bn254_sizes) sweep<pp::ec::bn254::g1_curve>(log_n, widths, true, seed, groups);
    if (!g_precompute_rows.empty()) {
      std::printf("\nprecomputed bases: copies (G), bucket windows, c, device memory beyond the points, time to make\n");
      std::printf("| curve | n | G | windows | c | copies GiB | made in ms |\n|---|---|---|---|---|---|---|\n");
      for (const auto& r : g_precompute_rows) std::printf("%s\n", r.c_str());
    }
    return 0;
  }
  sweep<g1_curve>(20, {0}, false, seed);
  sweep<g1_curve>(22, {0}, false, seed);
  sweep<g1_curve>(24, quick ? std::vector<int>{0} : std::vector<int>{0, 16, 18, 19, 21, 22}, true, seed);
  sweep<g1_curve>(26, quick ? std::vector<int>{0} : std::vector<int>{0, 22}, false, seed);
  sweep<g2_curve>(20, {0}, false, seed);
  sweep<g2_curve>(24, quick ? std::vector<int>{0} : std::vector<int>{0, 16, 18}, true, seed);
  return 0;
}
