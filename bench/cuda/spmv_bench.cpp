// GPU SpMV and compact witness upload on synthetic PoRep-like systems (src/cuda/spmv/spmv_device.hpp,
// witness_upload.hpp): generation and compaction time, resident bytes against plain CSR, witness
// bytes against 32 B/value, upload and SpMV times with CUDA events (median of 7 after 2 warm-ups),
// a block-size sweep, and one check against the CPU evaluate_abc. Usage: cuda_spmv_bench [log_n...]
#include <cuda_runtime_api.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <span>
#include <vector>

#include "bench_fail_fast.hpp"
#include "cuda/runtime/cuda_event.hpp"
#include "cuda/runtime/device_memory.hpp"
#include "cuda/spmv/spmv_device.hpp"
#include "cuda/spmv/witness_upload.hpp"
#include "r1cs/spmv.hpp"
#include "r1cs/synthetic.hpp"

namespace {

using pp::ff::fr;
using namespace pp::cuda;

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

template <class F>
float median_ms(cudaStream_t s, F&& f, int warm = 2, int reps = 7) {
  auto e0 = cuda_event::create(true), e1 = cuda_event::create(true);
  BENCH_CHECK_OK(e0.error());
  BENCH_CHECK_OK(e1.error());
  std::vector<float> t;
  for (int i = 0; i < warm + reps; ++i) {
    BENCH_CHECK_OK(e0->record(s));
    f();
    BENCH_CHECK_OK(e1->record(s));
    BENCH_CHECK_OK(e1->synchronize());
    if (i >= warm) t.push_back(*cuda_event::elapsed_ms(*e0, *e1));
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

void run(int log_n, device_memory& mem) {
  const uint64_t n = uint64_t{1} << log_n;
  pp::r1cs::synthetic_params p;
  p.num_constraints = n;
  p.num_public = 16;
  p.num_aux = n;
  p.seed = 0x5eed0000ull + log_n;
  auto t0 = std::chrono::steady_clock::now();
  auto sc = pp::r1cs::make_synthetic(p);
  BENCH_CHECK_OK(sc.error());
  const double gen_s = seconds_since(t0);
  const auto& cs = sc->cs;
  t0 = std::chrono::steady_clock::now();
  auto compact = make_compact_r1cs(cs);
  BENCH_CHECK_OK(compact.error());
  const double compact_s = seconds_since(t0);
  uint64_t nnz = 0, words = 0, table = 0;
  for (int i = 0; i < 3; ++i) {
    words += compact->m[i].words.size();
    table += compact->m[i].table.size();
  }
  nnz = cs.a().nnz() + cs.b().nnz() + cs.c().nnz();
  std::printf("\n== 2^%d rows, %llu variables, nnz %llu (A %llu B %llu C %llu): generated in %.1f s, compacted in %.1f s\n",
              log_n, (unsigned long long)cs.num_variables(), (unsigned long long)nnz,
              (unsigned long long)cs.a().nnz(), (unsigned long long)cs.b().nnz(), (unsigned long long)cs.c().nnz(),
              gen_s, compact_s);
  const uint64_t mbytes = compact->device_bytes(), plain = compact_r1cs::plain_bytes(cs);
  std::printf("matrices: %.1f MiB compact (%llu words, %llu table coefficients) vs %.1f MiB plain CSR: %.2fx smaller\n",
              mbytes / 1048576.0, (unsigned long long)words, (unsigned long long)table, plain / 1048576.0,
              double(plain) / mbytes);

  cudaStream_t s;
  BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  uint64_t next = 0;
  auto take = [&](uint64_t bytes) {
    auto r = mem.region(next, bytes);
    BENCH_CHECK_OK(r.error());
    next += (bytes + 255) / 256 * 256;
    return *r;
  };
  t0 = std::chrono::steady_clock::now();
  auto dm = upload_r1cs(*compact, take(mbytes), mbytes, s);
  BENCH_CHECK_OK(dm.error());
  std::printf("matrix upload (pageable, once per circuit): %.1f ms\n", seconds_since(t0) * 1e3);

  const uint64_t vars = cs.num_variables();
  auto* d_w = static_cast<fr*>(take(vars * sizeof(fr)));
  fr* d_abc[3];
  for (auto& q : d_abc) q = static_cast<fr*>(take(n * sizeof(fr)));

  // Witness: pack on the host, upload compact, expand.
  auto staging = mem.staging(0);
  std::vector<double> pack_ms;
  pp::result<compact_witness_layout> layout = pp::internal_error("unset");
  for (int i = 0; i < 5; ++i) {
    t0 = std::chrono::steady_clock::now();
    layout = pack_witness(std::span<const fr>(sc->w), staging);
    pack_ms.push_back(seconds_since(t0) * 1e3);
    BENCH_CHECK_OK(layout.error());
  }
  std::sort(pack_ms.begin(), pack_ms.end());
  void* d_ws = take(layout->bytes);
  const float up_ms = median_ms(s, [&] { BENCH_CHECK_OK(upload_witness(*layout, staging.data(), d_ws, d_w, s)); });
  const float copy_ms = median_ms(s, [&] {
    BENCH_CHECK(cudaMemcpyAsync(d_ws, staging.data(), layout->bytes, cudaMemcpyHostToDevice, s));
  });
  // Baseline: the plain witness (32 B/value) from a pinned buffer.
  void* h_plain = nullptr;
  BENCH_CHECK(cudaHostAlloc(&h_plain, vars * sizeof(fr), cudaHostAllocDefault));
  std::memcpy(h_plain, sc->w.data(), vars * sizeof(fr));
  const float plain_ms = median_ms(s, [&] {
    BENCH_CHECK(cudaMemcpyAsync(d_w, h_plain, vars * sizeof(fr), cudaMemcpyHostToDevice, s));
  });
  BENCH_CHECK(cudaFreeHost(h_plain));
  BENCH_CHECK_OK(upload_witness(*layout, staging.data(), d_ws, d_w, s));
  std::printf("witness: %llu values, %llu not 0/1 (%.1f%%): %.2f MiB compact vs %.2f MiB plain (%.1fx); "
              "pack %.1f ms (host, median of 5)\n",
              (unsigned long long)vars, (unsigned long long)layout->num_other, 100.0 * layout->num_other / vars,
              layout->bytes / 1048576.0, layout->plain_bytes() / 1048576.0,
              double(layout->plain_bytes()) / layout->bytes, pack_ms[2]);
  std::printf("witness upload: compact copy %.3f ms (%.1f GB/s), copy + expand %.3f ms; plain 32 B/value copy "
              "%.3f ms (%.1f GB/s)\n",
              copy_ms, layout->bytes / copy_ms / 1e6, up_ms, plain_ms, layout->plain_bytes() / plain_ms / 1e6);

  // SpMV: block-size sweep, then the check against the CPU.
  // Bytes at least moved: row pointers and words once, 32 B per witness gather, 3 x 32 B per output.
  const double bytes = 4.0 * (3 * (n + 1) + words) + 32.0 * nnz + 3 * 32.0 * n;
  for (int threads : {128, 256, 512}) {
    spmv_tuning t = spmv_tuning_sm90;
    t.block_threads = threads;
    const float ms = median_ms(s, [&] { BENCH_CHECK_OK(spmv_abc(*dm, d_w, d_abc[0], d_abc[1], d_abc[2], n, s, t)); });
    std::printf("spmv_abc 2^%d block %3d: %.3f ms  %.0f Mrows/s  %.2f G entries/s  %.0f GB/s (lower bound bytes)\n",
                log_n, threads, ms, n / ms / 1e3, nnz / ms / 1e6, bytes / ms / 1e6);
  }
  BENCH_CHECK_OK(spmv_abc(*dm, d_w, d_abc[0], d_abc[1], d_abc[2], n, s));
  BENCH_CHECK(cudaStreamSynchronize(s));
  std::vector<fr> a(n), b(n), c(n), g(n);
  t0 = std::chrono::steady_clock::now();
  BENCH_CHECK_OK(pp::r1cs::evaluate_abc(cs, sc->w, a, b, c));
  const double cpu_s = seconds_since(t0);
  uint64_t bad = 0;
  const std::vector<fr>* ref[3] = {&a, &b, &c};
  for (int i = 0; i < 3; ++i) {
    BENCH_CHECK(cudaMemcpy(g.data(), d_abc[i], n * sizeof(fr), cudaMemcpyDeviceToHost));
    for (uint64_t j = 0; j < n; ++j) bad += std::memcmp(&g[j], &(*ref[i])[j], sizeof(fr)) != 0;
  }
  std::printf("check vs CPU evaluate_abc (%.2f s on the host): %llu mismatches\n", cpu_s, (unsigned long long)bad);
  BENCH_CHECK(cudaStreamDestroy(s));
  if (bad != 0) std::exit(2);
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<int> logs;
  for (int i = 1; i < argc; ++i) logs.push_back(std::atoi(argv[i]));
  if (logs.empty()) logs = {20, 24};
  cudaDeviceProp prop{};
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  std::printf("device %s, %d SMs, L2 %d MiB\n", prop.name, prop.multiProcessorCount, prop.l2CacheSize >> 20);
  device_memory_config cfg;
  cfg.vram_share = 0.8;
  cfg.staging_buffers = 1;
  cfg.staging_bytes = uint64_t{1} << 30;
  auto mem = device_memory::create(cfg);
  BENCH_CHECK_OK(mem.error());
  std::printf("device_memory: %.1f GiB region, 1 GiB pinned staging\n", (*mem)->capacity() / 1073741824.0);
  for (int k : logs) run(k, **mem);
  return 0;
}
