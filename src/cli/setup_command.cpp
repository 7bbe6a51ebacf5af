// `proofpipe setup <circuit.r1cs> <out.zkey> [--layout snarkjs|bellperson] [--vk vk.json]`:
// INSECURE development keys from random toxic waste that this process sees (and forgets). Anyone
// who kept it could forge proofs, so the keys are for tests, benchmarks and demos only; the
// command says so on stderr every time, --quiet or not.
#include <cstdio>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "core/output_file.hpp"
#include "engine/host_memory_limit.hpp"
#include "formats/key_circuit.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/circom_r1cs.hpp"
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

int run_setup(const setup_args& a, bool quiet) {
  command_run run("setup", quiet);
  std::fprintf(stderr,
               "proofpipe setup: WARNING: INSECURE development setup. The toxic waste comes from this process's\n"
               "                 random numbers, not from a ceremony: keys for tests and benchmarks only, never\n"
               "                 for anything a forged proof could harm.\n");
  const bool bellperson = a.layout == "bellperson";
  auto r = run.step("read circuit", "reading circuit " + a.r1cs, [&] { return formats::read_circom_r1cs_file(a.r1cs); });
  if (!r.ok()) return run.fail(r.error());
  const r1cs::constraint_system& cs = r->cs;
  // The header's counts need not be backed by bytes (wires that no constraint uses, no wire map):
  // refuse a key this machine cannot hold before allocating any of it.
  if (auto mem = engine::read_host_memory_limit({}, 0); mem.ok()) {
    const uint64_t need = groth16::setup_insecure_peak_bytes(cs);
    if (need > mem->usable) {
      return run.fail(resource_exhausted(
          "setup for " + a.r1cs + ": " + std::to_string(cs.num_variables()) + " variables and " +
          std::to_string(cs.num_constraints()) + " constraints need about " + std::to_string(need >> 20) +
          " MiB of host memory, more than the " + std::to_string(mem->usable >> 20) + " MiB this machine has"));
    }
  }
  const groth16::h_basis basis = bellperson ? groth16::h_basis::monomial : groth16::h_basis::odd_coset_lagrange;
  auto pk = run.step("setup", "generating " + a.layout + " keys for " + std::to_string(cs.num_constraints()) +
                                  " constraints, " + std::to_string(cs.num_variables()) + " variables",
                     [&] { return groth16::setup_insecure(cs, basis, groth16::random_toxic_waste_insecure()); });
  if (!pk.ok()) return run.fail(pk.error().with_context("setup for " + a.r1cs));

  // The key and its verifying key are staged together: when either path is refused, neither is written.
  const status written = run.step("write key", "writing " + a.out + (a.vk.empty() ? "" : " and " + a.vk), [&]() -> status {
    result<std::vector<uint8_t>> key = internal_error("not encoded");
    if (bellperson) {
      key = formats::write_bellperson_params(*pk);
    } else {
      formats::snarkjs_zkey z;
      z.coefficients = formats::zkey_coefficients(cs);
      z.pk = std::move(*pk);
      key = formats::write_snarkjs_zkey(z);
      *pk = std::move(z.pk);
    }
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

}  // namespace

void add_setup_command(CLI::App& app, cli_state& state) {
  auto args = std::make_shared<setup_args>();
  auto* cmd = app.add_subcommand("setup", "INSECURE development keys from random toxic waste (tests and demos only)");
  cmd->add_option("circuit", args->r1cs, "circuit .r1cs (circom, compiled with -p bls12381)")->required();
  cmd->add_option("key", args->out, "key output: .zkey (snarkjs) or bellperson parameters")->required();
  cmd->add_option("--layout", args->layout, "key layout")
      ->check(CLI::IsMember({"snarkjs", "bellperson"}))
      ->capture_default_str();
  cmd->add_option("--vk", args->vk, "also write verification_key.json (snarkjs layout)");
  cmd->callback([&state, args] { state.exit_code = run_setup(*args, state.quiet); });
}

}  // namespace pp::cli
