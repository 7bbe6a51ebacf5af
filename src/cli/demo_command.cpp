// `proofpipe demo`: the whole job on a built-in circuit, in memory: a chain of multiplications
// v_i = v_(i-1) (v_(i-1) + x_j) with public inputs x and a public output y, an INSECURE setup,
// a proof on the CPU backend, verification (and rejection of a tampered public input), then the
// timing table. --out DIR also writes the circuit, witness, key, vk, proof and public signals in
// circom / snarkjs formats, so `snarkjs groth16 verify` can check the result.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "formats/key_circuit.hpp"
#include "core/status_macros.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/circom_r1cs.hpp"
#include "formats/circom_wtns.hpp"
#include "formats/snarkjs_json.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/constraint_system_builder.hpp"
#include "r1cs/satisfaction.hpp"

namespace pp::cli {
namespace {

struct demo_args {
  uint64_t constraints = 4000;  // with 4 public inputs the QAP fits a 2^12 domain
  uint64_t inputs = 3;          // public inputs x_1..x_k; the output y is public too
  std::string layout = "snarkjs";
  std::string out;
};

struct demo_circuit {
  r1cs::constraint_system cs;
  std::vector<ff::fr> w;
};

// Public variables: y (the output), then x_1..x_k. Aux: v_0..v_(n-2).
// x_1 x_2 = v_0; v_(i-1) (v_(i-1) + x_(1 + i mod k)) = v_i; v_(n-2) * 1 = y.
result<demo_circuit> make_chain(uint64_t n, uint64_t k) {
  const uint64_t num_aux = n - 1;
  r1cs::constraint_system_builder b(k + 1, num_aux);
  b.reserve(n, 2);
  std::vector<ff::fr> w(1 + (k + 1) + num_aux);
  const ff::fr one = ff::fr::one();
  w[0] = one;
  for (uint64_t j = 0; j < k; ++j) w[b.public_var(1 + j)] = ff::fr::from_uint(3 + 2 * j);
  auto x = [&](uint64_t j) { return b.public_var(1 + j); };
  auto v = [&](uint64_t i) { return b.aux_var(i); };
  {
    const r1cs::term ta[] = {{x(0), one}}, tb[] = {{x(1 % k), one}}, tc[] = {{v(0), one}};
    PP_RETURN_IF_ERROR(b.add_constraint(ta, tb, tc));
    w[v(0)] = w[x(0)] * w[x(1 % k)];
  }
  for (uint64_t i = 1; i < num_aux; ++i) {
    const uint32_t xi = x(i % k);
    const r1cs::term ta[] = {{v(i - 1), one}}, tb[] = {{v(i - 1), one}, {xi, one}}, tc[] = {{v(i), one}};
    PP_RETURN_IF_ERROR(b.add_constraint(ta, tb, tc));
    w[v(i)] = w[v(i - 1)] * (w[v(i - 1)] + w[xi]);
  }
  {
    const r1cs::term ta[] = {{v(num_aux - 1), one}}, tb[] = {{r1cs::constraint_system_builder::one(), one}},
                     tc[] = {{b.public_var(0), one}};
    PP_RETURN_IF_ERROR(b.add_constraint(ta, tb, tc));
    w[b.public_var(0)] = w[v(num_aux - 1)];
  }
  PP_ASSIGN_OR_RETURN(r1cs::constraint_system cs, std::move(b).build());
  return demo_circuit{std::move(cs), std::move(w)};
}

status write_demo_files(const std::filesystem::path& dir, const demo_circuit& c, groth16::proving_key& pk,
                        const groth16::proof& pi, std::span<const ff::fr> pub) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return unavailable("creating " + dir.string() + ": " + ec.message());
  PP_RETURN_IF_ERROR(formats::write_circom_r1cs_file(formats::make_circom_r1cs(c.cs), dir / "circuit.r1cs"));
  PP_RETURN_IF_ERROR(formats::write_circom_wtns_file(c.w, dir / "witness.wtns"));
  if (pk.basis == groth16::h_basis::monomial) {
    PP_RETURN_IF_ERROR(formats::write_bellperson_params_file(pk, dir / "circuit.params"));
  } else {
    formats::snarkjs_zkey z;
    z.coefficients = formats::zkey_coefficients(c.cs);
    z.pk = std::move(pk);
    const status s = formats::write_snarkjs_zkey_file(z, dir / "circuit.zkey");
    pk = std::move(z.pk);
    PP_RETURN_IF_ERROR(s);
  }
  PP_RETURN_IF_ERROR(formats::write_text_file(dir / "verification_key.json", formats::write_snarkjs_vk_json(pk.vk)));
  PP_RETURN_IF_ERROR(formats::write_text_file(dir / "proof.json", formats::write_snarkjs_proof_json(pi)));
  return formats::write_text_file(dir / "public.json", formats::write_snarkjs_public_json(pub));
}

int run_demo(const demo_args& a, bool quiet) {
  command_run run("demo", quiet);
  if (a.constraints < 3) return run.fail("--constraints must be at least 3");
  auto c = run.step("circuit", "building a chain of " + std::to_string(a.constraints) + " multiplications with " +
                                   std::to_string(a.inputs + 1) + " public values",
                    [&] { return make_chain(a.constraints, a.inputs); });
  if (!c.ok()) return run.fail(c.error());
  {
    const status s = run.step("satisfaction check", "checking the witness", [&] { return r1cs::check_satisfied(c->cs, c->w); });
    if (!s.ok()) return run.fail(s.with_context("demo circuit"));
  }
  std::fprintf(stderr, "proofpipe demo: WARNING: INSECURE setup from random toxic waste (demo keys only)\n");
  const groth16::h_basis basis =
      a.layout == "bellperson" ? groth16::h_basis::monomial : groth16::h_basis::odd_coset_lagrange;
  auto pk = run.step("setup (insecure)", "generating " + a.layout + " keys",
                     [&] { return groth16::setup_insecure(c->cs, basis, groth16::random_toxic_waste_insecure()); });
  if (!pk.ok()) return run.fail(pk.error());

  groth16::cpu_backend backend;
  groth16::prove_request req;
  req.pk = &*pk;
  req.cs = &c->cs;
  req.witness = c->w;
  req.options.self_verify = false;  // the demo verifies as its own step
  run.progress("proving on the cpu backend (domain " + std::to_string(pk->domain_size) + ")");
  auto out = groth16::prove(backend, req);
  if (!out.ok()) return run.fail(out.error().with_context("proving"));
  run.add_prover_timings(out->timings);

  const std::span<const ff::fr> pub = std::span<const ff::fr>(c->w).subspan(1, pk->n_public());
  const status v = run.step("verify", "verifying the proof", [&] { return groth16::verify(pk->vk, pub, out->pi); });
  if (!v.ok()) return run.fail(v.with_context("the demo proof does not verify"));
  std::vector<ff::fr> tampered(pub.begin(), pub.end());
  tampered[0] += ff::fr::one();
  const status t = run.step("verify (tampered)", "verifying it against a wrong public output",
                            [&] { return groth16::verify(pk->vk, tampered, out->pi); });
  if (t.ok()) return run.fail("the proof verified against a wrong public output");

  if (!a.out.empty()) {
    const status s = run.step("write files", "writing circuit, witness, key and proof to " + a.out,
                              [&] { return write_demo_files(a.out, *c, *pk, out->pi, pub); });
    if (!s.ok()) return run.fail(s);
  }
  if (!quiet) {
    std::printf("proof verifies: yes; tampered public output rejected: yes (%llu constraints, %s layout)\n",
                static_cast<unsigned long long>(c->cs.num_constraints()), a.layout.c_str());
  }
  run.print_table();
  return 0;
}

}  // namespace

void add_demo_command(CLI::App& app, cli_state& state) {
  auto args = std::make_shared<demo_args>();
  auto* cmd = app.add_subcommand("demo", "setup (insecure), prove and verify a built-in circuit, with timings");
  cmd->add_option("--constraints", args->constraints, "constraints in the multiplication chain")
      ->check(CLI::Range(uint64_t{3}, uint64_t{1} << 26))
      ->capture_default_str();
  cmd->add_option("--inputs", args->inputs, "public inputs (plus one public output)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1000}))
      ->capture_default_str();
  cmd->add_option("--layout", args->layout, "key layout")
      ->check(CLI::IsMember({"snarkjs", "bellperson"}))
      ->capture_default_str();
  cmd->add_option("--out", args->out, "also write circuit.r1cs, witness.wtns, the key, vk, proof and public.json here");
  cmd->callback([&state, args] { state.exit_code = run_demo(*args, state.quiet); });
}

}  // namespace pp::cli
