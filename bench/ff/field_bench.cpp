// Host latency of the field operations: each iteration is one step of a dependent chain
// (x = x op y), so the numbers are latency, not throughput. Reported as items/s and ns per op.
// Run: build/<preset>/bench/ff/ff_field_bench [--benchmark_filter=BM_FpMul]
#include <benchmark/benchmark.h>

#include <random>
#include <type_traits>

#include "ff/fp2.hpp"
#include "ff/fr.hpp"

namespace {

using pp::ff::fp;
using pp::ff::fp2;
using pp::ff::fr;
namespace host_path = pp::ff::host_path;

// A pseudo-random field element (not a benchmark input that the compiler can fold).
template <class F>
F random_element(std::mt19937_64& rng) {
  if constexpr (std::is_same_v<F, fp2>) {
    return fp2{random_element<fp>(rng), random_element<fp>(rng)};
  } else {
    F acc = F::one();
    for (int i = 0; i < 4; ++i) acc = acc * F::from_uint(rng() | 1) + F::from_uint(rng());
    return acc;
  }
}

// x = op(x, y) in a dependent chain.
template <class F, class Op>
void bm_chain(benchmark::State& state, uint64_t seed, Op op) {
  std::mt19937_64 rng(seed);
  F x = random_element<F>(rng);
  const F y = random_element<F>(rng);
  for (auto _ : state) {
    op(x, y);
    benchmark::DoNotOptimize(x);
  }
  state.SetItemsProcessed(state.iterations());
}

template <class F>
void bm_mul(benchmark::State& state) {
  bm_chain<F>(state, 1, [](F& x, const F& y) { x = x * y; });
}

template <class F>
void bm_sqr(benchmark::State& state) {
  std::mt19937_64 rng(2);
  F x = random_element<F>(rng);
  for (auto _ : state) {
    x = x.sqr();
    benchmark::DoNotOptimize(x);
  }
  state.SetItemsProcessed(state.iterations());
}

template <class F>
void bm_add(benchmark::State& state) {
  bm_chain<F>(state, 3, [](F& x, const F& y) { x = x + y; });
}

template <class F>
void bm_sub(benchmark::State& state) {
  bm_chain<F>(state, 3, [](F& x, const F& y) { x = x - y; });
}

// The portable limb code that ff/mod_add_host.hpp's asm replaced on x86-64: the reference rows.
template <class F, void (*Op)(uint64_t*, const uint64_t*, const uint64_t*)>
void bm_portable(benchmark::State& state) {
  bm_chain<F>(state, 3, [](F& x, const F& y) { Op(x.l, x.l, y.l); });
}

template <class F>
void bm_inverse(benchmark::State& state) {
  std::mt19937_64 rng(4);
  F x = random_element<F>(rng);
  for (auto _ : state) {
    x = x.inverse();
    benchmark::DoNotOptimize(x);
  }
  state.SetItemsProcessed(state.iterations());
}

// The Fermat power x^(p-2) that ff::mont_field::inverse replaced (ff/safegcd_inverse.hpp): the reference row.
template <class F>
void bm_inverse_fermat(benchmark::State& state) {
  std::mt19937_64 rng(4);
  F x = random_element<F>(rng);
  constexpr auto e = pp::ff::limbs::copy(F::params::m_minus_2);
  for (auto _ : state) {
    x = x.pow(e.v, F::n64);
    benchmark::DoNotOptimize(x);
  }
  state.SetItemsProcessed(state.iterations());
}

void BM_FpMul(benchmark::State& s) { bm_mul<fp>(s); }
void BM_FpSqr(benchmark::State& s) { bm_sqr<fp>(s); }
void BM_FpAdd(benchmark::State& s) { bm_add<fp>(s); }
void BM_FpAddPortable(benchmark::State& s) { bm_portable<fp, host_path::mod_add_portable<fp::params>>(s); }
void BM_FpSub(benchmark::State& s) { bm_sub<fp>(s); }
void BM_FpSubPortable(benchmark::State& s) { bm_portable<fp, host_path::mod_sub_portable<fp::params>>(s); }
void BM_FrAdd(benchmark::State& s) { bm_add<fr>(s); }
void BM_FrAddPortable(benchmark::State& s) { bm_portable<fr, host_path::mod_add_portable<fr::params>>(s); }
void BM_FrSub(benchmark::State& s) { bm_sub<fr>(s); }
void BM_FrSubPortable(benchmark::State& s) { bm_portable<fr, host_path::mod_sub_portable<fr::params>>(s); }
void BM_FpInverse(benchmark::State& s) { bm_inverse<fp>(s); }
void BM_FpInverseFermat(benchmark::State& s) { bm_inverse_fermat<fp>(s); }
void BM_FrInverse(benchmark::State& s) { bm_inverse<fr>(s); }
void BM_FrInverseFermat(benchmark::State& s) { bm_inverse_fermat<fr>(s); }
void BM_FrMul(benchmark::State& s) { bm_mul<fr>(s); }
void BM_Fp2Mul(benchmark::State& s) { bm_mul<fp2>(s); }
void BM_Fp2Sqr(benchmark::State& s) { bm_sqr<fp2>(s); }

}  // namespace

BENCHMARK(BM_FpMul);
BENCHMARK(BM_FpSqr);
BENCHMARK(BM_FpAdd);
BENCHMARK(BM_FpAddPortable);
BENCHMARK(BM_FpSub);
BENCHMARK(BM_FpSubPortable);
BENCHMARK(BM_FrAdd);
BENCHMARK(BM_FrAddPortable);
BENCHMARK(BM_FrSub);
BENCHMARK(BM_FrSubPortable);
BENCHMARK(BM_FpInverse);
BENCHMARK(BM_FpInverseFermat);
BENCHMARK(BM_FrInverse);
BENCHMARK(BM_FrInverseFermat);
BENCHMARK(BM_FrMul);
BENCHMARK(BM_Fp2Mul);
BENCHMARK(BM_Fp2Sqr);

BENCHMARK_MAIN();
