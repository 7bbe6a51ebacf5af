// Host NTT throughput (items = field elements per second) for log sizes 16..22: forward in the
// four-order variants that matter, inverse, coset, and the forward NTT on a one-thread arena so the
// table shows the threading ratio. Run: build/<dir>/bench/poly/poly_ntt_bench [--benchmark_filter=Ntt/20]
#include <benchmark/benchmark.h>
#include <tbb/task_arena.h>

#include <map>
#include <memory>
#include <random>
#include <vector>

#include "poly/domain.hpp"
#include "poly/ntt.hpp"

namespace {

using pp::ff::fr;
using pp::poly::evaluation_domain;
using pp::poly::ntt_order;

// Domains are built once per size and kept for the whole run (building one is itself ~n/2 muls).
const evaluation_domain& domain(int log_n) {
  static std::map<int, std::unique_ptr<evaluation_domain>> cache;
  auto& slot = cache[log_n];
  if (!slot) slot = std::make_unique<evaluation_domain>(evaluation_domain::create(log_n).value());
  return *slot;
}

std::vector<fr> random_vector(std::size_t n) {
  std::mt19937_64 gen(n);
  std::vector<fr> v(n);
  for (fr& x : v) {
    const uint64_t l[4] = {gen(), gen(), gen(), gen() >> 2};
    x = fr::from_canonical_unchecked(l);
  }
  return v;
}

// The transform is data-independent, so iterating in place on the same buffer is a fair timing.
template <class F>
void run(benchmark::State& state, F transform) {
  const evaluation_domain& d = domain(static_cast<int>(state.range(0)));
  std::vector<fr> v = random_vector(d.size());
  for (auto _ : state) {
    if (!transform(d, std::span<fr>(v)).ok()) state.SkipWithError("transform failed");
    benchmark::DoNotOptimize(v.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * int64_t(d.size()));
}

void BM_Ntt(benchmark::State& s) { run(s, [](auto& d, auto v) { return pp::poly::ntt(d, v); }); }
void BM_NttNR(benchmark::State& s) { run(s, [](auto& d, auto v) { return pp::poly::ntt(d, v, ntt_order::nr); }); }
void BM_Intt(benchmark::State& s) { run(s, [](auto& d, auto v) { return pp::poly::intt(d, v); }); }
void BM_InttRN(benchmark::State& s) { run(s, [](auto& d, auto v) { return pp::poly::intt(d, v, ntt_order::rn); }); }
void BM_CosetNtt(benchmark::State& s) { run(s, [](auto& d, auto v) { return pp::poly::coset_ntt(d, v); }); }
void BM_CosetIntt(benchmark::State& s) { run(s, [](auto& d, auto v) { return pp::poly::coset_intt(d, v); }); }
// The same forward NTT confined to one worker thread: the reference for the threading ratio.
void BM_NttOneThread(benchmark::State& s) {
  static tbb::task_arena one_thread(1);
  run(s, [](auto& d, auto v) {
    pp::status st;
    one_thread.execute([&] { st = pp::poly::ntt(d, v); });
    return st;
  });
}

#define PP_NTT_SWEEP(bm) BENCHMARK(bm)->DenseRange(16, 22, 1)->Unit(benchmark::kMillisecond)->UseRealTime()
PP_NTT_SWEEP(BM_Ntt);
PP_NTT_SWEEP(BM_NttNR);
PP_NTT_SWEEP(BM_Intt);
PP_NTT_SWEEP(BM_InttRN);
PP_NTT_SWEEP(BM_CosetNtt);
PP_NTT_SWEEP(BM_CosetIntt);
PP_NTT_SWEEP(BM_NttOneThread);

}  // namespace

BENCHMARK_MAIN();
