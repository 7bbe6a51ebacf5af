// `proofpipe plan`: the plan the CUDA backend would make for a key under a VRAM budget, printed on a
// host without a GPU (cuda/plan/budget_plan.hpp: the functions the backend itself plans with). The key is
// a snarkjs zkey of either curve (BN254 keys planned with BN254's point sizes), bellperson parameters
// with their circuit (--params-format bellperson --r1cs), or
// the PoRep-shaped synthetic circuit of 2^K constraints that cuda_prover_bench proves (--porep-log K:
// r1cs::synthetic_params::porep, seed 42, the key the insecure setup would make for it). A budget
// below the least the key needs is refused, naming that least. k, the partitions a lane takes per
// streamed copy (cuda/plan/together_plan.hpp), depends on the packed witness's size: the PoRep-shaped
// circuit's own witness, a .wtns given with --wtns, else the largest a witness of the key can pack to
// (every value neither 0 nor 1). Lines "name: value ..." give exact byte counts first
// (tests/cli/plan_command_test.cpp reads them).
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <variant>

#include "cli/bench_workload.hpp"
#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "core/host_memory.hpp"
#include "core/status_macros.hpp"
#include "cuda/plan/budget_plan.hpp"
#include "cuda/plan/key_sizing.hpp"
#include "cuda/plan/spmv_matrix.hpp"
#include "cuda/plan/together_plan.hpp"
#include "cuda/plan/witness_layout.hpp"
#include "formats/circom_wtns.hpp"
#include "formats/key_circuit.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "r1cs/synthetic.hpp"

namespace pp::cli {
namespace {

constexpr double gib = double(uint64_t{1} << 30);

struct plan_args {
  std::string key;
  std::string params_format = "snarkjs";
  std::string r1cs;
  std::string wtns;
  int porep_log = 0;
  std::string porep_basis = "bellperson";
  double budget_gib = -1;
  double link_gib_s = 0;
  uint32_t lanes = cuda::cuda_backend_config{}.lanes;
  uint32_t h_copies = 1;
  uint64_t staging_mib = cuda::cuda_backend_config{}.staging_bytes >> 20;
  double max_pinned_gib = double(cuda::cuda_backend_config{}.max_pinned_bytes) / gib;
  uint64_t driver_mib = 0;
};

// What the plan is made of: the key's sizes and its circuit, of the key's curve.
struct planned_input {
  cuda::key_sizes key;
  std::variant<r1cs::constraint_system, r1cs::bn254::constraint_system> cs;
  std::string what;
  std::optional<cuda::compact_witness_layout> packed_witness;  // the witness's packed layout, when one is known
  std::string witness_what;                // which witness
};

std::string gib_text(uint64_t b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", double(b) / gib);
  return buf;
}

result<planned_input> porep_input(const plan_args& a, command_run& run) {
  if (a.porep_log < 1 || a.porep_log > 27) {
    return invalid_argument("--porep-log " + std::to_string(a.porep_log) + ": expected 1 to 27 (a PoRep partition is 27)");
  }
  const groth16::h_basis basis =
      a.porep_basis == "snarkjs" ? groth16::h_basis::odd_coset_lagrange : groth16::h_basis::monomial;
  const uint64_t constraints = r1cs::synthetic_params::porep_constraints(a.porep_log);
  // The command holds the circuit, its witness and the compact matrices: a 2^27 plan needs ~34 GiB,
  // more than a small host holds.
  PP_RETURN_IF_ERROR(check_host_memory(constraints * synthetic_circuit_host_bytes,
                                       "--porep-log " + std::to_string(a.porep_log) + ": the PoRep-shaped circuit of " +
                                           std::to_string(constraints) + " constraints"));
  auto c = run.step("circuit", "making the PoRep-shaped circuit of " + std::to_string(constraints) + " constraints",
                    [&] { return r1cs::make_synthetic(r1cs::synthetic_params::porep(constraints, 42)); });
  if (!c.ok()) return c.error();
  planned_input in;
  PP_ASSIGN_OR_RETURN(in.key, cuda::key_sizes::of_setup(c->cs, basis));
  in.packed_witness = cuda::packed_layout_of(std::span<const ff::fr>(c->w));
  in.witness_what = "the PoRep-shaped circuit's witness";
  in.cs = std::move(c->cs);
  in.what = "PoRep-shaped 2^" + std::to_string(a.porep_log) + " (" + a.porep_basis + " key)";
  return in;
}

result<planned_input> file_input(const plan_args& a, command_run& run) {
  const bool bellperson = a.params_format == "bellperson";
  if (bellperson && a.r1cs.empty()) {
    return invalid_argument("--params-format bellperson needs --r1cs circuit.r1cs: bellperson parameters do not "
                            "carry the circuit's matrices");
  }
  planned_input in;
  in.what = a.key;
  if (!bellperson) {
    PP_ASSIGN_OR_RETURN(const ec::curve_id curve, formats::read_snarkjs_zkey_curve_file(a.key));
    if (curve == ec::curve_id::bn254) {
      if (!a.r1cs.empty()) return invalid_argument("--r1cs: a BN254 key is planned with the circuit its zkey implies");
      using bn = ec::bn254::family;
      auto z = run.step("read key", "reading " + a.key, [&] {
        return formats::read_snarkjs_zkey_file<bn>(a.key, {.check = formats::zkey_point_check::range_only});
      });
      if (!z.ok()) return z.error();
      PP_ASSIGN_OR_RETURN(in.cs, formats::circuit_from_zkey(*z));
      in.key = cuda::key_sizes::of(z->pk);
      return in;
    }
  }
  auto k = run.step("read key", "reading " + a.key + (a.r1cs.empty() ? "" : " and " + a.r1cs), [&] {
    return formats::read_key_files({.key = a.key, .r1cs = a.r1cs, .bellperson = bellperson},
                                   {.check = formats::zkey_point_check::range_only}, {.checked = false});
  });
  if (!k.ok()) return k.error();
  in.key = cuda::key_sizes::of(k->pk);
  in.cs = std::move(k->cs);
  return in;
}

// The --wtns witness's packed size, read as the key's curve's values.
status read_witness(const plan_args& a, planned_input& in) {
  if (a.wtns.empty()) return ok_status();
  return std::visit(
      [&]<class Cs>(const Cs& cs) -> status {
        using Fr = typename Cs::field;
        PP_ASSIGN_OR_RETURN(const std::vector<Fr> w, formats::read_circom_wtns_file<Fr>(a.wtns));
        if (w.size() != cs.num_variables()) {
          return invalid_argument("--wtns " + a.wtns + ": " + std::to_string(w.size()) + " values, the circuit has " +
                                  std::to_string(cs.num_variables()) + " variables");
        }
        in.packed_witness = cuda::packed_layout_of(std::span<const Fr>(w));
        in.witness_what = a.wtns;
        return ok_status();
      },
      in.cs);
}

void print_plan(const planned_input& in, const cuda::key_shape& s, const cuda::budget_plan& b,
                const cuda::cuda_backend_config& cfg, const cuda::together_fit& together, uint32_t carrying,
                uint64_t packed_witness, double link_gib_s) {
  using namespace cuda;
  const key_plan& p = b.plan;
  std::printf("plan of %s: domain %llu, %llu variables, %s basis\n", in.what.c_str(), (unsigned long long)s.n,
              (unsigned long long)s.nv, in.key.basis == groth16::h_basis::monomial ? "monomial (bellperson)"
                                                                                  : "odd-coset Lagrange (snarkjs)");
  std::printf("curve: %s\n", std::holds_alternative<r1cs::bn254::constraint_system>(in.cs) ? "BN254" : "BLS12-381");
  if (cfg.max_vram_bytes == 0) {
    std::printf("budget: unlimited\n");
  } else {
    std::printf("budget: %llu bytes (%s): %llu for the plan, %llu kept for the pinned mappings, %llu for the "
                "kernels\n",
                (unsigned long long)cfg.max_vram_bytes, gib_text(cfg.max_vram_bytes).c_str(),
                (unsigned long long)b.region, (unsigned long long)b.pin_reserve, (unsigned long long)b.driver_bytes);
  }
  std::printf("least budget: %llu bytes (%s)\n", (unsigned long long)b.least_budget, gib_text(b.least_budget).c_str());
  for (int t = 0; t < key_table_count; ++t) {
    std::printf("%s: %llu bytes, %llu points, %s\n", key_table_names[t], (unsigned long long)s.table_bytes(t),
                (unsigned long long)s.points[t], p.resident[t] ? "resident" : "streamed");
  }
  if (p.matrices_resident) {
    std::printf("matrices: %llu bytes, resident\n", (unsigned long long)s.matrices_bytes);
  } else {
    std::printf("matrices: %llu bytes, streamed in row chunks of %llu bytes (coefficient tables resident: %llu "
                "bytes)\n",
                (unsigned long long)p.matrix_image_bytes(s), (unsigned long long)p.matrix_slot_bytes,
                (unsigned long long)s.matrix_tables_bytes);
  }
  std::printf("msm chunks: %llu G1 points, %llu G2 points\n", (unsigned long long)p.msm.g1_chunk,
              (unsigned long long)p.msm.g2_chunk);
  std::printf("msm workspace: %llu bytes (%s)\n", (unsigned long long)p.msm.workspace_bytes,
              gib_text(p.msm.workspace_bytes).c_str());
  std::printf("point slots: %llu bytes each, %d per lane\n", (unsigned long long)p.slot_bytes,
              p.slot_bytes != 0 ? p.lane.slots : 0);
  std::printf("lanes: %u, %llu bytes each (%s)\n", p.lanes, (unsigned long long)p.lane.bytes,
              gib_text(p.lane.bytes).c_str());
  std::printf("partitions per streamed copy (k): %u, packed witnesses of %llu bytes (%s); %s\n", together.partitions,
              (unsigned long long)packed_witness,
              in.packed_witness ? in.witness_what.c_str() : "the most a witness of this key packs to",
              together.limit.c_str());
  if (together.partitions > 1 || together.staging_for_more != 0) {
    std::printf("partitions together whose MSM states carry every table's buckets across its chunks: at most %u (more "
                "fit, but a table whose buckets do not carry reduces every chunk's own)\n",
                carrying);
  }
  std::printf("resident: %llu bytes (%s)\n", (unsigned long long)p.resident_bytes, gib_text(p.resident_bytes).c_str());
  std::printf("device total: %llu bytes (%s)\n", (unsigned long long)p.total_bytes(), gib_text(p.total_bytes()).c_str());
  const uint64_t copied = p.streamed_bytes(s);
  std::printf("copied per partition: %llu bytes (%s) of streamed tables and matrices, besides the packed witness "
              "(at most %llu bytes)\n",
              (unsigned long long)copied, gib_text(copied).c_str(), (unsigned long long)s.witness_ws_bytes);
  if (link_gib_s > 0) {
    std::printf("copy time per partition: %.3f s at %.2f GiB/s\n", double(copied) / (link_gib_s * gib), link_gib_s);
  }
  if (together.partitions > 1) {
    const uint64_t shared = together_streamed_bytes(s, p, together.partitions);
    std::printf("copied per partition, k together: %llu bytes (%s) of streamed tables and matrices, besides the "
                "packed witness twice\n",
                (unsigned long long)shared, gib_text(shared).c_str());
    if (link_gib_s > 0) {
      std::printf("copy time per partition, k together: %.3f s at %.2f GiB/s\n",
                  double(shared + 2 * packed_witness) / (link_gib_s * gib), link_gib_s);
    }
  }
  std::printf("plan: %s\n", p.to_string(s).c_str());
}

int run_plan(const plan_args& a, bool quiet) {
  command_run run("plan", quiet);
  if (a.porep_log != 0 && !a.key.empty()) return run.fail("give either a key file or --porep-log, not both");
  if (a.porep_log == 0 && a.key.empty()) return run.fail("give a key file (zkey, or bellperson parameters) or --porep-log K");
  if (a.budget_gib < 0) return run.fail("--budget-gib must not be negative (0: unlimited)");
  if (a.link_gib_s < 0) return run.fail("--link-gib-s must not be negative");
  if (a.lanes == 0 || a.lanes > cuda::max_lanes) {
    return run.fail("--lanes must lie in [1, " + std::to_string(cuda::max_lanes) + "]");
  }
  if (a.porep_log != 0 && !a.wtns.empty()) return run.fail("--wtns: the PoRep-shaped circuit brings its own witness");
  auto in = a.porep_log != 0 ? porep_input(a, run) : file_input(a, run);
  if (!in.ok()) return run.fail(in.error());
  if (status s = read_witness(a, *in); !s.ok()) return run.fail(s);
  cuda::cuda_backend_config cfg;
  cfg.max_vram_bytes = uint64_t(std::llround(a.budget_gib * gib));
  cfg.lanes = a.lanes;
  cfg.h_copies = a.h_copies;
  cfg.staging_bytes = a.staging_mib << 20;
  cfg.max_pinned_bytes = uint64_t(std::llround(a.max_pinned_gib * gib));
  auto compact = run.step("compact", "compacting the matrices", [&] {
    return std::visit([](const auto& cs) { return cuda::make_compact_r1cs(cs); }, in->cs);
  });
  if (!compact.ok()) return run.fail(compact.error());
  auto shape = std::visit(
      [&](const auto& cs) {
        return cuda::shape_key(in->key, cs, *compact, cfg.staging_bytes, cuda::matrix_rows_for(cfg), cfg.h_copies);
      },
      in->cs);
  if (!shape.ok()) return run.fail(shape.error());
  auto plan = run.step("plan", "planning", [&] { return cuda::plan_for_budget(*shape, cfg, a.driver_mib << 20); });
  if (!plan.ok()) return run.fail(plan.error());
  const cuda::compact_witness_layout packed =
      in->packed_witness.value_or(cuda::compact_witness_layout::make(shape->nv, shape->nv));
  auto together = cuda::partitions_together(*shape, plan->plan, cfg.staging_bytes, packed.bytes);
  if (!together.ok()) return run.fail(together.error());
  auto carrying = cuda::carrying_partitions(*shape, plan->plan, packed, cuda::max_partitions_together);
  if (!carrying.ok()) return run.fail(carrying.error());
  print_plan(*in, *shape, *plan, cfg, *together, *carrying, packed.bytes, a.link_gib_s);
  return 0;
}

}  // namespace

void add_plan_command(CLI::App& app, cli_state& state) {
  auto args = std::make_shared<plan_args>();
  auto* cmd = app.add_subcommand("plan", "print the plan the CUDA backend would make for a key under a VRAM budget "
                                         "(resident and streamed tables, chunks, lanes, bytes copied): no GPU needed");
  cmd->add_option("key", args->key, "proving key: snarkjs .zkey (or bellperson parameters)");
  cmd->add_option("--params-format", args->params_format, "key layout")
      ->check(CLI::IsMember({"snarkjs", "bellperson"}))
      ->capture_default_str();
  cmd->add_option("--r1cs", args->r1cs, "the circuit's .r1cs: required for bellperson parameters");
  cmd->add_option("--wtns", args->wtns, "a witness (.wtns) of the circuit: its packed size sets k, the partitions a "
                                       "lane takes per streamed copy (default: the largest any witness packs to)");
  cmd->add_option("--porep-log", args->porep_log,
                  "instead of a key: the PoRep-shaped synthetic circuit of 2^K constraints (27: a PoRep partition; "
                  "needs host memory for the circuit, ~40 GiB at 27)");
  cmd->add_option("--porep-basis", args->porep_basis, "the PoRep-shaped key's layout")
      ->check(CLI::IsMember({"bellperson", "snarkjs"}))
      ->capture_default_str();
  cmd->add_option("--budget-gib", args->budget_gib, "VRAM budget (gpu_vram_max_mb) in GiB; 0: unlimited")->required();
  cmd->add_option("--link-gib-s", args->link_gib_s, "host-to-device link speed in GiB/s: prints the copy time per "
                                                   "partition");
  cmd->add_option("--lanes", args->lanes, "partitions in flight on the GPU (workers_per_device)")->capture_default_str();
  cmd->add_option("--h-copies", args->h_copies, "copies of H's points a resident key may keep (gpu_h_copies)")
      ->capture_default_str();
  cmd->add_option("--staging-mib", args->staging_mib, "pinned witness staging per lane (gpu_staging_mb)")
      ->capture_default_str();
  cmd->add_option("--max-pinned-gib", args->max_pinned_gib, "pinned host memory for streamed tables per GPU")
      ->capture_default_str();
  cmd->add_option("--driver-mib", args->driver_mib, "device memory the driver takes for the kernels, kept out of the "
                                                   "budget (the backend logs it as driver_bytes: ~460 MiB on an H200)")
      ->capture_default_str();
  cmd->callback([&state, args] { state.exit_code = run_plan(*args, state.quiet); });
}

}  // namespace pp::cli
