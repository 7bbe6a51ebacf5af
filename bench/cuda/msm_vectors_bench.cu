// Several scalar vectors over one streamed table (msm_streamed_vectors, src/cuda/msm/msm_device.hpp):
// what taking k partitions of one key together buys a plan that streams its points (issue 34,
// docs/perf/vram-budgets.md). Points in pinned host memory (2^22 distinct host-made ones, tiled),
// copied chunk by chunk through point slots on a copy stream, paced to a link rate (link_pacer.hpp;
// 0: the card's own); fresh device-made scalars every run; CUDA events from the first copy to the
// last result; median of 3 after a warm-up. The reference, in the same invocation, is k = 1: today's
// path (split_msm_streamed / msm_streamed), one copy of the table a vector. Each row also checks
// every vector's sum against a dense k = 1 run over the same scalars.
// Rows: curve, n, path (split over witness-like scalars, as L, A and B run; plain over random ones,
// as H), vectors (dense on the device, or packed witnesses expanded a chunk at a time, as k
// partitions' witnesses fit beside one workspace), link, k, ms for the k vectors, ms a vector, GiB
// copied a vector, a vector's state, per-vector time against dense k = 1's, sums equal.
// Usage: cuda_msm_vectors_bench [g1:LOG | g2:LOG ...] [chunk=LOG] [k=K,K...] [gib_s=R,R...]
// [slots=S]; defaults g1:26 g2:25 chunk=23 k=1,2,3,4 gib_s=0,25 slots=2 (the 16 GiB plan's chunks
// and slots at 2^27: vram-budgets.md).
#include <cuda_runtime.h>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include "bench_fail_fast.hpp"
#include "bench_list_arg.hpp"
#include "bench_scalars.cuh"
#include "cuda/msm/msm_device.hpp"
#include "cuda/runtime/link_pacer.hpp"
#include "cuda/spmv/witness_upload.hpp"
#include "ec/ec.hpp"
#include "msm_points.hpp"
#include "support/seed.hpp"

namespace {

using pp::cuda::bench::fill_scalars;
using pp::cuda::bench::scalar_top_shift;

struct options {
  uint64_t chunk = uint64_t{1} << 23;
  std::vector<int> ks{1, 2, 3, 4};
  std::vector<double> gib_s{0, 25};
  int slots = 2;
};

// The copy side of a streamed MSM: slots, the copy stream (highest priority, as the backend's when
// paced), the slots' events and the link pacer's state.
struct stream_rig {
  pp::cuda::msm_point_stream ps;
  void* d_pacer = nullptr;

  stream_rig(int slots, uint64_t slot_bytes, double gib_s) {
    int lo = 0, hi = 0;
    BENCH_CHECK(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    BENCH_CHECK(cudaStreamCreateWithPriority(&ps.copy, cudaStreamNonBlocking, hi));
    ps.slots = slots;
    ps.slot_bytes = slot_bytes;
    for (int i = 0; i < slots; ++i) {
      BENCH_CHECK(cudaMalloc(&ps.d_slot[i], slot_bytes));
      BENCH_CHECK(cudaEventCreateWithFlags(&ps.loaded[i], cudaEventDisableTiming));
      BENCH_CHECK(cudaEventCreateWithFlags(&ps.freed[i], cudaEventDisableTiming));
    }
    BENCH_CHECK(cudaMalloc(&d_pacer, pp::cuda::link_pacer_bytes(1)));
    BENCH_CHECK_OK(pp::cuda::link_pacer_clear(d_pacer, 1, ps.copy));
    ps.pace = pp::cuda::link_pace_for(d_pacer, 0, gib_s * 1073741824.0);
  }
  ~stream_rig() {
    for (int i = 0; i < ps.slots; ++i) {
      cudaFree(ps.d_slot[i]);
      cudaEventDestroy(ps.loaded[i]);
      cudaEventDestroy(ps.freed[i]);
    }
    cudaFree(d_pacer);
    cudaStreamDestroy(ps.copy);
  }
  stream_rig(const stream_rig&) = delete;
  stream_rig& operator=(const stream_rig&) = delete;
};

template <class Curve>
struct table_case {
  const pp::ec::affine<Curve>* h_points;
  uint64_t n;
  bool split;
  bool packed;  // the vectors as packed witnesses (pack_witness), expanded a chunk at a time
  double gib_s;
};

// One msm_streamed_vectors call over `count` vectors from `first` (dense: d_scalars; packed: views)
// on fresh slots; returns its time in ms (the copy stream starts at the first event) and the copies
// in bytes.
template <class Curve>
std::pair<float, uint64_t> timed_run(const table_case<Curve>& t, const options& o,
                                     const std::vector<const typename Curve::scalar_field*>& d_scalars,
                                     const std::vector<pp::cuda::packed_scalars>& views, size_t first, size_t count,
                                     void* ws, uint64_t ws_bytes, void* d_state, uint64_t state_bytes,
                                     pp::ec::xyzz<Curve>* h_out, cudaStream_t compute) {
  const pp::cuda::msm_config cfg{.max_chunk_points = o.chunk};
  stream_rig rig(o.slots, o.chunk * sizeof(pp::ec::affine<Curve>), t.gib_s);
  cudaEvent_t e0, e1;
  BENCH_CHECK(cudaEventCreate(&e0));
  BENCH_CHECK(cudaEventCreate(&e1));
  BENCH_CHECK(cudaEventRecord(e0, compute));
  BENCH_CHECK(cudaStreamWaitEvent(rig.ps.copy, e0, 0));
  pp::cuda::msm_vectors<Curve> v{.h_results = {h_out, count}, .d_state = d_state, .state_bytes = state_bytes};
  if (views.empty()) {
    v.d_scalars = {d_scalars.data() + first, count};
  } else {
    v.packed = {views.data() + first, count};
  }
  BENCH_CHECK_OK(pp::cuda::msm_streamed_vectors<Curve>(t.h_points, t.n, t.split, v, ws, ws_bytes, compute, rig.ps,
                                                       cfg));
  BENCH_CHECK(cudaEventRecord(e1, compute));
  BENCH_CHECK(cudaEventSynchronize(e1));
  BENCH_CHECK(cudaStreamSynchronize(rig.ps.copy));
  float ms = 0;
  BENCH_CHECK(cudaEventElapsedTime(&ms, e0, e1));
  cudaEventDestroy(e0);
  cudaEventDestroy(e1);
  return {ms, rig.ps.h2d_bytes};
}

// Packs the first k vectors of d_all (n each) into d_packed (a witness's packed bytes each,
// `stride` apart) through the host, as a partition's witness arrives packed.
template <class Fr>
std::vector<pp::cuda::packed_scalars> pack_vectors(const Fr* d_all, uint64_t n, int k, void* d_packed,
                                                   uint64_t stride) {
  std::vector<Fr> host(n);
  std::vector<std::byte> staging(stride);
  std::vector<pp::cuda::packed_scalars> views;
  for (int i = 0; i < k; ++i) {
    BENCH_CHECK(cudaMemcpy(host.data(), d_all + uint64_t(i) * n, n * sizeof(Fr), cudaMemcpyDeviceToHost));
    const auto layout = pp::bench::take(pp::cuda::pack_witness<Fr>(host, staging), "pack_witness");
    void* at = static_cast<char*>(d_packed) + uint64_t(i) * stride;
    BENCH_CHECK(cudaMemcpy(at, staging.data(), layout.bytes, cudaMemcpyHostToDevice));
    views.push_back({.d_packed = at, .layout = layout});
  }
  return views;
}

// k = 1's time a vector on the dense vectors, by (path, link): the reference of every row.
std::map<std::pair<bool, double>, double> g_reference_ms;

// The rows of one table (curve, n, path, vectors, link) for every k.
template <class Curve>
void run_table(const table_case<Curve>& t, const options& o, uint64_t seed) {
  using fr = typename Curve::scalar_field;
  const pp::cuda::msm_config cfg{.max_chunk_points = o.chunk};
  const int kmax = *std::max_element(o.ks.begin(), o.ks.end());
  const uint64_t ws_bytes = pp::bench::take(t.split ? pp::cuda::split_msm_workspace_bytes<Curve>(t.n, cfg)
                                                    : pp::cuda::msm_workspace_bytes<Curve>(t.n, cfg),
                                            "workspace bytes");
  const uint64_t state_bytes =
      pp::bench::take(pp::cuda::msm_vector_state_bytes<Curve>(t.n, t.split, t.packed, cfg), "vector state bytes");
  // A packed witness: its bitmap, then the others' positions and values (at most every value).
  const uint64_t packed_stride = t.packed ? (t.n / 8 + t.n * (sizeof(fr) + 4) + 1024 + 255) / 256 * 256 : 0;
  void *ws = nullptr, *d_state = nullptr, *d_packed = nullptr;
  fr* d_all = nullptr;
  BENCH_CHECK(cudaMalloc(&ws, ws_bytes));
  BENCH_CHECK(cudaMalloc(&d_state, uint64_t(kmax) * state_bytes));
  BENCH_CHECK(cudaMalloc(&d_all, uint64_t(kmax) * t.n * sizeof(fr)));
  if (t.packed) BENCH_CHECK(cudaMalloc(&d_packed, uint64_t(kmax) * packed_stride));
  std::vector<const fr*> d_scalars(kmax);
  for (int i = 0; i < kmax; ++i) d_scalars[i] = d_all + uint64_t(i) * t.n;
  pp::ec::xyzz<Curve>* h_out = nullptr;
  BENCH_CHECK(cudaMallocHost(&h_out, 2 * sizeof(*h_out) * kmax));
  cudaStream_t compute = nullptr;
  BENCH_CHECK(cudaStreamCreateWithFlags(&compute, cudaStreamNonBlocking));
  const std::vector<pp::cuda::packed_scalars> none;
  for (int k : o.ks) {
    std::vector<float> ms;
    uint64_t h2d = 0;
    std::vector<pp::cuda::packed_scalars> views;
    for (int rep = 0; rep < 4; ++rep) {
      fill_scalars<fr><<<1024, 256, 0, compute>>>(d_all, uint64_t(k) * t.n, seed + 7919ull * (rep + 8 * k),
                                                  t.split, scalar_top_shift<fr>());
      BENCH_CHECK(cudaGetLastError());
      BENCH_CHECK(cudaStreamSynchronize(compute));
      if (t.packed) views = pack_vectors(d_all, t.n, k, d_packed, packed_stride);
      const auto [run_ms, bytes] = timed_run(t, o, d_scalars, views, 0, k, ws, ws_bytes, d_state, state_bytes, h_out,
                                             compute);
      if (rep > 0) ms.push_back(run_ms);
      h2d = bytes;
    }
    // The last run's sums against one dense k = 1 run (today's path) a vector over the same scalars.
    bool equal = true;
    for (int i = 0; i < k && (k > 1 || t.packed); ++i) {
      timed_run(t, o, d_scalars, none, i, 1, ws, ws_bytes, d_state, state_bytes, h_out + kmax, compute);
      equal = equal && pp::ec::to_affine(h_out[i]) == pp::ec::to_affine(h_out[kmax]);
    }
    std::sort(ms.begin(), ms.end());
    const double med = ms[ms.size() / 2], per = med / k;
    const auto key = std::pair{t.split, t.gib_s};
    const bool reference = k == 1 && !t.packed;
    if (reference) g_reference_ms[key] = per;
    const double ref = g_reference_ms.count(key) ? g_reference_ms[key] : 0;
    const std::string link = t.gib_s > 0 ? std::to_string(int(t.gib_s)) + " GiB/s" : "own";
    std::printf("| %-4s | 2^%d | %-5s | %-6s | %-9s | %d | %9.1f | %8.1f | %6.2f | %7.1f | %s | %s |\n", Curve::name,
                std::countr_zero(t.n), t.split ? "split" : "plain", t.packed ? "packed" : "dense", link.c_str(), k,
                med, per, double(h2d) / k / 1073741824.0, double(state_bytes) / 1048576.0,
                ref > 0 ? (std::to_string(per / ref).substr(0, 5) + "x").c_str() : "-",
                reference ? "ref" : equal ? "EQUAL" : "DIFFERENT");
    std::fflush(stdout);
    if (!equal) std::exit(1);
  }
  cudaStreamDestroy(compute);
  cudaFreeHost(h_out);
  cudaFree(d_packed);
  cudaFree(d_all);
  cudaFree(d_state);
  cudaFree(ws);
}

// 2^log_n points in pinned host memory: 2^22 distinct ones, tiled.
template <class Curve>
void run_curve(int log_n, const options& o, uint64_t seed) {
  using affine = pp::ec::affine<Curve>;
  const uint64_t n = uint64_t{1} << log_n;
  const uint64_t u = std::min<uint64_t>(n, uint64_t{1} << 22);
  const auto distinct = pp::cuda::test::random_points<Curve>(seed, u);
  affine* h = nullptr;
  BENCH_CHECK(cudaHostAlloc(reinterpret_cast<void**>(&h), n * sizeof(affine), cudaHostAllocDefault));
  for (uint64_t off = 0; off < n; off += u) std::memcpy(h + off, distinct.data(), u * sizeof(affine));
  for (double r : o.gib_s) {
    run_table<Curve>({h, n, true, false, r}, o, seed);
    run_table<Curve>({h, n, true, true, r}, o, seed);
    if (std::is_same_v<Curve, pp::ec::g1_curve>) run_table<Curve>({h, n, false, false, r}, o, seed);
  }
  cudaFreeHost(h);
}

}  // namespace

int main(int argc, char** argv) {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("no CUDA device\n");
    return 77;
  }
  cudaDeviceProp prop{};
  BENCH_CHECK(cudaGetDeviceProperties(&prop, 0));
  options o;
  std::vector<int> g1, g2;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.rfind("g1:", 0) == 0) {
      g1.push_back(std::atoi(a.c_str() + 3));
    } else if (a.rfind("g2:", 0) == 0) {
      g2.push_back(std::atoi(a.c_str() + 3));
    } else if (a.rfind("chunk=", 0) == 0) {
      o.chunk = uint64_t{1} << std::atoi(a.c_str() + 6);
    } else if (a.rfind("k=", 0) == 0) {
      o.ks = comma_list(a.substr(2), [](const char* v) { return std::max(1, std::atoi(v)); });
    } else if (a.rfind("gib_s=", 0) == 0) {
      o.gib_s = comma_list(a.substr(6), [](const char* v) { return std::atof(v); });
    } else if (a.rfind("slots=", 0) == 0) {
      o.slots = std::clamp(std::atoi(a.c_str() + 6), pp::cuda::msm_min_point_slots, pp::cuda::msm_max_point_slots);
    } else {
      std::fprintf(stderr, "usage: %s [g1:LOG | g2:LOG ...] [chunk=LOG] [k=K,K...] [gib_s=R,R...] [slots=S]\n",
                   argv[0]);
      return 2;
    }
  }
  if (g1.empty() && g2.empty()) {
    g1 = {26};
    g2 = {25};
  }
  const uint64_t seed = pp::test::run_seed();
  std::printf("device %s, %d SMs; chunks of %llu points, %d slots\n", prop.name, prop.multiProcessorCount,
              (unsigned long long)o.chunk, o.slots);
  std::printf("| curve | n | path | vectors | link | k | ms (k vectors) | ms a vector | GiB copied a vector | "
              "state MiB a vector | a vector vs dense k=1 | sums |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (int log_n : g1) run_curve<pp::ec::g1_curve>(log_n, o, seed);
  for (int log_n : g2) run_curve<pp::ec::g2_curve>(log_n, o, seed);
  return 0;
}
