// `proofpipe demo`: the whole job on a built-in circuit, in memory: a chain of multiplications
// v_i = v_(i-1) (v_(i-1) + x_j) with public inputs x and a public output y, an INSECURE setup,
// a proof on the CPU backend, verification (and rejection of a tampered public input), then the
// timing table. --out DIR also writes the circuit, witness, key, vk, proof and public signals in
// circom / snarkjs formats, so `snarkjs groth16 verify` can check the result. --curve picks the
// family (BLS12-381, the default, or BN254; the bellperson layout is BLS12-381's).
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "core/status_macros.hpp"
#include "ec/curve_id.hpp"
#include "formats/key_circuit.hpp"
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
  std::string curve = "bls12381";
  std::string out;
};

template <class Fr>
struct demo_circuit {
  r1cs::basic_constraint_system<Fr> cs;
  std::vector<Fr> w;
};

// Public variables: y (the output), then x_1..x_k. Aux: v_0..v_(n-2).
// x_1 x_2 = v_0; v_(i-1) (v_(i-1) + x_(1 + i mod k)) = v_i; v_(n-2) * 1 = y.
template <class Fr>
result<demo_circuit<Fr>> make_chain(uint64_t n, uint64_t k) {
  using term = r1cs::basic_term<Fr>;
  const uint64_t num_aux = n - 1;
  r1cs::basic_constraint_system_builder<Fr> b(k + 1, num_aux);
  b.reserve(n, 2);
  std::vector<Fr> w(1 + (k + 1) + num_aux);
  const Fr one = Fr::one();
  w[0] = one;
  for (uint64_t j = 0; j < k; ++j) w[b.public_var(1 + j)] = Fr::from_uint(3 + 2 * j);
  auto x = [&](uint64_t j) { return b.public_var(1 + j); };
  auto v = [&](uint64_t i) { return b.aux_var(i); };
  {
    const term ta[] = {{x(0), one}}, tb[] = {{x(1 % k), one}}, tc[] = {{v(0), one}};
    PP_RETURN_IF_ERROR(b.add_constraint(ta, tb, tc));
    w[v(0)] = w[x(0)] * w[x(1 % k)];
  }
  for (uint64_t i = 1; i < num_aux; ++i) {
    const uint32_t xi = x(i % k);
    const term ta[] = {{v(i - 1), one}}, tb[] = {{v(i - 1), one}, {xi, one}}, tc[] = {{v(i), one}};
    PP_RETURN_IF_ERROR(b.add_constraint(ta, tb, tc));
    w[v(i)] = w[v(i - 1)] * (w[v(i - 1)] + w[xi]);
  }
  {
    const term ta[] = {{v(num_aux - 1), one}}, tb[] = {{r1cs::basic_constraint_system_builder<Fr>::one(), one}},
               tc[] = {{b.public_var(0), one}};
    PP_RETURN_IF_ERROR(b.add_constraint(ta, tb, tc));
    w[b.public_var(0)] = w[v(num_aux - 1)];
  }
  PP_ASSIGN_OR_RETURN(r1cs::basic_constraint_system<Fr> cs, std::move(b).build());
  return demo_circuit<Fr>{std::move(cs), std::move(w)};
}

template <class Family>
status write_demo_files(const std::filesystem::path& dir, const demo_circuit<typename Family::fr>& c,
                        groth16::basic_proving_key<Family>& pk, const groth16::basic_proof<Family>& pi,
                        std::span<const typename Family::fr> pub) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return unavailable("creating " + dir.string() + ": " + ec.message());
  PP_RETURN_IF_ERROR(formats::write_circom_r1cs_file(formats::make_circom_r1cs(c.cs), dir / "circuit.r1cs"));
  PP_RETURN_IF_ERROR(formats::write_circom_wtns_file(c.w, dir / "witness.wtns"));
  bool written = false;
  if constexpr (std::is_same_v<Family, ec::bls12_381::family>) {
    if (pk.basis == groth16::h_basis::monomial) {
      PP_RETURN_IF_ERROR(formats::write_bellperson_params_file(pk, dir / "circuit.params"));
      written = true;
    }
  }
  if (!written) {
    formats::basic_snarkjs_zkey<Family> z;
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

template <class Family>
int demo_with(const demo_args& a, command_run& run, bool quiet) {
  using fr = typename Family::fr;
  auto c = run.step("circuit", "building a chain of " + std::to_string(a.constraints) + " multiplications with " +
                                   std::to_string(a.inputs + 1) + " public values over " + Family::name,
                    [&] { return make_chain<fr>(a.constraints, a.inputs); });
  if (!c.ok()) return run.fail(c.error());
  {
    const status s = run.step("satisfaction check", "checking the witness", [&] { return r1cs::check_satisfied(c->cs, c->w); });
    if (!s.ok()) return run.fail(s.with_context("demo circuit"));
  }
  std::fprintf(stderr, "proofpipe demo: WARNING: INSECURE setup from random toxic waste (demo keys only)\n");
  const groth16::h_basis basis =
      a.layout == "bellperson" ? groth16::h_basis::monomial : groth16::h_basis::odd_coset_lagrange;
  auto pk = run.step("setup (insecure)", "generating " + a.layout + " keys",
                     [&] { return groth16::setup_insecure<Family>(c->cs, basis, groth16::random_toxic_waste_insecure<fr>()); });
  if (!pk.ok()) return run.fail(pk.error());

  groth16::basic_cpu_backend<Family> backend;
  groth16::basic_prove_request<Family> req;
  req.pk = &*pk;
  req.cs = &c->cs;
  req.witness = c->w;
  req.options.self_verify = false;  // the demo verifies as its own step
  run.progress("proving on the cpu backend (domain " + std::to_string(pk->domain_size) + ")");
  auto out = groth16::prove(backend, req);
  if (!out.ok()) return run.fail(out.error().with_context("proving"));
  run.add_prover_timings(out->timings);

  const std::span<const fr> pub = std::span<const fr>(c->w).subspan(1, pk->n_public());
  const status v = run.step("verify", "verifying the proof", [&] { return groth16::verify(pk->vk, pub, out->pi); });
  if (!v.ok()) return run.fail(v.with_context("the demo proof does not verify"));
  std::vector<fr> tampered(pub.begin(), pub.end());
  tampered[0] += fr::one();
  const status t = run.step("verify (tampered)", "verifying it against a wrong public output",
                            [&] { return groth16::verify(pk->vk, tampered, out->pi); });
  if (t.ok()) return run.fail("the proof verified against a wrong public output");

  if (!a.out.empty()) {
    const status s = run.step("write files", "writing circuit, witness, key and proof to " + a.out,
                              [&] { return write_demo_files<Family>(a.out, *c, *pk, out->pi, pub); });
    if (!s.ok()) return run.fail(s);
  }
  if (!quiet) {
    std::printf("proof verifies: yes; tampered public output rejected: yes (%llu constraints, %s layout, %s)\n",
                static_cast<unsigned long long>(c->cs.num_constraints()), a.layout.c_str(), Family::name);
  }
  run.print_table();
  return 0;
}

int run_demo(const demo_args& a, bool quiet) {
  command_run run("demo", quiet);
  if (a.constraints < 3) return run.fail("--constraints must be at least 3");
  const ec::curve_id curve = a.curve == "bn254" ? ec::curve_id::bn254 : ec::curve_id::bls12_381;
  if (curve != ec::curve_id::bls12_381 && a.layout == "bellperson") {
    return run.fail("--layout bellperson: bellperson parameters are BLS12-381's (use --curve bls12381)");
  }
  return ec::visit_curve(curve, [&]<class Family>() { return demo_with<Family>(a, run, quiet); });
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
  cmd->add_option("--curve", args->curve, "curve: bls12381 or bn254 (circom's bn128)")
      ->check(CLI::IsMember({"bls12381", "bn254"}))
      ->capture_default_str();
  cmd->add_option("--out", args->out, "also write circuit.r1cs, witness.wtns, the key, vk, proof and public.json here");
  cmd->callback([&state, args] { state.exit_code = run_demo(*args, state.quiet); });
}

}  // namespace pp::cli
