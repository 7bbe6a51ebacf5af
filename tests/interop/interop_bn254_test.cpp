// proofpipe against snarkjs 0.7.6 and circom 2 over BN254 (label oracle), through the `proofpipe`
// command: circomlib circuits compiled with circom2 -p bn128 (circom's default prime) from
// tests/fixtures/circuits: poly and range with keys from a bn128 power-8 ceremony, the Poseidon
// Merkle inclusion proof and SHA-256 of 64 bytes (~59k constraints) with keys from `proofpipe setup`.
// snarkjs verifies our proofs and our public.json is snarkjs's byte for byte, we verify snarkjs's
// proofs and reject tampered ones; BN254 and BLS12-381 files mixed are refused naming both curves.
// Exits 77 (ctest: skipped) without node or tools/oracle/node_modules. Scratch files stay in
// <build>/interop_bn254_work.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "interop/interop_support.hpp"
#include "support/files.hpp"

namespace {

namespace fs = std::filesystem;
using namespace pp::interop;

// Circuits, witnesses and keys the tests share; snarkjs's vk of every key.
class InteropBn254 : public ::testing::Environment {
 public:
  void SetUp() override {
    fs::remove_all(g_work);
    fs::create_directories(g_work);
    const std::string cd = "cd " + g_work.string() + " && ";
    for (const std::string c : {"poly", "range", "merkle", "sha256_64"}) {
      if (!compile(c, "bn128")) return;
    }
    if (!snarkjs_ceremony_keys("bn128", {"poly", "range"})) return;
    for (const std::string c : {"merkle", "sha256_64"}) {
      if (!step("proofpipe setup " + c, proofpipe() + " setup " + w(c + "/" + c + ".r1cs") + " " + w(c + "/" + c + ".zkey"))) {
        return;
      }
    }
    for (const std::string c : {"poly", "range", "merkle", "sha256_64"}) {
      if (!step("export vk " + c, cd + snarkjs() + " zkey export verificationkey " + c + "/" + c + ".zkey " + c + "/vk.json")) {
        return;
      }
    }
    // A BLS12-381 key and witness of the same circuit, for the mixed-curve refusals.
    if (!compile("poly", "bls12381", "poly_bls") ||
        !step("proofpipe setup poly_bls", proofpipe() + " setup " + w("poly_bls/poly.r1cs") + " " + w("poly_bls/poly.zkey") +
                                              " --vk " + w("poly_bls/vk.json"))) {
      return;
    }
  }
};

class PerCircuit : public per_circuit_test {};

// Ours -> snarkjs: snarkjs verifies our proof, and our public.json is snarkjs's byte for byte.
TEST_P(PerCircuit, SnarkjsVerifiesOurProof) {
  expect_snarkjs_verifies_our_proof(c());
  EXPECT_NE(slurp(f("our_proof.json")).find("\"curve\": \"bn128\""), std::string::npos);
}

// snarkjs -> ours: our verifier accepts snarkjs's proof and rejects it with a wrong public value or
// with pi_a and pi_c swapped (both valid curve points), as snarkjs does.
TEST_P(PerCircuit, WeVerifySnarkjsProofAndRejectTamperedOnes) {
  ASSERT_EQ(run(snarkjs() + " groth16 prove " + zkey() + " " + wtns() + " " + f("sj2_proof.json") + " " + f("sj2_public.json")).code, 0);
  const run_result o = run(proofpipe() + " verify " + f("vk.json") + " " + f("sj2_public.json") + " " + f("sj2_proof.json"));
  EXPECT_EQ(o.code, 0) << o.output;
  EXPECT_EQ(o.output, "OK\n");
  expect_tampering_rejected_by_both(c(), "sj2_public.json", "sj2_proof.json");
}

INSTANTIATE_TEST_SUITE_P(Circuits, PerCircuit, ::testing::Values("poly", "range", "merkle", "sha256_64"));

class Oracle : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(g_setup_failure.empty()) << g_setup_failure; }
};

// A key from `proofpipe setup` for a snarkjs-compiled BN254 circuit: snarkjs proves with it and
// exports the same vk.json byte for byte (vk_alphabeta_12 is our BN254 pairing's), both verifiers
// accept both provers' proofs.
TEST_F(Oracle, ProofpipeSetupKeyWorksWithSnarkjs) {
  const std::string d = w("poly/");
  ASSERT_EQ(run(proofpipe() + " setup " + d + "poly.r1cs " + d + "pp.zkey --vk " + d + "pp_vk.json").code, 0);
  EXPECT_NE(slurp(d + "pp_vk.json").find("\"curve\": \"bn128\""), std::string::npos);
  ASSERT_EQ(run(snarkjs() + " zkey export verificationkey " + d + "pp.zkey " + d + "pp_vk_sj.json").code, 0);
  EXPECT_EQ(slurp(d + "pp_vk_sj.json"), slurp(d + "pp_vk.json"));
  ASSERT_EQ(run(proofpipe() + " prove " + d + "pp.zkey " + d + "poly.wtns " + d + "pp_proof.json " + d + "pp_public.json").code, 0);
  EXPECT_EQ(run(snarkjs() + " groth16 verify " + d + "pp_vk.json " + d + "pp_public.json " + d + "pp_proof.json").code, 0);
  ASSERT_EQ(run(snarkjs() + " groth16 prove " + d + "pp.zkey " + d + "poly.wtns " + d + "pp_sj_proof.json " + d +
                "pp_sj_public.json").code, 0);
  EXPECT_EQ(run(proofpipe() + " verify " + d + "pp_vk.json " + d + "pp_sj_public.json " + d + "pp_sj_proof.json").code, 0);
}

// BN254 and BLS12-381 files mixed: refused naming both curves, nothing written.
TEST_F(Oracle, MixedCurvesAreRefusedNamingBoth) {
  auto expect_fail = [](const std::string& cmd, const std::string& needle, int code = 1) {
    const run_result r = run(cmd);
    EXPECT_EQ(r.code, code) << cmd << "\n" << r.output;
    EXPECT_NE(r.output.find(needle), std::string::npos) << "expected '" << needle << "' in: " << r.output;
  };
  const std::string out = w("mixed_proof.json") + " " + w("mixed_public.json");
  expect_fail(proofpipe() + " prove " + w("poly_bls/poly.zkey") + " " + w("poly/poly.wtns") + " " + out,
              "this .wtns is for BN254 (bn128), the key " + w("poly_bls/poly.zkey") + " is for BLS12-381 (bls12381)");
  expect_fail(proofpipe() + " prove " + w("poly/poly.zkey") + " " + w("poly_bls/poly.wtns") + " " + out,
              "this .wtns is for BLS12-381 (bls12381), the key " + w("poly/poly.zkey") + " is for BN254 (bn128)");
  expect_fail(proofpipe() + " prove --r1cs " + w("poly_bls/poly.r1cs") + " " + w("poly/poly.zkey") + " " +
                  w("poly/poly.wtns") + " " + out,
              "this .r1cs is for BLS12-381");
  EXPECT_FALSE(fs::exists(w("mixed_proof.json")));
  // A BN254 proof against a BLS12-381 verification key: INVALID, naming both.
  ASSERT_EQ(run(proofpipe() + " prove " + w("poly/poly.zkey") + " " + w("poly/poly.wtns") + " " + w("poly/m_proof.json") +
                " " + w("poly/m_public.json")).code, 0);
  expect_fail(proofpipe() + " verify " + w("poly_bls/vk.json") + " " + w("poly/m_public.json") + " " + w("poly/m_proof.json"),
              "this proof is for BN254 (bn128), expected BLS12-381 (bls12381)");
  // The bellperson layouts are BLS12-381's.
  expect_fail(proofpipe() + " setup --layout bellperson " + w("poly/poly.r1cs") + " " + w("poly/bp.params"),
              "bellperson parameters are BLS12-381's");
}

// `proofpipe demo --curve bn254 --out` writes files snarkjs accepts, and snarkjs proves with its key.
TEST_F(Oracle, Bn254DemoFilesWorkWithSnarkjs) { expect_demo_files_work_with_snarkjs("--curve bn254", "demo"); }

}  // namespace

int main(int argc, char** argv) {
  return pp::interop::interop_main(argc, argv, "interop_bn254_work", new InteropBn254);
}
