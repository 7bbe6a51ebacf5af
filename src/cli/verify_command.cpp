// `proofpipe verify <verification_key.json> <public.json> <proof.json>`: the arguments of
// `snarkjs groth16 verify`. Prints OK and exits 0 only for a valid proof; prints INVALID with the
// reason and exits 1 when the proof is malformed or fails the pairing check; exits 2 with the
// reading error when it cannot judge (a file missing or unreadable, a malformed key or public.json).
// --proof-format bellperson reads the 192-byte bellperson proof instead of proof.json (BLS12-381).
// The curve (BLS12-381 or BN254) is the verification key's "curve", dispatched once; a proof for
// another curve is INVALID, naming both.
#include <cstdio>
#include <memory>
#include <string>
#include <type_traits>

#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "ec/curve_id.hpp"
#include "formats/bellperson_proof.hpp"
#include "formats/mapped_file.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/verifier.hpp"

namespace pp::cli {
namespace {

struct verify_args {
  std::string vk, pub, proof;
  std::string proof_format = "snarkjs";
};

// The file's bytes, or the status of a file that cannot be read at all (missing, unreadable, not
// a regular file): that is "cannot verify", while bytes that are not a proof make the proof invalid.
result<std::string> read_proof_bytes(const std::string& path) {
  return formats::read_mapped(path, [](std::span<const uint8_t> b) -> result<std::string> {
    return std::string(reinterpret_cast<const char*>(b.data()), b.size());
  });
}

template <class Family>
result<groth16::basic_proof<Family>> parse_proof(const verify_args& a, const std::string& bytes) {
  if constexpr (std::is_same_v<Family, ec::bls12_381::family>) {
    if (a.proof_format == "bellperson") {
      auto p = formats::read_bellperson_proof(std::span(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()));
      if (!p.ok()) return p.error().with_context("reading " + a.proof);
      return p;
    }
  }
  auto p = formats::read_snarkjs_proof_json<Family>(bytes);
  if (!p.ok()) return p.error().with_context("reading " + a.proof);
  return p;
}

template <class Family>
int verify_with(const verify_args& a, command_run& run) {
  if (!std::is_same_v<Family, ec::bls12_381::family> && a.proof_format == "bellperson") {
    return run.fail(invalid_argument("--proof-format bellperson: bellperson proofs are BLS12-381's, " + a.vk +
                                     " is for " + std::string(Family::name)),
                    exit_cannot_verify);
  }
  auto vk = run.step("read key", "reading " + a.vk, [&] { return formats::read_snarkjs_vk_json_file<Family>(a.vk); });
  if (!vk.ok()) return run.fail(vk.error(), exit_cannot_verify);
  auto pub = run.step("read public", "reading " + a.pub,
                      [&] { return formats::read_snarkjs_public_json_file<typename Family::fr>(a.pub); });
  if (!pub.ok()) return run.fail(pub.error(), exit_cannot_verify);
  auto bytes = run.step("read proof", "reading " + a.proof, [&] { return read_proof_bytes(a.proof); });
  if (!bytes.ok()) return run.fail(bytes.error(), exit_cannot_verify);
  auto pi = parse_proof<Family>(a, *bytes);
  if (!pi.ok()) {
    std::printf("INVALID: %s\n", pi.error().message().c_str());
    return exit_failure;
  }
  const status v = run.step("verify", "checking the pairing equation", [&] { return groth16::verify(*vk, *pub, *pi); });
  if (!v.ok()) {
    std::printf("INVALID: %s\n", v.message().c_str());
    run.print_table();
    return exit_failure;
  }
  std::printf("OK\n");
  run.print_table();
  return exit_ok;
}

int run_verify(const verify_args& a, bool quiet) {
  command_run run("verify", quiet);
  auto curve = formats::read_snarkjs_json_curve_file(a.vk);
  if (!curve.ok()) return run.fail(curve.error(), exit_cannot_verify);
  return ec::visit_curve(*curve, [&]<class Family>() { return verify_with<Family>(a, run); });
}

}  // namespace

void add_verify_command(CLI::App& app, cli_state& state) {
  auto args = std::make_shared<verify_args>();
  auto* cmd = app.add_subcommand("verify", "verify a proof (as snarkjs groth16 verify); exit 0 only when valid");
  cmd->add_option("verification_key", args->vk, "verification_key.json (snarkjs layout, bls12381 or bn128)")->required();
  cmd->add_option("public", args->pub, "public.json")->required();
  cmd->add_option("proof", args->proof, "proof.json (or the 192-byte BLS12-381 bellperson proof)")->required();
  cmd->add_option("--proof-format", args->proof_format, "proof layout")
      ->check(CLI::IsMember({"snarkjs", "bellperson"}))
      ->capture_default_str();
  cmd->callback([&state, args] { state.exit_code = run_verify(*args, state.quiet); });
}

}  // namespace pp::cli
