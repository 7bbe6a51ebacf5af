// `proofpipe prove <circuit.zkey> <witness.wtns> <proof.json> <public.json>`: the arguments of
// rapidsnark and `snarkjs groth16 prove`. Reads the key (a snarkjs zkey, or a bellperson parameter
// file with --params-format bellperson --r1cs), proves on the CPU backend (--backend cuda: the GPU;
// auto: the GPU when one is present), verifies the proof (unless --no-verify) and only then writes
// the proof and the public signals.
#include <array>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "core/output_file.hpp"
#include "devices/gpu_devices.hpp"
#include "formats/key_circuit.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/bellperson_proof.hpp"
#include "formats/circom_r1cs.hpp"
#include "formats/circom_wtns.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"

namespace pp::cli {
namespace {

struct prove_args {
  std::string key, witness, proof, pub;
  std::string params_format = "snarkjs";
  std::string proof_format = "snarkjs";
  std::string r1cs;
  std::string backend = "cpu";
  bool no_verify = false;
};

std::string count_text(uint64_t n, const char* what) { return std::to_string(n) + " " + what; }

int run_prove(const prove_args& a, bool quiet) {
  command_run run("prove", quiet);
  const bool bellperson = a.params_format == "bellperson";
  if (bellperson && a.r1cs.empty()) {
    return run.fail("--params-format bellperson needs --r1cs circuit.r1cs: bellperson parameters do not carry "
                    "the circuit's matrices");
  }

  groth16::proving_key pk;
  r1cs::constraint_system cs;
  if (bellperson) {
    auto p = run.step("read key", "reading bellperson parameters " + a.key, [&] {
      return formats::read_bellperson_params_file(a.key, {.checked = false});
    });
    if (!p.ok()) return run.fail(p.error());
    pk = std::move(*p);
  } else {
    auto z = run.step("read key", "reading zkey " + a.key, [&] { return formats::read_snarkjs_zkey_file(a.key); });
    if (!z.ok()) return run.fail(z.error());
    if (a.r1cs.empty()) {
      auto c = run.step("circuit from key", "taking the A and B matrices from the zkey",
                        [&] { return formats::circuit_from_zkey(*z); });
      if (!c.ok()) return run.fail(c.error().with_context("reading " + a.key));
      cs = std::move(*c);
    }
    pk = std::move(z->pk);
  }
  const bool have_r1cs = !a.r1cs.empty();
  if (have_r1cs) {
    auto r = run.step("read circuit", "reading circuit " + a.r1cs, [&] { return formats::read_circom_r1cs_file(a.r1cs); });
    if (!r.ok()) return run.fail(r.error());
    cs = std::move(r->cs);
    if (bellperson) {
      const status s = formats::fill_bellperson_density(pk, cs);
      if (!s.ok()) return run.fail(s.with_context(a.key + " and " + a.r1cs + " do not match"));
    }
  }
  {
    const status s = groth16::check_key_matches_circuit(pk, cs);
    if (!s.ok()) return run.fail(s.with_context(a.key + (have_r1cs ? " and " + a.r1cs + " do not match" : "")));
  }

  auto w = run.step("read witness", "reading witness " + a.witness, [&] { return formats::read_circom_wtns_file(a.witness); });
  if (!w.ok()) return run.fail(w.error());
  if (w->size() != pk.n_vars) {
    return run.fail("reading " + a.witness + ": the witness has " + count_text(w->size(), "values") + ", the key expects " +
                    std::to_string(pk.n_vars) + " (1 + " + count_text(pk.n_public(), "public") + " + " +
                    count_text(pk.n_aux(), "private") + "): is it a witness of another circuit?");
  }

  groth16::cpu_backend cpu;
  devices::device_ptr gpu;  // one GPU device with one lane, when asked for
  if (a.backend != "cpu") {
    auto count = devices::gpu_count();
    if (!count.ok()) return run.fail(count.error());
    if (*count > 0) {
      devices::gpu_device_options g;
      g.lanes = 1;
      g.ordinals = {0};
      auto devs = devices::make_gpu_devices(g);
      if (!devs.ok()) return run.fail(devs.error());
      gpu = std::move(devs->front());
    } else if (a.backend == "cuda") {
      return run.fail(devices::gpu_support_built() ? "--backend cuda: no GPU is present"
                                                  : "--backend cuda: this build has no CUDA backend");
    }
  }
  groth16::backend& backend = gpu ? gpu->backend() : static_cast<groth16::backend&>(cpu);
  groth16::prove_request req;
  req.pk = &pk;
  req.cs = &cs;
  req.witness = *w;
  req.options.self_verify = false;          // verified below, with a message that fits what we know
  req.options.check_satisfied = have_r1cs;  // names the failing constraint (a zkey has no C matrix)
  run.progress("proving on the " + std::string(backend.name()) + " backend: " +
               count_text(cs.num_constraints(), "constraints") + ", " + count_text(pk.n_vars, "variables") +
               ", domain " + std::to_string(pk.domain_size));
  auto out = groth16::prove(backend, req);
  if (!out.ok()) return run.fail(out.error().with_context("proving with " + a.witness));
  run.add_prover_timings(out->timings);

  const std::span<const ff::fr> pub = std::span<const ff::fr>(*w).subspan(1, pk.n_public());
  if (!a.no_verify) {
    const status v = run.step("verify", "verifying the proof", [&] { return groth16::verify_unchecked(pk.vk, pub, out->pi); });
    if (!v.ok()) {
      return run.fail("the proof does not verify (" + v.message() + "), nothing written: " +
                      (have_r1cs ? std::string("the witness satisfies the circuit, so the key does not match it")
                                 : std::string("the witness does not satisfy the circuit or belongs to another one "
                                               "(pass --r1cs circuit.r1cs to name the failing constraint)")));
    }
  }

  // Staged together: when either path is refused, neither file is written.
  const status written = run.step("write", "writing " + a.proof + " and " + a.pub, [&]() -> status {
    std::string proof_text;
    std::array<uint8_t, formats::bellperson_proof_size> proof_bytes{};
    std::span<const uint8_t> proof;
    if (a.proof_format == "bellperson") {
      proof_bytes = formats::write_bellperson_proof(out->pi);
      proof = proof_bytes;
    } else {
      proof_text = formats::write_snarkjs_proof_json(out->pi);
      proof = std::span(reinterpret_cast<const uint8_t*>(proof_text.data()), proof_text.size());
    }
    const std::string pub_text = formats::write_snarkjs_public_json(pub);
    const output_bytes outputs[] = {{a.proof, proof},
                                    {a.pub, std::span(reinterpret_cast<const uint8_t*>(pub_text.data()), pub_text.size())}};
    return write_output_files(outputs);
  });
  if (!written.ok()) return run.fail(written);
  run.print_table();
  return 0;
}

}  // namespace

void add_prove_command(CLI::App& app, cli_state& state) {
  auto args = std::make_shared<prove_args>();
  auto* cmd = app.add_subcommand("prove", "prove with a key and a witness (as rapidsnark / snarkjs groth16 prove)");
  cmd->add_option("key", args->key, "proving key: snarkjs .zkey (or bellperson parameters)")->required();
  cmd->add_option("witness", args->witness, "witness .wtns (circom / snarkjs wtns calculate)")->required();
  cmd->add_option("proof", args->proof, "proof output: proof.json (or the 192-byte bellperson proof)")->required();
  cmd->add_option("public", args->pub, "public signals output: public.json")->required();
  cmd->add_option("--backend", args->backend, "cpu (default), cuda, or auto (cuda when a GPU is present)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  cmd->add_option("--params-format", args->params_format, "key layout")
      ->check(CLI::IsMember({"snarkjs", "bellperson"}))
      ->capture_default_str();
  cmd->add_option("--r1cs", args->r1cs,
                  "the circuit's .r1cs: required for bellperson parameters; with a zkey it names an unsatisfied "
                  "constraint");
  cmd->add_option("--proof-format", args->proof_format, "proof output layout")
      ->check(CLI::IsMember({"snarkjs", "bellperson"}))
      ->capture_default_str();
  cmd->add_flag("--no-verify", args->no_verify, "skip verifying the proof before writing it");
  cmd->callback([&state, args] { state.exit_code = run_prove(*args, state.quiet); });
}

}  // namespace pp::cli
