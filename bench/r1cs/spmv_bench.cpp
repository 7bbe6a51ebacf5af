// a, b, c = A*w, B*w, C*w on random PoRep-shaped systems (2.4/1.0/2.2 non-zeros per row, witness
// mostly 0/1, coefficients mostly 1), 2^16..2^20 rows. Args: log_rows, parallel (0/1), fast paths
// (0/1), so the multi-threaded and single-threaded runs and the fast-path gain sit side by side.
#include <benchmark/benchmark.h>

#include <map>
#include <memory>

#include "r1cs/spmv.hpp"
#include "r1cs/synthetic.hpp"

namespace {

using namespace pp::r1cs;

const synthetic_circuit& circuit(int log_rows, bool dense_witness) {
  static std::map<std::pair<int, bool>, std::unique_ptr<synthetic_circuit>> cache;
  auto& slot = cache[{log_rows, dense_witness}];
  if (!slot) {
    synthetic_params p;
    p.num_constraints = uint64_t{1} << log_rows;
    p.num_aux = p.num_constraints;
    p.seed = 42;
    if (dense_witness) p.witness_zero = p.witness_one = 0.0;
    slot = std::make_unique<synthetic_circuit>(make_synthetic(p).value());
  }
  return *slot;
}

void run(benchmark::State& state, bool dense_witness) {
  const int log_rows = static_cast<int>(state.range(0));
  const auto& c = circuit(log_rows, dense_witness);
  const spmv_options opt{state.range(1) != 0, state.range(2) != 0, 4096};
  const std::size_t n = std::size_t{1} << log_rows;
  std::vector<pp::ff::fr> a(n), b(n), cc(n);
  for (auto _ : state) {
    if (!evaluate_abc(c.cs, c.w, a, b, cc, opt).ok()) state.SkipWithError("evaluate_abc failed");
    benchmark::DoNotOptimize(a.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations()) * static_cast<int64_t>(n));
  const double nnz = static_cast<double>(c.cs.a().nnz() + c.cs.b().nnz() + c.cs.c().nnz());
  state.counters["nnz/s"] = benchmark::Counter(nnz * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}

void BM_SpmvPoRep(benchmark::State& state) { run(state, false); }
void BM_SpmvDenseWitness(benchmark::State& state) { run(state, true); }

// {log_rows} x {serial, parallel} x {plain, fast paths}
BENCHMARK(BM_SpmvPoRep)->ArgsProduct({{16, 18, 20}, {0, 1}, {0, 1}})->ArgNames({"log_rows", "par", "fast"})->Unit(benchmark::kMillisecond)->UseRealTime();
// Random witness values: the fast paths only pay for their compares here.
BENCHMARK(BM_SpmvDenseWitness)->ArgsProduct({{16, 18}, {0, 1}, {0, 1}})->ArgNames({"log_rows", "par", "fast"})->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
