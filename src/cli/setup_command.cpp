// `proofpipe setup <circuit.r1cs> <out.zkey> [--layout snarkjs|bellperson] [--vk vk.json]`:
// INSECURE development keys from random toxic waste that this process sees (and forgets). Anyone
// who kept it could forge proofs, so the keys are for tests, benchmarks and demos only; the
// command says so on stderr every time, --quiet or not. The curve is the circuit's (its prime:
// BLS12-381 or BN254), dispatched once; the bellperson layout is BLS12-381's.
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "core/output_file.hpp"
#include "ec/curve_id.hpp"
#include "engine/host_memory_limit.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/circom_r1cs.hpp"
#include "formats/key_circuit.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "groth16/setup_insecure.hpp"

namespace pp::cli {
namespace {

struct setup_args {
  std::string r1cs, out;
  std::string layout = "snarkjs";
  std::string vk;
};

// The key's file bytes in the asked layout (the key is moved through a zkey and back).
template <class Family>
result<std::vector<uint8_t>> encode_key(const setup_args& a, const r1cs::basic_constraint_system<typename Family::fr>& cs,
                                        groth16::basic_proving_key<Family>& pk) {
  if constexpr (std::is_same_v<Family, ec::bls12_381::family>) {
    if (a.layout == "bellperson") return formats::write_bellperson_params(pk);
  }
  formats::basic_snarkjs_zkey<Family> z;
  z.coefficients = formats::zkey_coefficients(cs);
  z.pk = std::move(pk);
  auto key = formats::write_snarkjs_zkey(z);
  pk = std::move(z.pk);
  return key;
}

template <class Family>
int setup_with(const setup_args& a, command_run& run) {
  using fr = typename Family::fr;
  const bool bellperson = a.layout == "bellperson";
  auto r = run.step("read circuit", "reading circuit " + a.r1cs, [&] { return formats::read_circom_r1cs_file<fr>(a.r1cs); });
  if (!r.ok()) return run.fail(r.error());
  const r1cs::basic_constraint_system<fr>& cs = r->cs;
  // The header's counts need not be backed by bytes (wires that no constraint uses, no wire map):
  // refuse a key this machine cannot hold before allocating any of it.
  if (auto mem = engine::read_host_memory_limit({}, 0); mem.ok()) {
    const uint64_t need = groth16::setup_insecure_peak_bytes<Family>(cs);
    if (need > mem->usable) {
      return run.fail(resource_exhausted(
          "setup for " + a.r1cs + ": " + std::to_string(cs.num_variables()) + " variables and " +
          std::to_string(cs.num_constraints()) + " constraints need about " + std::to_string(need >> 20) +
          " MiB of host memory, more than the " + std::to_string(mem->usable >> 20) + " MiB this machine has"));
    }
  }
  const groth16::h_basis basis = bellperson ? groth16::h_basis::monomial : groth16::h_basis::odd_coset_lagrange;
  auto pk = run.step("setup", "generating " + a.layout + " " + std::string(Family::name) + " keys for " +
                                  std::to_string(cs.num_constraints()) + " constraints, " +
                                  std::to_string(cs.num_variables()) + " variables",
                     [&] { return groth16::setup_insecure<Family>(cs, basis, groth16::random_toxic_waste_insecure<fr>()); });
  if (!pk.ok()) return run.fail(pk.error().with_context("setup for " + a.r1cs));

  // The key and its verifying key are staged together: when either path is refused, neither is written.
  const status written = run.step("write key", "writing " + a.out + (a.vk.empty() ? "" : " and " + a.vk), [&]() -> status {
    auto key = encode_key(a, cs, *pk);
    if (!key.ok()) return key.error().with_context("writing " + a.out);
    const std::string vk = a.vk.empty() ? std::string() : formats::write_snarkjs_vk_json(pk->vk);
    std::vector<output_bytes> outputs{{a.out, *key}};
    if (!a.vk.empty()) outputs.push_back({a.vk, std::span(reinterpret_cast<const uint8_t*>(vk.data()), vk.size())});
    return write_output_files(outputs);
  });
  if (!written.ok()) return run.fail(written);
  run.print_table();
  return 0;
}

int run_setup(const setup_args& a, bool quiet) {
  command_run run("setup", quiet);
  std::fprintf(stderr,
               "proofpipe setup: WARNING: INSECURE development setup. The toxic waste comes from this process's\n"
               "                 random numbers, not from a ceremony: keys for tests and benchmarks only, never\n"
               "                 for anything a forged proof could harm.\n");
  auto curve = formats::read_circom_r1cs_curve_file(a.r1cs);
  if (!curve.ok()) return run.fail(curve.error());
  if (a.layout == "bellperson" && *curve != ec::curve_id::bls12_381) {
    return run.fail("--layout bellperson: bellperson parameters are BLS12-381's, " + a.r1cs + " is for " +
                    ec::curve_name(*curve) + " (use the snarkjs layout, or compile the circuit with circom -p bls12381)");
  }
  return ec::visit_curve(*curve, [&]<class Family>() { return setup_with<Family>(a, run); });
}

}  // namespace

void add_setup_command(CLI::App& app, cli_state& state) {
  auto args = std::make_shared<setup_args>();
  auto* cmd = app.add_subcommand("setup", "INSECURE development keys from random toxic waste (tests and demos only)");
  cmd->add_option("circuit", args->r1cs, "circuit .r1cs (circom; -p bn128, the default, or -p bls12381)")->required();
  cmd->add_option("key", args->out, "key output: .zkey (snarkjs) or bellperson parameters (BLS12-381)")->required();
  cmd->add_option("--layout", args->layout, "key layout")
      ->check(CLI::IsMember({"snarkjs", "bellperson"}))
      ->capture_default_str();
  cmd->add_option("--vk", args->vk, "also write verification_key.json (snarkjs layout)");
  cmd->callback([&state, args] { state.exit_code = run_setup(*args, state.quiet); });
}

}  // namespace pp::cli
