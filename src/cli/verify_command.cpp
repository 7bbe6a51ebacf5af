// `proofpipe verify <verification_key.json> <public.json> <proof.json>`: the arguments of
// `snarkjs groth16 verify`. Prints OK and exits 0 only for a valid proof; otherwise prints
// INVALID with the reason (or the reading error) and exits 1. --proof-format bellperson reads the
// 192-byte bellperson proof instead of proof.json.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/command_run.hpp"
#include "cli/commands.hpp"
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

result<groth16::proof> read_proof(const verify_args& a) {
  if (a.proof_format != "bellperson") return formats::read_snarkjs_proof_json_file(a.proof);
  auto f = formats::mapped_file::open(a.proof);
  if (!f.ok()) return f.error();
  auto p = formats::read_bellperson_proof(f->bytes());
  if (!p.ok()) return p.error().with_context("reading " + a.proof);
  return p;
}

int run_verify(const verify_args& a, bool quiet) {
  command_run run("verify", quiet);
  auto vk = run.step("read key", "reading " + a.vk, [&] { return formats::read_snarkjs_vk_json_file(a.vk); });
  if (!vk.ok()) return run.fail(vk.error());
  auto pub = run.step("read public", "reading " + a.pub, [&] { return formats::read_snarkjs_public_json_file(a.pub); });
  if (!pub.ok()) return run.fail(pub.error());
  auto pi = run.step("read proof", "reading " + a.proof, [&] { return read_proof(a); });
  if (!pi.ok()) {
    std::printf("INVALID: %s\n", pi.error().message().c_str());
    return 1;
  }
  const status v = run.step("verify", "checking the pairing equation", [&] { return groth16::verify(*vk, *pub, *pi); });
  if (!v.ok()) {
    std::printf("INVALID: %s\n", v.message().c_str());
    run.print_table();
    return 1;
  }
  std::printf("OK\n");
  run.print_table();
  return 0;
}

}  // namespace

void add_verify_command(CLI::App& app, cli_state& state) {
  auto args = std::make_shared<verify_args>();
  auto* cmd = app.add_subcommand("verify", "verify a proof (as snarkjs groth16 verify); exit 0 only when valid");
  cmd->add_option("verification_key", args->vk, "verification_key.json (snarkjs layout)")->required();
  cmd->add_option("public", args->pub, "public.json")->required();
  cmd->add_option("proof", args->proof, "proof.json (or the 192-byte bellperson proof)")->required();
  cmd->add_option("--proof-format", args->proof_format, "proof layout")
      ->check(CLI::IsMember({"snarkjs", "bellperson"}))
      ->capture_default_str();
  cmd->callback([&state, args] { state.exit_code = run_verify(*args, state.quiet); });
}

}  // namespace pp::cli
