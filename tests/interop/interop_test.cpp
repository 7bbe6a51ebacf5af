// proofpipe against snarkjs 0.7.6 and circom 2 (label oracle), through the `proofpipe` command:
// circuits compiled from tests/fixtures/circuits/*.circom with -p bls12381; snarkjs verifies our
// proofs (keys from a power-8 ceremony or from `proofpipe setup`), we verify snarkjs's, public.json
// matches byte for byte, tampering is rejected by both; the bellperson layout end to end; bad input
// gives exit code 1 and a clear message. Exits 77 (ctest: skipped) without node or
// tools/oracle/node_modules. Scratch files stay in <build>/interop_work.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "formats/bellperson_params.hpp"
#include "formats/circom_wtns.hpp"
#include "formats/mapped_file.hpp"
#include "interop/interop_support.hpp"
#include "support/files.hpp"
#include "support/status_matchers.hpp"

namespace {

namespace fs = std::filesystem;
using pp::IsOk;
using namespace pp::interop;

// Everything the tests share: three circuits, their witnesses, a power-8 ceremony, snarkjs keys
// for the two small circuits and a proofpipe key for the Poseidon Merkle path (~1k constraints,
// past what a power-8 ptau covers).
class Interop : public ::testing::Environment {
 public:
  void SetUp() override {
    fs::remove_all(g_work);
    fs::create_directories(g_work);
    const std::string cd = "cd " + g_work.string() + " && ";
    if (!compile("poly", "bls12381") || !compile("range", "bls12381") || !compile("merkle", "bls12381")) return;
    if (!snarkjs_ceremony_keys("bls12381", {"poly", "range"})) return;
    if (!step("proofpipe setup merkle", proofpipe() + " setup " + w("merkle/merkle.r1cs") + " " + w("merkle/merkle.zkey"))) return;
    for (const std::string c : {"poly", "range", "merkle"}) {
      if (!step("export vk " + c, cd + snarkjs() + " zkey export verificationkey " + c + "/" + c + ".zkey " + c + "/vk.json")) {
        return;
      }
    }
  }
};

class PerCircuit : public per_circuit_test {};

// Ours -> snarkjs: snarkjs verifies our proof; our public.json is snarkjs's byte for byte.
TEST_P(PerCircuit, SnarkjsVerifiesOurProof) { expect_snarkjs_verifies_our_proof(c()); }

// snarkjs -> ours: our verifier accepts snarkjs's proof.
TEST_P(PerCircuit, WeVerifySnarkjsProof) {
  ASSERT_EQ(run(snarkjs() + " groth16 prove " + zkey() + " " + wtns() + " " + f("sj2_proof.json") + " " + f("sj2_public.json")).code, 0);
  const run_result o = run(proofpipe() + " verify " + f("vk.json") + " " + f("sj2_public.json") + " " + f("sj2_proof.json"));
  EXPECT_EQ(o.code, 0) << o.output;
  EXPECT_EQ(o.output, "OK\n");
}

// A wrong public value and a proof with a swapped point are rejected by both verifiers.
TEST_P(PerCircuit, TamperingIsRejectedByBoth) {
  ASSERT_EQ(run(proofpipe() + " prove " + zkey() + " " + wtns() + " " + f("t_proof.json") + " " + f("t_public.json")).code, 0);
  expect_tampering_rejected_by_both(c(), "t_public.json", "t_proof.json");
}

// A key from `proofpipe setup` (snarkjs layout, with its own vk) works with both provers and verifiers.
TEST_P(PerCircuit, ProofpipeSetupKeyWorksWithSnarkjs) {
  ASSERT_EQ(run(proofpipe() + " setup " + f(c() + ".r1cs") + " " + f("pp.zkey") + " --vk " + f("pp_vk.json")).code, 0);
  ASSERT_EQ(run(proofpipe() + " prove " + f("pp.zkey") + " " + wtns() + " " + f("pp_proof.json") + " " + f("pp_public.json")).code, 0);
  EXPECT_EQ(run(snarkjs() + " groth16 verify " + f("pp_vk.json") + " " + f("pp_public.json") + " " + f("pp_proof.json")).code, 0);
  ASSERT_EQ(run(snarkjs() + " groth16 prove " + f("pp.zkey") + " " + wtns() + " " + f("pp_sj_proof.json") + " " + f("pp_sj_public.json")).code, 0);
  EXPECT_EQ(run(proofpipe() + " verify " + f("pp_vk.json") + " " + f("pp_sj_public.json") + " " + f("pp_sj_proof.json")).code, 0);
  ASSERT_EQ(run(snarkjs() + " zkey export verificationkey " + f("pp.zkey") + " " + f("pp_vk_sj.json")).code, 0);
  EXPECT_EQ(slurp(f("pp_vk_sj.json")), slurp(f("pp_vk.json")));
}

INSTANTIATE_TEST_SUITE_P(Circuits, PerCircuit, ::testing::Values("poly", "range", "merkle"));

class Oracle : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(g_setup_failure.empty()) << g_setup_failure; }
};

// bellperson layout: setup, prove (192-byte proof and proof.json), verify with ours and snarkjs;
// the parameter file reads and writes back byte for byte.
TEST_F(Oracle, BellpersonLayout) {
  const std::string r1cs = w("merkle/merkle.r1cs"), wt = w("merkle/merkle.wtns");
  ASSERT_EQ(run(proofpipe() + " setup --layout bellperson " + r1cs + " " + w("merkle/bp.params") + " --vk " + w("merkle/bp_vk.json")).code, 0);
  const run_result p = run(proofpipe() + " prove --params-format bellperson --r1cs " + r1cs + " --proof-format bellperson " +
                           w("merkle/bp.params") + " " + wt + " " + w("merkle/bp.proof") + " " + w("merkle/bp_public.json"));
  ASSERT_EQ(p.code, 0) << p.output;
  EXPECT_EQ(fs::file_size(w("merkle/bp.proof")), 192u);
  const run_result v = run(proofpipe() + " verify --proof-format bellperson " + w("merkle/bp_vk.json") + " " +
                           w("merkle/bp_public.json") + " " + w("merkle/bp.proof"));
  EXPECT_EQ(v.code, 0) << v.output;
  // The same key through proof.json: snarkjs checks a bellperson-layout proof too (gamma != G2 here).
  ASSERT_EQ(run(proofpipe() + " prove --params-format bellperson --r1cs " + r1cs + " " + w("merkle/bp.params") + " " + wt +
                " " + w("merkle/bp_proof.json") + " " + w("merkle/bp_public2.json")).code, 0);
  EXPECT_EQ(run(snarkjs() + " groth16 verify " + w("merkle/bp_vk.json") + " " + w("merkle/bp_public2.json") + " " +
                w("merkle/bp_proof.json")).code, 0);
  // Without the circuit, or with another circuit, the parameters are refused.
  const run_result no_r1cs = run(proofpipe() + " prove --params-format bellperson " + w("merkle/bp.params") + " " + wt + " x y");
  EXPECT_EQ(no_r1cs.code, 1);
  EXPECT_NE(no_r1cs.output.find("--r1cs"), std::string::npos) << no_r1cs.output;
  const run_result other = run(proofpipe() + " prove --params-format bellperson --r1cs " + w("poly/poly.r1cs") + " " +
                               w("merkle/bp.params") + " " + w("poly/poly.wtns") + " x y");
  EXPECT_EQ(other.code, 1);
  EXPECT_NE(other.output.find("another circuit"), std::string::npos) << other.output;

  const auto file = pp::formats::mapped_file::open(w("merkle/bp.params"));
  ASSERT_THAT(file, IsOk());
  const auto pk = pp::formats::read_bellperson_params(file->bytes());
  ASSERT_THAT(pk, IsOk());
  const auto again = pp::formats::write_bellperson_params(*pk);
  ASSERT_THAT(again, IsOk());
  EXPECT_TRUE(std::equal(again->begin(), again->end(), file->bytes().begin(), file->bytes().end()));
}

// Bad input: exit code 1 (never a crash; `verify` that cannot judge exits 2, README "Exit codes")
// and a message naming the problem.
TEST_F(Oracle, BadInputThroughTheCli) {
  auto expect_fail = [](const std::string& cmd, const std::string& needle, int code = 1) {
    const run_result r = run(cmd);
    EXPECT_EQ(r.code, code) << cmd << "\n" << r.output;
    EXPECT_NE(r.output.find(needle), std::string::npos) << "expected '" << needle << "' in: " << r.output;
    EXPECT_NE(r.output.find("proofpipe "), std::string::npos) << r.output;
  };
  const std::string zk = w("poly/poly.zkey"), wt = w("poly/poly.wtns"), out = w("bad_proof.json") + " " + w("bad_public.json");
  {  // truncated zkey
    const std::string z = slurp(zk);
    std::ofstream(w("truncated.zkey"), std::ios::binary) << z.substr(0, z.size() / 2);
    expect_fail(proofpipe() + " prove " + w("truncated.zkey") + " " + wt + " " + out, "truncated.zkey");
  }
  // a witness of another circuit
  expect_fail(proofpipe() + " prove " + zk + " " + w("range/range.wtns") + " " + out, "another circuit");
  {  // an unsatisfied witness: with the r1cs the constraint is named, without it the proof fails to verify
    auto wit = pp::formats::read_circom_wtns_file(wt);
    ASSERT_THAT(wit, IsOk());
    (*wit)[wit->size() - 1] += pp::ff::fr::one();
    ASSERT_THAT(pp::formats::write_circom_wtns_file(*wit, w("unsat.wtns")), IsOk());
    expect_fail(proofpipe() + " prove --r1cs " + w("poly/poly.r1cs") + " " + zk + " " + w("unsat.wtns") + " " + out,
                "is not satisfied");
    expect_fail(proofpipe() + " prove " + zk + " " + w("unsat.wtns") + " " + out, "does not verify");
    EXPECT_FALSE(fs::exists(w("bad_proof.json")));
  }
  // a BN254 circuit with the bellperson layout (BLS12-381's); BN254 files with BLS12-381 keys are
  // interop_bn254_test's
  ASSERT_TRUE(compile("poly", "bn128", "poly_bn254", false)) << g_setup_failure;
  expect_fail(proofpipe() + " setup --layout bellperson " + w("poly_bn254/poly.r1cs") + " " + w("bn.params"),
              "bellperson parameters are BLS12-381's");
  // nonexistent files
  expect_fail(proofpipe() + " prove " + w("missing.zkey") + " " + wt + " " + out, "missing.zkey");
  expect_fail(proofpipe() + " prove " + zk + " " + w("missing.wtns") + " " + out, "missing.wtns");
  expect_fail(proofpipe() + " setup " + w("missing.r1cs") + " " + w("x.zkey"), "missing.r1cs");
  expect_fail(proofpipe() + " verify " + w("missing.json") + " " + w("poly/sj_public.json") + " " + w("poly/sj_proof.json"),
              "missing.json", 2);
}

// `proofpipe demo --out` writes files snarkjs accepts, and snarkjs proves with the demo's key.
TEST_F(Oracle, DemoFilesWorkWithSnarkjs) { expect_demo_files_work_with_snarkjs("", "demo"); }

}  // namespace

int main(int argc, char** argv) {
  return pp::interop::interop_main(argc, argv, "interop_work", new Interop);
}
