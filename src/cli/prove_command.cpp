// `proofpipe prove <circuit.zkey> <witness.wtns> <proof.json> <public.json>`: the arguments of
// rapidsnark and `snarkjs groth16 prove`. Reads the key (a snarkjs zkey of either curve, its curve
// read from its q and r; or a BLS12-381 bellperson parameter file with --params-format bellperson
// --r1cs), proves on the CPU backend (--backend cuda: the GPU, either curve's key; auto: the GPU when
// one is present), verifies the proof (unless --no-verify) and
// only then writes the proof and the public signals. The curve is dispatched once, on the key's.
#include <array>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "core/output_file.hpp"
#include "core/status_macros.hpp"
#include "devices/gpu_devices.hpp"
#include "ec/curve_id.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/bellperson_proof.hpp"
#include "formats/circom_r1cs.hpp"
#include "formats/circom_wtns.hpp"
#include "formats/key_circuit.hpp"
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

// bellperson's layouts and the GPU backend are BLS12-381's alone.
template <class Family>
constexpr bool is_bls12_381 = std::is_same_v<Family, ec::bls12_381::family>;

std::string count_text(uint64_t n, const char* what) { return std::to_string(n) + " " + what; }

template <class Family>
struct key_and_circuit {
  groth16::basic_proving_key<Family> pk;
  r1cs::basic_constraint_system<typename Family::fr> cs;
};

// The key and the circuit it is checked against: the zkey's A and B, or the --r1cs file.
template <class Family>
result<key_and_circuit<Family>> read_key(const prove_args& a, command_run& run) {
  key_and_circuit<Family> k;
  const bool bellperson = a.params_format == "bellperson";
  if constexpr (is_bls12_381<Family>) {
    if (bellperson) {
      auto p = run.step("read key", "reading bellperson parameters " + a.key, [&] {
        return formats::read_bellperson_params_file(a.key, {.checked = false});
      });
      if (!p.ok()) return p.error();
      k.pk = std::move(*p);
    }
  }
  if (!bellperson) {
    auto z = run.step("read key", "reading zkey " + a.key, [&] { return formats::read_snarkjs_zkey_file<Family>(a.key); });
    if (!z.ok()) return z.error();
    if (a.r1cs.empty()) {
      auto c = run.step("circuit from key", "taking the A and B matrices from the zkey",
                        [&] { return formats::circuit_from_zkey(*z); });
      if (!c.ok()) return c.error().with_context("reading " + a.key);
      k.cs = std::move(*c);
    }
    k.pk = std::move(z->pk);
  }
  if (!a.r1cs.empty()) {
    auto r = run.step("read circuit", "reading circuit " + a.r1cs,
                      [&] { return formats::read_circom_r1cs_file<typename Family::fr>(a.r1cs); });
    if (!r.ok()) return r.error();
    k.cs = std::move(r->cs);
    if constexpr (is_bls12_381<Family>) {
      if (bellperson) {
        PP_RETURN_IF_ERROR(formats::fill_bellperson_density(k.pk, k.cs).with_context(a.key + " and " + a.r1cs + " do not match"));
      }
    }
  }
  PP_RETURN_IF_ERROR(groth16::check_key_matches_circuit(k.pk, k.cs)
                         .with_context(a.key + (a.r1cs.empty() ? "" : " and " + a.r1cs + " do not match")));
  return k;
}

// The witness, refused naming both curves when it is for another curve than the key.
template <class Family>
result<std::vector<typename Family::fr>> read_witness(const prove_args& a, const groth16::basic_proving_key<Family>& pk) {
  constexpr ec::curve_id curve = ec::curve_id_of<Family>;
  // A file the header read cannot place is left to the full read, whose message is the same.
  if (auto c = formats::read_circom_wtns_curve_file(a.witness); c.ok() && *c != curve) {
    return invalid_argument("reading " + a.witness + ": this .wtns is for " + ec::curve_text(*c) + ", the key " + a.key +
                            " is for " + ec::curve_text(curve) + ": compute the witness with the key's circuit");
  }
  PP_ASSIGN_OR_RETURN(std::vector<typename Family::fr> w, formats::read_circom_wtns_file<typename Family::fr>(a.witness));
  if (w.size() != pk.n_vars) {
    return invalid_argument("reading " + a.witness + ": the witness has " + count_text(w.size(), "values") +
                            ", the key expects " + std::to_string(pk.n_vars) + " (1 + " +
                            count_text(pk.n_public(), "public") + " + " + count_text(pk.n_aux(), "private") +
                            "): is it a witness of another circuit?");
  }
  return w;
}

// One GPU device with one lane for --backend cuda / auto, or none (the CPU backend proves).
result<devices::device_ptr> open_gpu(const prove_args& a) {
  if (a.backend == "cpu") return devices::device_ptr{};
  PP_ASSIGN_OR_RETURN(const int count, devices::gpu_count());
  if (count > 0) {
    devices::gpu_device_options g;
    g.lanes = 1;
    g.ordinals = {0};
    PP_ASSIGN_OR_RETURN(std::vector<devices::device_ptr> devs, devices::make_gpu_devices(g));
    return std::move(devs.front());
  }
  if (a.backend == "cuda") {
    return failed_precondition(devices::gpu_support_built() ? "--backend cuda: no GPU is present"
                                                            : "--backend cuda: this build has no CUDA backend");
  }
  return devices::device_ptr{};
}

template <class Family>
int prove_with(const prove_args& a, command_run& run) {
  using fr = typename Family::fr;
  if constexpr (!is_bls12_381<Family>) {
    // Refused before anything is read.
    if (a.proof_format == "bellperson") {
      return run.fail("--proof-format bellperson: bellperson proofs are BLS12-381's, " + a.key + " is for " +
                      ec::curve_text(ec::curve_id_of<Family>));
    }
  }
  auto k = read_key<Family>(a, run);
  if (!k.ok()) return run.fail(k.error());
  const groth16::basic_proving_key<Family>& pk = k->pk;
  const r1cs::basic_constraint_system<fr>& cs = k->cs;
  auto w = run.step("read witness", "reading witness " + a.witness, [&] { return read_witness(a, pk); });
  if (!w.ok()) return run.fail(w.error());

  groth16::basic_cpu_backend<Family> cpu;
  groth16::basic_backend<Family>* backend = &cpu;
  devices::device_ptr gpu;
  auto g = open_gpu(a);
  if (!g.ok()) return run.fail(g.error());
  gpu = std::move(*g);
  if (gpu) backend = devices::backend_for<Family>(*gpu);
  groth16::basic_prove_request<Family> req;
  req.pk = &pk;
  req.cs = &cs;
  req.witness = *w;
  req.options.self_verify = false;          // verified below, with a message that fits what we know
  req.options.check_satisfied = !a.r1cs.empty();  // names the failing constraint (a zkey has no C matrix)
  run.progress("proving " + std::string(Family::name) + " on the " + std::string(backend->name()) + " backend: " +
               count_text(cs.num_constraints(), "constraints") + ", " + count_text(pk.n_vars, "variables") +
               ", domain " + std::to_string(pk.domain_size));
  auto out = groth16::prove(*backend, req);
  if (!out.ok()) return run.fail(out.error().with_context("proving with " + a.witness));
  run.add_prover_timings(out->timings);

  const std::span<const fr> pub = std::span<const fr>(*w).subspan(1, pk.n_public());
  if (!a.no_verify) {
    const status v = run.step("verify", "verifying the proof", [&] { return groth16::verify_unchecked(pk.vk, pub, out->pi); });
    if (!v.ok()) {
      return run.fail("the proof does not verify (" + v.message() + "), nothing written: " +
                      (!a.r1cs.empty() ? std::string("the witness satisfies the circuit, so the key does not match it")
                                       : std::string("the witness does not satisfy the circuit or belongs to another one "
                                                     "(pass --r1cs circuit.r1cs to name the failing constraint)")));
    }
  }

  // Staged together: when either path is refused, neither file is written.
  const status written = run.step("write", "writing " + a.proof + " and " + a.pub, [&]() -> status {
    std::string proof_text;
    std::array<uint8_t, formats::bellperson_proof_size> proof_bytes{};
    std::span<const uint8_t> proof;
    if constexpr (is_bls12_381<Family>) {
      if (a.proof_format == "bellperson") {
        proof_bytes = formats::write_bellperson_proof(out->pi);
        proof = proof_bytes;
      }
    }
    if (a.proof_format != "bellperson") {
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

int run_prove(const prove_args& a, bool quiet) {
  command_run run("prove", quiet);
  const bool bellperson = a.params_format == "bellperson";
  if (bellperson && a.r1cs.empty()) {
    return run.fail("--params-format bellperson needs --r1cs circuit.r1cs: bellperson parameters do not carry "
                    "the circuit's matrices");
  }
  // bellperson parameters are BLS12-381's; a zkey says its curve in its header.
  ec::curve_id curve = ec::curve_id::bls12_381;
  if (!bellperson) {
    auto c = formats::read_snarkjs_zkey_curve_file(a.key);
    if (!c.ok()) return run.fail(c.error());
    curve = *c;
  }
  return ec::visit_curve(curve, [&]<class Family>() { return prove_with<Family>(a, run); });
}

}  // namespace

void add_prove_command(CLI::App& app, cli_state& state) {
  auto args = std::make_shared<prove_args>();
  auto* cmd = app.add_subcommand("prove", "prove with a key and a witness (as rapidsnark / snarkjs groth16 prove)");
  cmd->add_option("key", args->key, "proving key: snarkjs .zkey, BLS12-381 or BN254 (or bellperson parameters)")->required();
  cmd->add_option("witness", args->witness, "witness .wtns (circom / snarkjs wtns calculate), of the key's curve")->required();
  cmd->add_option("proof", args->proof, "proof output: proof.json (or the 192-byte bellperson proof)")->required();
  cmd->add_option("public", args->pub, "public signals output: public.json")->required();
  cmd->add_option("--backend", args->backend,
                  "cpu (default), cuda (BLS12-381 keys), or auto (cuda when a GPU is present and the key is BLS12-381's)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  cmd->add_option("--params-format", args->params_format, "key layout (bellperson: BLS12-381)")
      ->check(CLI::IsMember({"snarkjs", "bellperson"}))
      ->capture_default_str();
  cmd->add_option("--r1cs", args->r1cs,
                  "the circuit's .r1cs: required for bellperson parameters; with a zkey it names an unsatisfied "
                  "constraint");
  cmd->add_option("--proof-format", args->proof_format, "proof output layout (bellperson: BLS12-381)")
      ->check(CLI::IsMember({"snarkjs", "bellperson"}))
      ->capture_default_str();
  cmd->add_flag("--no-verify", args->no_verify, "skip verifying the proof before writing it");
  cmd->callback([&state, args] { state.exit_code = run_prove(*args, state.quiet); });
}

}  // namespace pp::cli
