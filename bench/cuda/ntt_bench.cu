// GPU NTT throughput over Fr (src/cuda/ntt/ntt_device.hpp): data and tables resident, CUDA events around
// each transform, median of 7 after 2 warm-ups, fresh random input (device-generated) before every
// run. Prints one table with the ratio to the best public library's figures (workload notes §8b);
// tools/ref_bench measures the reference in the same run. Rows "to_coset" time the H step's way to
// the coset (groth16_qap.cu): intt_shifted nr + ntt rn, against intt nn + coset_ntt nr ("to_coset_2").
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "bench_fail_fast.hpp"
#include "cuda/ntt/ntt_device.hpp"
#include "support/seed.hpp"

namespace {

using pp::ff::fr;
using pp::cuda::ntt_kind;
using pp::poly::ntt_order;

// Random elements below 2^254 < r from a counter hash (splitmix64), so inputs never repeat.
__global__ void fill_random(fr* a, uint64_t n, uint64_t seed) {
  for (uint64_t i = blockIdx.x * uint64_t(blockDim.x) + threadIdx.x; i < n; i += uint64_t(gridDim.x) * blockDim.x) {
    fr v;
    for (int k = 0; k < 4; ++k) {
      uint64_t z = seed + (4 * i + k + 1) * 0x9e3779b97f4a7c15ull;
      z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
      z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
      v.l[k] = z ^ (z >> 31);
    }
    v.l[3] >>= 2;
    a[i] = v;
  }
}

// The best public library's figures for a forward NTT on the H200 (workload notes §8b), ms.
double reference_ms(int log_n) {
  switch (log_n) {
    case 20: return 0.277;
    case 24: return 4.74;
    case 26: return 23.8;
    case 27: return 44.3;
    default: return 0;
  }
}


struct row {
  int log_n;
  ntt_kind kind;
  ntt_order order;
  int tile_log;       // 0: the tuning table's
  bool into = false;  // out of place, natural order (ntt_into); order reads "nn-oop"
  int elements_log = 0;      // 0: the tuning table's; else the tile column reads "10/4c1" (tile 2^10,
                             // 4 Fr per thread, rows of 2^1)
  int min_columns_log = -1;  // -1: the tuning table's
  int max_registers = -1;    // -1: the tuning table's; the tile column adds "/64" or "/64j" (just in time)
  bool twiddles_ahead = true;
  int chain = 0;             // 1: intt_shifted nr + ntt rn; 2: intt nn + coset_ntt nr (kind, order ignored)
};

// One timed transform (or chain) of row r with plan p.
pp::status run_row(const row& r, const pp::cuda::device_ntt_domain& dd, fr* d_a, fr* d_b,
                   const pp::cuda::ntt_plan& p, cudaStream_t stream) {
  if (r.chain == 1) {
    if (pp::status s = pp::cuda::run_intt_shifted(dd, d_a, ntt_order::nr, dd.coset_shift_powers(), p, stream); !s.ok()) {
      return s;
    }
    return pp::cuda::run_ntt(dd, d_a, ntt_kind::forward, ntt_order::rn, p, stream);
  }
  if (r.chain == 2) {
    if (pp::status s = pp::cuda::run_ntt(dd, d_a, ntt_kind::inverse, ntt_order::nn, p, stream); !s.ok()) return s;
    return pp::cuda::run_ntt(dd, d_a, ntt_kind::coset_forward, ntt_order::nr, p, stream);
  }
  return r.into ? pp::cuda::run_ntt_into(dd, d_a, d_b, r.kind, p, stream)
                : pp::cuda::run_ntt(dd, d_a, r.kind, r.order, p, stream);
}

}  // namespace

int main(int argc, char** argv) {
  const int max_log = argc > 1 ? std::atoi(argv[1]) : 27;
  uint64_t seed = pp::test::run_seed();
  cudaDeviceProp prop{};
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs\n", prop.name, prop.multiProcessorCount);

  std::vector<row> rows;
  for (int lg : {20, 22, 24, 26, 27}) {
    rows.push_back({lg, ntt_kind::forward, ntt_order::nn, 0});
    rows.push_back({lg, ntt_kind::forward, ntt_order::nn, 0, true});
  }
  for (int lg : {24, 27}) {
    // The 4-per-thread kernel at 2^9 tiles, rows of 2, under both register caps (80 and 64) and
    // both twiddle modes of the 64-register one, whatever the tuning table's default is.
    for (const auto& [regs, ahead] : {std::pair{0, true}, std::pair{64, true}, std::pair{64, false}}) {
      for (const bool into : {false, true}) {
        row x{lg, ntt_kind::forward, into ? ntt_order::nn : ntt_order::nr, 9, into, 2, 1};
        x.max_registers = regs;
        x.twiddles_ahead = ahead;
        rows.push_back(x);
      }
    }
    for (const int chain : {1, 2}) {
      row x{lg, ntt_kind::inverse, ntt_order::nn, 0};
      x.chain = chain;
      rows.push_back(x);
    }
    rows.push_back({lg, ntt_kind::forward, ntt_order::nr, 0});
    rows.push_back({lg, ntt_kind::inverse, ntt_order::nn, 0});
    rows.push_back({lg, ntt_kind::inverse, ntt_order::rn, 0});
    rows.push_back({lg, ntt_kind::coset_forward, ntt_order::nn, 0});
    rows.push_back({lg, ntt_kind::coset_forward, ntt_order::nr, 0});
    rows.push_back({lg, ntt_kind::coset_inverse, ntt_order::nn, 0});
    rows.push_back({lg, ntt_kind::coset_inverse, ntt_order::nn, 0, true});
    // Other shapes: four Fr per thread with 2^10 tiles and rows of 4; eight Fr per thread (radix-8
    // rounds, the default until 2026-11-29) with 2^10 / 2^11 / 2^12 tiles and rows of 4.
    rows.push_back({lg, ntt_kind::forward, ntt_order::nr, 10, false, 2, 2});
    rows.push_back({lg, ntt_kind::forward, ntt_order::nn, 10, true, 2, 2});
    for (int t : {10, 11, 12}) rows.push_back({lg, ntt_kind::forward, ntt_order::nr, t, false, 3, 2});
    rows.push_back({lg, ntt_kind::forward, ntt_order::nn, 11, true, 3, 2});
  }
  std::stable_sort(rows.begin(), rows.end(), [](const row& a, const row& b) { return a.log_n < b.log_n; });

  const uint64_t n_max = uint64_t{1} << max_log;
  fr* d_a = nullptr;
  fr* d_b = nullptr;  // the output of the out-of-place rows
  BENCH_CHECK(cudaMalloc(&d_a, n_max * sizeof(fr)));
  BENCH_CHECK(cudaMalloc(&d_b, n_max * sizeof(fr)));
  cudaStream_t stream;
  BENCH_CHECK(cudaStreamCreate(&stream));
  cudaEvent_t start, stop;
  BENCH_CHECK(cudaEventCreate(&start));
  BENCH_CHECK(cudaEventCreate(&stop));

  std::printf("\n%-6s %-11s %-6s %-10s %-30s %10s %10s %10s %9s\n", "size", "transform", "order", "tile", "plan",
              "median ms", "min ms", "ref ms", "ref/ours");
  int current_log = -1;
  void* d_tables = nullptr;
  std::optional<pp::cuda::device_ntt_domain> dd;
  for (const row& r : rows) {
    if (r.log_n > max_log) continue;
    const uint64_t n = uint64_t{1} << r.log_n;
    if (r.log_n != current_log) {
      if (d_tables) BENCH_CHECK(cudaFree(d_tables));
      auto d = pp::poly::evaluation_domain::create(r.log_n);
      if (!d.ok()) return 1;
      const uint64_t ws = pp::cuda::device_ntt_domain::workspace_bytes(*d);
      BENCH_CHECK(cudaMalloc(&d_tables, ws));
      auto created = pp::cuda::device_ntt_domain::create(*d, d_tables, ws, stream);
      if (!created.ok()) {
        std::fprintf(stderr, "%s\n", created.error().to_string().c_str());
        return 1;
      }
      dd = *created;
      current_log = r.log_n;
    }
    pp::cuda::ntt_tuning tuning = pp::cuda::ntt_tuning_sm90;
    if (r.tile_log) tuning.tile_log = r.tile_log;
    if (r.elements_log) tuning.elements_log = r.elements_log;
    if (r.min_columns_log >= 0) tuning.min_columns_log = r.min_columns_log;
    if (r.max_registers >= 0) {
      tuning.max_registers = r.max_registers;
      tuning.twiddles_ahead = r.twiddles_ahead;
    } else if (r.elements_log != 0) {
      tuning.max_registers = 0;  // a shape of its own: the kernel's default register cap
      tuning.twiddles_ahead = true;
    }
    auto plan = pp::cuda::make_ntt_plan(r.log_n, tuning, dd->max_shared_bytes());
    if (!plan.ok()) {
      std::fprintf(stderr, "%s\n", plan.error().to_string().c_str());
      return 1;
    }
    std::vector<float> ms;
    for (int rep = 0; rep < 9; ++rep) {
      fill_random<<<4096, 256, 0, stream>>>(d_a, n, seed += 0x1234567);
      BENCH_CHECK(cudaGetLastError());
      BENCH_CHECK(cudaEventRecord(start, stream));
      const pp::status s = run_row(r, *dd, d_a, d_b, *plan, stream);
      BENCH_CHECK(cudaEventRecord(stop, stream));
      if (!s.ok()) {
        std::fprintf(stderr, "%s\n", s.to_string().c_str());
        return 1;
      }
      BENCH_CHECK(cudaEventSynchronize(stop));
      float t = 0;
      BENCH_CHECK(cudaEventElapsedTime(&t, start, stop));
      if (rep >= 2) ms.push_back(t);
    }
    std::sort(ms.begin(), ms.end());
    const double med = ms[ms.size() / 2];
    const double ref = r.kind == ntt_kind::forward ? reference_ms(r.log_n) : 0;
    std::string tile = std::to_string(tuning.tile_log);
    if (r.elements_log) tile += "/" + std::to_string(1 << r.elements_log) + "c" + std::to_string(tuning.min_columns_log);
    if (r.max_registers >= 0) tile += r.max_registers == 64 ? (r.twiddles_ahead ? "/64" : "/64j") : "/80";
    char ratio[32] = "-";
    if (ref > 0) std::snprintf(ratio, sizeof ratio, "%.2f", ref / med);
    char refs[32] = "-";
    if (ref > 0) std::snprintf(refs, sizeof refs, "%.3f", ref);
    const char* name = r.chain == 1 ? "to_coset" : r.chain == 2 ? "to_coset_2" : ntt_kind_name(r.kind);
    std::printf("2^%-4d %-11s %-6s %-10s %-30s %10.3f %10.3f %10s %9s\n", r.log_n, name,
                r.into ? "nn-oop" : ntt_order_name(r.order), tile.c_str(), pp::cuda::to_string(*plan).c_str(), med, ms.front(), refs, ratio);
    std::fflush(stdout);
  }
  BENCH_CHECK(cudaFree(d_tables));
  BENCH_CHECK(cudaFree(d_a));
  BENCH_CHECK(cudaFree(d_b));
  return 0;
}
