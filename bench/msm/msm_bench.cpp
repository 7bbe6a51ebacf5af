// Host MSM throughput (items/s = points/s). Second argument: threads (1, or 0 = all oneTBB offers),
// so single-thread and all-thread numbers come from the same process and the same inputs; G1's
// third: the GLV split on (1) or off (0), for BLS12-381's G1 and BN254's G1 and G2
// (BM_PippengerBn254G1, BM_PippengerBn254G2: the latter the B_G2 MSM of a circom proof over a dense
// witness); BN254's fourth: its AVX-512 IFMA batch additions on (1) or off (0).
// Run: build/<preset>/bench/msm/msm_bench [--benchmark_filter=BM_PippengerG1]
#include <benchmark/benchmark.h>

#include <map>
#include <random>
#include <vector>

#include "ec/batch_to_affine.hpp"
#include "ec/bn254_curves.hpp"
#include "ec/ec.hpp"
#include "msm/msm.hpp"
#include "support/scalars.hpp"

namespace {

using namespace pp;

// Points as a random walk over four random multiples of the generator (cheap to make in bulk).
template <class Curve>
const std::vector<ec::affine<Curve>>& points(int log_n) {
  static std::map<int, std::vector<ec::affine<Curve>>> cache;
  auto& out = cache[log_n];
  if (!out.empty()) return out;
  std::mt19937_64 rng(42 + log_n);
  const auto g = ec::generator<Curve>();
  ec::affine<Curve> bases[4];
  for (auto& b : bases) b = ec::to_affine(ec::scalar_mul(g, test::random_scalar<typename Curve::scalar_field>(rng)));
  const std::size_t n = std::size_t{1} << log_n;
  std::vector<ec::jacobian<Curve>> walk(n);
  auto acc = ec::to_jacobian(g);
  for (auto& p : walk) p = acc = ec::add(acc, bases[rng() % 4]);
  out.resize(n);
  ec::batch_to_affine(walk.data(), out.data(), n);
  return out;
}

template <class Fr = ff::fr>
const std::vector<Fr>& dense_scalars(int log_n) {
  static std::map<int, std::vector<Fr>> cache;
  auto& out = cache[log_n];
  if (out.empty()) {
    std::mt19937_64 rng(7 + log_n);
    out = test::random_scalars<Fr>(rng, std::size_t{1} << log_n);
  }
  return out;
}

// Witness-like (support/scalars.hpp: PoRep witnesses are mostly 0/1).
const std::vector<ff::fr>& witness_scalars(int log_n) {
  static std::map<int, std::vector<ff::fr>> cache;
  auto& out = cache[log_n];
  if (out.empty()) {
    std::mt19937_64 rng(9 + log_n);
    out = test::witness_scalars(rng, std::size_t{1} << log_n);
  }
  return out;
}

template <class Curve>
void bm_pippenger(benchmark::State& state) {
  const int log_n = static_cast<int>(state.range(0));
  const auto& pts = points<Curve>(log_n);
  const auto& sc = dense_scalars<typename Curve::scalar_field>(log_n);
  const msm::msm_options opt{.max_threads = static_cast<int>(state.range(1)),
                             .glv = state.range(2) != 0};
  for (auto _ : state) benchmark::DoNotOptimize(msm::pippenger<Curve>(pts, sc, opt));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(pts.size()));
}

// BN254 as bm_pippenger, plus range(3): the AVX-512 IFMA batch additions on (1, where the CPU has
// IFMA) or off (0), so both paths run in one binary on the same inputs.
template <class Curve>
void bm_pippenger_bn254(benchmark::State& state) {
  using curve = Curve;
  const int log_n = static_cast<int>(state.range(0));
  const auto& pts = points<curve>(log_n);
  const auto& sc = dense_scalars<typename curve::scalar_field>(log_n);
  const msm::msm_options opt{.max_threads = static_cast<int>(state.range(1)),
                             .glv = state.range(2) != 0,
                             .avx512_ifma = state.range(3) != 0};
  for (auto _ : state) benchmark::DoNotOptimize(msm::pippenger<curve>(pts, sc, opt));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(pts.size()));
}

// One thread at a forced width (range(1)): the widths msm/window.hpp's model picks at small n, side
// by side (G1 with GLV, G2 whole scalars).
template <class Curve>
void bm_pippenger_width(benchmark::State& state) {
  const int log_n = static_cast<int>(state.range(0));
  const auto& pts = points<Curve>(log_n);
  const auto& sc = dense_scalars(log_n);
  const msm::msm_options opt{.window_bits = static_cast<int>(state.range(1)), .max_threads = 1};
  for (auto _ : state) benchmark::DoNotOptimize(msm::pippenger<Curve>(pts, sc, opt));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(pts.size()));
}

// Same witness-like input through pippenger (range(2) = 0) and split_msm (range(2) = 1).
void bm_witness_g1(benchmark::State& state) {
  const int log_n = static_cast<int>(state.range(0));
  const auto& pts = points<ec::g1_curve>(log_n);
  const auto& sc = witness_scalars(log_n);
  const msm::msm_options opt{.max_threads = static_cast<int>(state.range(1))};
  const bool split = state.range(2) != 0;
  for (auto _ : state) {
    if (split) {
      benchmark::DoNotOptimize(msm::split_msm<ec::g1_curve>(pts, sc, opt));
    } else {
      benchmark::DoNotOptimize(msm::pippenger<ec::g1_curve>(pts, sc, opt));
    }
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(pts.size()));
  state.SetLabel(split ? "split_msm" : "pippenger");
}

void bm_batch_sum_g1(benchmark::State& state) {
  const auto& pts = points<ec::g1_curve>(static_cast<int>(state.range(0)));
  const msm::msm_options opt{.max_threads = static_cast<int>(state.range(1))};
  for (auto _ : state) benchmark::DoNotOptimize(msm::batch_sum<ec::g1_curve>(pts, opt));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(pts.size()));
}

BENCHMARK(bm_pippenger<ec::g1_curve>)->Name("BM_PippengerG1")
    ->ArgsProduct({{16, 17, 18, 19, 20}, {1, 0}, {1, 0}})->ArgNames({"log_n", "threads", "glv"})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_pippenger_bn254<ec::bn254::g1_curve>)->Name("BM_PippengerBn254G1")
    ->ArgsProduct({{16, 18, 20}, {1, 0}, {1, 0}, {1, 0}})->ArgNames({"log_n", "threads", "glv", "ifma"})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_pippenger<ec::g2_curve>)->Name("BM_PippengerG2")
    ->ArgsProduct({{16, 17, 18}, {1, 0}, {0}})->ArgNames({"log_n", "threads", "glv"})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_pippenger_bn254<ec::bn254::g2_curve>)->Name("BM_PippengerBn254G2")
    ->ArgsProduct({{16, 17, 18}, {1, 0}, {1, 0}, {1, 0}})->ArgNames({"log_n", "threads", "glv", "ifma"})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_pippenger_width<ec::g1_curve>)->Name("BM_PippengerG1Width")
    ->Args({12, 10})->Args({12, 11})->Args({14, 11})->Args({14, 12})->ArgNames({"log_n", "c"})
    ->Unit(benchmark::kMillisecond);
BENCHMARK(bm_pippenger_width<ec::g2_curve>)->Name("BM_PippengerG2Width")
    ->Args({15, 11})->Args({15, 12})->ArgNames({"log_n", "c"})->Unit(benchmark::kMillisecond);
BENCHMARK(bm_witness_g1)->Name("BM_WitnessG1")
    ->ArgsProduct({{16, 18, 20}, {1, 0}, {0, 1}})->ArgNames({"log_n", "threads", "split"})
    ->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(bm_batch_sum_g1)->Name("BM_BatchSumG1")
    ->ArgsProduct({{16, 20}, {1, 0}})->ArgNames({"log_n", "threads"})
    ->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
