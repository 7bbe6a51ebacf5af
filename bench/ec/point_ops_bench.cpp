// Host latency of the G1 and G2 point operations: mixed addition (XYZZ madd-2008-s vs Jacobian
// madd-2007-bl) over a table of affine points, doubling, full addition, scalar multiplication
// (double-and-add and wNAF) and the fast subgroup check. Items/s = operations per second.
// Run: build/<dir>/bench/ec/ec_point_ops_bench [--benchmark_filter=G1]
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "ec/ec.hpp"

namespace {

using namespace pp::ec;
using pp::ff::fr;

constexpr int table_size = 256;

fr bench_scalar(std::mt19937_64& rng) {
  fr acc = fr::one();
  for (int i = 0; i < 4; ++i) acc = acc * fr::from_uint(rng() | 1) + fr::from_uint(rng());
  return acc;
}

// Distinct affine subgroup points: G, 2G, 3G, ...
template <class Curve>
std::vector<affine<Curve>> bench_points() {
  std::vector<affine<Curve>> v;
  jacobian<Curve> acc = to_jacobian(generator<Curve>());
  for (int i = 0; i < table_size; ++i) {
    v.push_back(to_affine(acc));
    acc = madd(acc, generator<Curve>());
  }
  return v;
}

template <class Curve>
void bm_xyzz_madd(benchmark::State& state) {
  const auto pts = bench_points<Curve>();
  xyzz<Curve> acc = dbl(to_xyzz(pts[7]));
  int i = 0;
  for (auto _ : state) {
    acc = madd(acc, pts[i]);
    i = (i + 1) & (table_size - 1);
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations());
}

template <class Curve>
void bm_jacobian_madd(benchmark::State& state) {
  const auto pts = bench_points<Curve>();
  jacobian<Curve> acc = dbl(to_jacobian(pts[7]));
  int i = 0;
  for (auto _ : state) {
    acc = madd(acc, pts[i]);
    i = (i + 1) & (table_size - 1);
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations());
}

template <class Curve>
void bm_xyzz_add(benchmark::State& state) {
  const auto pts = bench_points<Curve>();
  xyzz<Curve> acc = dbl(to_xyzz(pts[7]));
  const xyzz<Curve> q = dbl(dbl(to_xyzz(pts[3])));
  for (auto _ : state) {
    acc = add(acc, q);
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations());
}

template <class Curve>
void bm_jacobian_add(benchmark::State& state) {
  const auto pts = bench_points<Curve>();
  jacobian<Curve> acc = dbl(to_jacobian(pts[7]));
  const jacobian<Curve> q = dbl(dbl(to_jacobian(pts[3])));
  for (auto _ : state) {
    acc = add(acc, q);
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations());
}

template <class Curve>
void bm_xyzz_dbl(benchmark::State& state) {
  xyzz<Curve> acc = to_xyzz(generator<Curve>());
  for (auto _ : state) {
    acc = dbl(acc);
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations());
}

template <class Curve>
void bm_jacobian_dbl(benchmark::State& state) {
  jacobian<Curve> acc = to_jacobian(generator<Curve>());
  for (auto _ : state) {
    acc = dbl(acc);
    benchmark::DoNotOptimize(acc);
  }
  state.SetItemsProcessed(state.iterations());
}

template <class Curve>
void bm_scalar_mul(benchmark::State& state) {
  std::mt19937_64 rng(1);
  const fr k = bench_scalar(rng);
  affine<Curve> p = generator<Curve>();
  for (auto _ : state) {
    benchmark::DoNotOptimize(scalar_mul(p, k));
  }
  state.SetItemsProcessed(state.iterations());
}

template <class Curve>
void bm_scalar_mul_wnaf(benchmark::State& state) {
  std::mt19937_64 rng(1);
  const fr k = bench_scalar(rng);
  const jacobian<Curve> p = to_jacobian(generator<Curve>());
  for (auto _ : state) {
    benchmark::DoNotOptimize(scalar_mul_wnaf(p, k));
  }
  state.SetItemsProcessed(state.iterations());
}

template <class Curve>
void bm_subgroup_check(benchmark::State& state) {
  const auto pts = bench_points<Curve>();
  int i = 0;
  for (auto _ : state) {
    benchmark::DoNotOptimize(is_in_subgroup(pts[i]));
    i = (i + 1) & (table_size - 1);
  }
  state.SetItemsProcessed(state.iterations());
}

template <class Curve>
void bm_to_affine(benchmark::State& state) {
  const jacobian<Curve> p = dbl(to_jacobian(generator<Curve>()));
  for (auto _ : state) {
    benchmark::DoNotOptimize(to_affine(p));
  }
  state.SetItemsProcessed(state.iterations());
}

}  // namespace

BENCHMARK(bm_xyzz_madd<g1_curve>)->Name("BM_G1XyzzMadd");
BENCHMARK(bm_jacobian_madd<g1_curve>)->Name("BM_G1JacobianMadd");
BENCHMARK(bm_xyzz_add<g1_curve>)->Name("BM_G1XyzzAdd");
BENCHMARK(bm_jacobian_add<g1_curve>)->Name("BM_G1JacobianAdd");
BENCHMARK(bm_xyzz_dbl<g1_curve>)->Name("BM_G1XyzzDbl");
BENCHMARK(bm_jacobian_dbl<g1_curve>)->Name("BM_G1JacobianDbl");
BENCHMARK(bm_scalar_mul<g1_curve>)->Name("BM_G1ScalarMul");
BENCHMARK(bm_scalar_mul_wnaf<g1_curve>)->Name("BM_G1ScalarMulWnaf");
BENCHMARK(bm_subgroup_check<g1_curve>)->Name("BM_G1SubgroupCheck");
BENCHMARK(bm_to_affine<g1_curve>)->Name("BM_G1ToAffine");
BENCHMARK(bm_xyzz_madd<g2_curve>)->Name("BM_G2XyzzMadd");
BENCHMARK(bm_jacobian_madd<g2_curve>)->Name("BM_G2JacobianMadd");
BENCHMARK(bm_xyzz_add<g2_curve>)->Name("BM_G2XyzzAdd");
BENCHMARK(bm_jacobian_add<g2_curve>)->Name("BM_G2JacobianAdd");
BENCHMARK(bm_xyzz_dbl<g2_curve>)->Name("BM_G2XyzzDbl");
BENCHMARK(bm_jacobian_dbl<g2_curve>)->Name("BM_G2JacobianDbl");
BENCHMARK(bm_scalar_mul<g2_curve>)->Name("BM_G2ScalarMul");
BENCHMARK(bm_scalar_mul_wnaf<g2_curve>)->Name("BM_G2ScalarMulWnaf");
BENCHMARK(bm_subgroup_check<g2_curve>)->Name("BM_G2SubgroupCheck");
BENCHMARK(bm_to_affine<g2_curve>)->Name("BM_G2ToAffine");

BENCHMARK_MAIN();
