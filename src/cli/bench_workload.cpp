#include "cli/bench_workload.hpp"

#include <memory>
#include <utility>

#include "core/host_memory.hpp"
#include "core/status_macros.hpp"
#include "devices/gpu_devices.hpp"
#include "groth16/setup_insecure.hpp"
#include "r1cs/synthetic.hpp"

namespace pp::cli {

result<bench_workload> make_synthetic_workload(command_run& run, uint32_t log_constraints, groth16::h_basis basis,
                                               int gpu_points) {
  if (log_constraints < 2 || log_constraints > max_bench_log_constraints) {
    return invalid_argument("--log-constraints must lie in [2, " + std::to_string(max_bench_log_constraints) + "]");
  }
  // PoRep's shape and fill of the domain (130.3M constraints in 2^27), leaving room for the input rows.
  const uint64_t constraints = r1cs::synthetic_params::porep_constraints(int(log_constraints));
  PP_RETURN_IF_ERROR(check_host_memory(constraints * (synthetic_circuit_host_bytes + synthetic_key_host_bytes),
                                       "--log-constraints " + std::to_string(log_constraints) +
                                           ": the PoRep-shaped circuit of " + std::to_string(constraints) +
                                           " constraints and its key"));
  std::unique_ptr<groth16::fixed_base_multiplier> points;
  if (gpu_points >= 0) {
    auto m = devices::make_gpu_fixed_base_multiplier(gpu_points);
    if (!m.ok()) return m.error();
    points = std::move(m).value();
  }
  const r1cs::synthetic_params p = r1cs::synthetic_params::porep(constraints, 1);
  auto sc = run.step("synthesize", "synthesizing a PoRep-shaped circuit of 2^" + std::to_string(log_constraints) +
                                       " constraints", [&] { return r1cs::make_synthetic(p); });
  if (!sc.ok()) return sc.error();
  auto pk = run.step("setup", "INSECURE setup (toxic waste known to this process: benchmark only)", [&] {
    const auto tw = groth16::toxic_waste_from_seed_insecure(1);
    return points ? groth16::setup_insecure(sc->cs, basis, tw, *points) : groth16::setup_insecure(sc->cs, basis, tw);
  });
  if (!pk.ok()) return pk.error();
  bench_workload w;
  w.key = engine::memory_key_source{std::make_shared<const groth16::proving_key>(std::move(pk).value()),
                                    std::make_shared<const r1cs::constraint_system>(std::move(sc->cs))};
  w.witness = engine::witness_source::memory(std::move(sc->w));
  w.label = "synthetic 2^" + std::to_string(log_constraints);
  return w;
}

result<bench_workload> make_zkey_workload(const std::string& zkey, const std::string& wtns) {
  if (wtns.empty()) return invalid_argument("--zkey needs --wtns witness.wtns");
  bench_workload w;
  w.key = engine::zkey_file_source{zkey};
  w.witness = engine::witness_source::file(wtns);
  w.label = zkey;
  return w;
}

}  // namespace pp::cli
