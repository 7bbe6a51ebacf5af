// CPU Groth16 prove time on synthetic circuits (r1cs::make_synthetic: PoRep-like density, witness
// mostly 0/1) of 2^10..2^16 QAP rows, both key layouts. Counters give the per-step breakdown in
// seconds per proof (spmv, ntt (h), msm H/L/A/B_G1/B_G2, assembly, self-verify).
// Run: build/<dir>/bench/groth16/groth16_prove_bench [--benchmark_filter=Snarkjs/12]
#include <benchmark/benchmark.h>

#include <map>
#include <memory>
#include <utility>

#include "groth16/prover.hpp"
#include "groth16/setup_insecure.hpp"
#include "r1cs/synthetic.hpp"

namespace {

using namespace pp;
using namespace pp::groth16;

struct fixture {
  r1cs::synthetic_circuit circuit;
  proving_key pk;
};

// One circuit and key per (layout, size), kept for the run: setup costs more than a proof.
// nullptr when the synthetic circuit or the setup fails.
const fixture* get_fixture(h_basis basis, int log_n) {
  static std::map<std::pair<int, int>, std::unique_ptr<fixture>> cache;
  auto& slot = cache[{static_cast<int>(basis), log_n}];
  if (!slot) {
    r1cs::synthetic_params p;
    p.num_public = 4;
    p.num_constraints = (uint64_t{1} << log_n) - p.num_public - 1;  // QAP rows fill the domain exactly
    p.num_aux = uint64_t{1} << log_n;
    p.seed = static_cast<uint64_t>(log_n);
    auto c = r1cs::make_synthetic(p);
    if (!c.ok()) return nullptr;
    auto pk = setup_insecure(c->cs, basis, toxic_waste_from_seed_insecure(42));
    if (!pk.ok()) return nullptr;
    slot = std::make_unique<fixture>(fixture{std::move(c).value(), std::move(pk).value()});
  }
  return slot.get();
}

void run(benchmark::State& state, h_basis basis) {
  const int log_n = static_cast<int>(state.range(0));
  const fixture* f = get_fixture(basis, log_n);
  if (f == nullptr) {
    state.SkipWithError("setup failed");
    return;
  }
  cpu_backend be;
  std::map<std::string, double> steps;
  int64_t proofs = 0;
  for (auto _ : state) {
    auto out = prove(be, {&f->pk, &f->circuit.cs, f->circuit.w, std::nullopt, {}});
    if (!out.ok()) {
      state.SkipWithError(out.error().to_string().c_str());
      return;
    }
    for (const auto& s : out->timings.steps) steps[s.name] += std::chrono::duration<double>(s.elapsed).count();
    ++proofs;
  }
  for (const auto& [name, secs] : steps) state.counters[name] = secs / static_cast<double>(proofs);
  state.SetItemsProcessed(state.iterations() * (int64_t{1} << log_n));
}

void BM_ProveSnarkjs(benchmark::State& state) { run(state, h_basis::odd_coset_lagrange); }
void BM_ProveBellman(benchmark::State& state) { run(state, h_basis::monomial); }

BENCHMARK(BM_ProveSnarkjs)->DenseRange(10, 16, 2)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ProveBellman)->DenseRange(10, 16, 2)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
