// make_synthetic on PoRep-shaped parameters (synthetic_params::porep), 2^16..2^22 constraints
// (2^22 holds ~1 GiB; a full 130.3M-constraint partition ~33 GiB). Items are constraints; the
// counters are the generated shape (stats_of), so the table doubles as a check of the statistics.
#include <benchmark/benchmark.h>

#include "r1cs/synthetic.hpp"

namespace {

using namespace pp::r1cs;

void BM_MakeSynthetic(benchmark::State& state) {
  const uint64_t n = uint64_t{1} << state.range(0);
  const synthetic_params p = synthetic_params::porep(n, 42);
  synthetic_stats s;
  for (auto _ : state) {
    auto c = make_synthetic(p);
    if (!c.ok()) {
      state.SkipWithError(c.error().message().c_str());
      return;
    }
    state.PauseTiming();
    s = stats_of(c->cs, c->w);
    c = pp::invalid_argument("freed");  // free outside the timed region
    state.ResumeTiming();
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(n));
  state.counters["nnz_a"] = s.nnz_a;
  state.counters["nnz_b"] = s.nnz_b;
  state.counters["nnz_c"] = s.nnz_c;
  state.counters["dens_a"] = s.a_aux_density;
  state.counters["dens_b"] = s.b_aux_density;
  state.counters["w01"] = s.witness_zero + s.witness_one;
  state.counters["coef_other"] = s.other_coeff_share;
  state.counters["distinct"] = static_cast<double>(s.distinct_abc);
}
BENCHMARK(BM_MakeSynthetic)->DenseRange(16, 22, 2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
