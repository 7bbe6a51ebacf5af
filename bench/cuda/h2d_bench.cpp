// Host-to-device copy rate by the kind of pinned host memory a streamed key chunk comes from
// (src/cuda/runtime/pinned_host.hpp registers the key's own memory): cudaHostAlloc (the reference), memory
// registered with cudaHostRegister on 4 KiB pages (THP advice off) and on transparent huge pages
// (MADV_HUGEPAGE before the first touch). Each pass copies the whole buffer in chunks to two
// alternating device slots on one stream, as a streamed MSM does; CUDA events, median of 5 passes
// after one warm-up. Prints the kernel's THP setting, the huge pages the advised buffer got, and
// one table with the ratio to cudaHostAlloc. Usage: cuda_h2d_bench [GIB (6)] [CHUNK_MIB (1536)]
#include <cuda_runtime_api.h>
#include <sys/mman.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "bench_fail_fast.hpp"

namespace {

constexpr double gib = 1073741824.0;
constexpr uint64_t huge_page = uint64_t{2} << 20;

std::string first_line(const char* path) {
  std::ifstream f(path);
  std::string line;
  std::getline(f, line);
  return line.empty() ? "unreadable" : line;
}

// AnonHugePages of this process (kB), from /proc/self/smaps_rollup; -1 when unreadable.
long anon_huge_kb() {
  std::ifstream f("/proc/self/smaps_rollup");
  std::string key;
  long kb = -1;
  while (f >> key) {
    if (key == "AnonHugePages:") {
      f >> kb;
      break;
    }
  }
  return kb;
}

struct host_buffer {
  const char* name;
  const char* key;  // the "result" line's name
  void* p = nullptr;
  bool registered = false;
};

host_buffer make_registered(const char* name, const char* key, uint64_t bytes, int advice) {
  void* p = nullptr;
  if (posix_memalign(&p, huge_page, bytes) != 0) {
    std::fprintf(stderr, "posix_memalign of %llu bytes failed\n", (unsigned long long)bytes);
    std::exit(1);
  }
  (void)::madvise(p, bytes, advice);
  std::memset(p, 1, bytes);
  BENCH_CHECK(cudaHostRegister(p, bytes, cudaHostRegisterDefault));
  return {name, key, p, true};
}

// Median GiB/s of 5 timed passes over the buffer (one warm-up first).
double copy_rate(const host_buffer& h, uint64_t bytes, uint64_t chunk, void* const slot[2], cudaStream_t s) {
  cudaEvent_t a, b;
  BENCH_CHECK(cudaEventCreate(&a));
  BENCH_CHECK(cudaEventCreate(&b));
  std::vector<double> rates;
  for (int pass = 0; pass < 6; ++pass) {
    BENCH_CHECK(cudaEventRecord(a, s));
    int turn = 0;
    for (uint64_t off = 0; off < bytes; off += chunk) {
      const uint64_t len = std::min(chunk, bytes - off);
      BENCH_CHECK(cudaMemcpyAsync(slot[turn ^= 1], static_cast<char*>(h.p) + off, len, cudaMemcpyHostToDevice, s));
    }
    BENCH_CHECK(cudaEventRecord(b, s));
    BENCH_CHECK(cudaEventSynchronize(b));
    float ms = 0;
    BENCH_CHECK(cudaEventElapsedTime(&ms, a, b));
    if (pass > 0) rates.push_back(double(bytes) / gib / (ms / 1e3));
  }
  BENCH_CHECK(cudaEventDestroy(a));
  BENCH_CHECK(cudaEventDestroy(b));
  std::sort(rates.begin(), rates.end());
  return rates[rates.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  const double want_gib = argc > 1 ? std::atof(argv[1]) : 6.0;
  const double chunk_mib = argc > 2 ? std::atof(argv[2]) : 1536.0;
  if (!(want_gib > 0) || !(chunk_mib > 0)) {
    std::fprintf(stderr, "usage: %s [GIB] [CHUNK_MIB]\n", argv[0]);
    return 2;
  }
  const uint64_t chunk = uint64_t(chunk_mib * 1048576.0) / 256 * 256;
  const uint64_t bytes = (uint64_t(want_gib * gib) + huge_page - 1) / huge_page * huge_page;
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess || count == 0) {
    std::printf("no CUDA device\n");
    return 77;
  }
  std::printf("THP enabled: %s; defrag: %s\n", first_line("/sys/kernel/mm/transparent_hugepage/enabled").c_str(),
              first_line("/sys/kernel/mm/transparent_hugepage/defrag").c_str());
  void* slot[2];
  for (auto*& p : slot) BENCH_CHECK(cudaMalloc(&p, chunk));
  cudaStream_t s;
  BENCH_CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  std::vector<host_buffer> buffers;
  {
    void* p = nullptr;
    BENCH_CHECK(cudaHostAlloc(&p, bytes, cudaHostAllocPortable));
    std::memset(p, 1, bytes);
    buffers.push_back({"cudaHostAlloc", "h2d_gib_s_host_alloc", p, false});
  }
  const long huge_before = anon_huge_kb();
  buffers.push_back(make_registered("registered, 4 KiB pages (MADV_NOHUGEPAGE)", "h2d_gib_s_registered_4k", bytes,
                                    MADV_NOHUGEPAGE));
  buffers.push_back(
      make_registered("registered, THP (MADV_HUGEPAGE)", "h2d_gib_s_registered_thp", bytes, MADV_HUGEPAGE));
  const long huge_after = anon_huge_kb();
  std::printf("the advised buffer got %.2f of %.2f GiB in huge pages (AnonHugePages %ld -> %ld kB)\n",
              huge_after >= 0 && huge_before >= 0 ? double(huge_after - huge_before) * 1024.0 / gib : -1.0,
              double(bytes) / gib, huge_before, huge_after);

  std::printf("\n%.2f GiB per pass in chunks of %.0f MiB, two device slots, one stream; median of 5\n\n",
              double(bytes) / gib, double(chunk) / 1048576.0);
  std::printf("| host memory | GiB/s | vs cudaHostAlloc |\n|---|---|---|\n");
  double reference = 0;
  for (const host_buffer& h : buffers) {
    const double rate = copy_rate(h, bytes, chunk, slot, s);
    if (reference == 0) reference = rate;
    std::printf("| %s | %.2f | %.3fx |\n", h.name, rate, rate / reference);
    std::printf("result %s %.3f\n", h.key, rate);
  }
  for (const host_buffer& h : buffers) {
    if (h.registered) {
      BENCH_CHECK(cudaHostUnregister(h.p));
      std::free(h.p);
    } else {
      BENCH_CHECK(cudaFreeHost(h.p));
    }
  }
  for (void* p : slot) BENCH_CHECK(cudaFree(p));
  BENCH_CHECK(cudaStreamDestroy(s));
  return 0;
}
