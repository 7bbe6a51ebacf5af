// Host latency of the BLS12-381 optimal ate pairing, single thread.
// Run: build/<preset>/bench/pairing/pairing_bench [--benchmark_filter=BM_Pairing]
#include <benchmark/benchmark.h>

#include <vector>

#include "ec/ec.hpp"
#include "pairing/pairing.hpp"

namespace {

using pp::ec::g1_affine;
using pp::ec::g2_affine;
using pp::ff::fp12;
using pp::ff::fr;
using pp::pairing::pairing_term;

g1_affine g1_point(uint64_t k) {
  return pp::ec::to_affine(pp::ec::scalar_mul(pp::ec::generator<pp::ec::g1_curve>(), fr::from_uint(k)));
}
g2_affine g2_point(uint64_t k) {
  return pp::ec::to_affine(pp::ec::scalar_mul(pp::ec::generator<pp::ec::g2_curve>(), fr::from_uint(k)));
}

void BM_Pairing(benchmark::State& state) {
  const g1_affine p = g1_point(0x1234567);
  const g2_affine q = g2_point(0x7654321);
  for (auto _ : state) benchmark::DoNotOptimize(pp::pairing::pairing(p, q));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Pairing)->Unit(benchmark::kMicrosecond);

// A Groth16-verifier-shaped product of n pairings: one Miller accumulator, one final exponentiation.
void BM_MultiPairing(benchmark::State& state) {
  std::vector<pairing_term> terms;
  for (int64_t i = 0; i < state.range(0); ++i) terms.push_back({g1_point(11 + i), g2_point(101 + i)});
  for (auto _ : state) benchmark::DoNotOptimize(pp::pairing::multi_pairing(terms));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_MultiPairing)->Arg(3)->Unit(benchmark::kMicrosecond);

// The same product with the G2 points prepared once (fixed verifying-key points).
void BM_MultiPairingPrepared(benchmark::State& state) {
  std::vector<pp::pairing::g2_prepared> prepared;
  std::vector<pp::pairing::prepared_term> terms;
  for (int64_t i = 0; i < state.range(0); ++i) prepared.push_back(pp::pairing::prepare_g2(g2_point(101 + i)));
  for (int64_t i = 0; i < state.range(0); ++i) terms.push_back({g1_point(11 + i), &prepared[i]});
  for (auto _ : state) benchmark::DoNotOptimize(pp::pairing::multi_pairing(terms));
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_MultiPairingPrepared)->Arg(3)->Unit(benchmark::kMicrosecond);

void BM_MillerLoop(benchmark::State& state) {
  const g1_affine p = g1_point(0x1234567);
  const g2_affine q = g2_point(0x7654321);
  for (auto _ : state) benchmark::DoNotOptimize(pp::pairing::miller_loop(p, q));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_MillerLoop)->Unit(benchmark::kMicrosecond);

void BM_FinalExponentiation(benchmark::State& state) {
  const fp12 f = pp::pairing::miller_loop(g1_point(0x1234567), g2_point(0x7654321));
  for (auto _ : state) benchmark::DoNotOptimize(pp::pairing::final_exponentiation(f));
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_FinalExponentiation)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
