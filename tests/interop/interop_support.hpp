// What the interop tests (proofpipe against snarkjs 0.7.6 and circom 2 through the `proofpipe`
// command) share: the repository, build and scratch directories, running a command, compiling a
// tests/fixtures/circuits circuit with circom2 for a prime and computing its witness.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <iostream>
#include <sstream>
#include <string>

#include "support/files.hpp"

namespace pp::interop {

namespace fs = std::filesystem;

inline fs::path g_src, g_bin, g_work;  // the repository, the build dir, the scratch dir (set by main)
inline std::string g_setup_failure;    // a fixture step that failed in SetUp (reported by every test)

struct run_result {
  int code = -1;  // exit status; -1 when killed by a signal
  std::string output;
};

// Runs cmd with cwd = the repository root (circom2's WASI sandbox needs relative include paths
// below the working directory), stdout and stderr together.
inline run_result run(const std::string& cmd) {
  const std::string full = "cd '" + g_src.string() + "' && " + cmd + " 2>&1";
  run_result r;
  FILE* p = popen(full.c_str(), "r");
  if (p == nullptr) return r;
  char buf[4096];
  std::size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, p)) > 0) r.output.append(buf, n);
  const int st = pclose(p);
  r.code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  return r;
}

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline std::string rel(const fs::path& p) { return fs::relative(p, g_src).string(); }
inline std::string w(const std::string& name) { return (g_work / name).string(); }
inline std::string proofpipe() { return (g_bin / "proofpipe").string() + " --quiet"; }
inline std::string snarkjs() { return "node " + (g_src / "tools/oracle/node_modules/snarkjs/cli.js").string(); }

// Compiles tests/fixtures/circuits/<name>.circom with circom -p <prime> ("bls12381" or "bn128")
// into the scratch dir <out_name> (default: name) and, when `witness`, computes the witness of
// <name>.json into <out_name>/<name>.wtns; false (with g_setup_failure set) on failure.
inline bool compile(const std::string& name, const std::string& prime, const std::string& out_name = "",
                    bool witness = true) {
  const std::string o = out_name.empty() ? name : out_name;
  const fs::path dir = g_work / o;
  fs::create_directories(dir);
  const run_result c = run("node tools/oracle/node_modules/circom2/cli.js tests/fixtures/circuits/" + name +
                           ".circom --r1cs --wasm --O2 -p " + prime + " -l tools/oracle/node_modules -o " + rel(dir));
  if (c.code != 0) {
    g_setup_failure = "circom " + name + ": " + c.output;
    return false;
  }
  if (!witness) return true;
  const run_result wt = run("node " + rel(dir / (name + "_js/generate_witness.js")) + " " +
                            rel(dir / (name + "_js/" + name + ".wasm")) + " tests/fixtures/circuits/" + name +
                            ".json " + rel(dir / (name + ".wtns")));
  if (wt.code != 0) {
    g_setup_failure = "witness " + name + ": " + wt.output;
    return false;
  }
  return true;
}

inline bool step(const std::string& what, const std::string& cmd) {
  const run_result r = run(cmd);
  if (r.code != 0) g_setup_failure = what + " failed (" + cmd + "): " + r.output;
  return r.code == 0;
}

// A power-8 ceremony for `curve` ("bls12381" or "bn128") in the scratch dir and snarkjs keys
// (<c>/<c>.zkey) from it for each circuit c (each must fit 2^8 constraints); false (with
// g_setup_failure set) on failure.
inline bool snarkjs_ceremony_keys(const std::string& curve, std::initializer_list<std::string> circuits) {
  const std::string cd = "cd " + g_work.string() + " && ";
  if (!step("ptau", cd + snarkjs() + " powersoftau new " + curve + " 8 pot0.ptau") ||
      !step("ptau", cd + snarkjs() + " powersoftau contribute pot0.ptau pot1.ptau --name=x -e=interop-" + curve) ||
      !step("ptau", cd + snarkjs() + " powersoftau prepare phase2 pot1.ptau final.ptau")) {
    return false;
  }
  for (const std::string& c : circuits) {
    if (!step("snarkjs setup " + c, cd + snarkjs() + " groth16 setup " + c + "/" + c + ".r1cs final.ptau " + c + "/" +
                                        c + ".zkey") ||
        fs::file_size(g_work / c / (c + ".zkey")) == 0) {
      if (g_setup_failure.empty()) g_setup_failure = "snarkjs left an empty zkey for " + c;
      return false;
    }
  }
  return true;
}

// Whether node and tools/oracle/node_modules (snarkjs, circom2, circomlib) are there.
inline bool oracle_tools_present() {
  const fs::path modules = g_src / "tools/oracle/node_modules";
  return std::system("node --version >/dev/null 2>&1") == 0 && fs::exists(modules / "snarkjs/cli.js") &&
         fs::exists(modules / "circom2/cli.js") && fs::exists(modules / "circomlib/circuits");
}

// A file of circuit c's scratch dir (<work>/<c>/<file>): its <c>.zkey, <c>.wtns, <c>.r1cs, vk.json.
inline std::string in_circuit(const std::string& c, const std::string& file) { return w(c + "/" + file); }

// The fixture of the tests run once per circuit (the parameter: its name and scratch dir), failing
// at once when the shared setup did.
class per_circuit_test : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override { ASSERT_TRUE(g_setup_failure.empty()) << g_setup_failure; }
  std::string c() const { return GetParam(); }
  std::string f(const std::string& file) const { return in_circuit(c(), file); }
  std::string zkey() const { return f(c() + ".zkey"); }
  std::string wtns() const { return f(c() + ".wtns"); }
};

// Ours -> snarkjs: snarkjs verifies our proof of circuit c and ours verifies it too; our
// public.json is snarkjs's byte for byte; with --r1cs (the circuit from the .r1cs, satisfaction
// checked first) the proof still verifies. Leaves our_proof.json in c's dir.
inline void expect_snarkjs_verifies_our_proof(const std::string& c) {
  const auto f = [&](const std::string& file) { return in_circuit(c, file); };
  const std::string zkey = f(c + ".zkey"), wtns = f(c + ".wtns");
  const run_result p = run(proofpipe() + " prove " + zkey + " " + wtns + " " + f("our_proof.json") + " " + f("our_public.json"));
  ASSERT_EQ(p.code, 0) << p.output;
  const run_result v = run(snarkjs() + " groth16 verify " + f("vk.json") + " " + f("our_public.json") + " " + f("our_proof.json"));
  EXPECT_EQ(v.code, 0) << v.output;
  EXPECT_NE(v.output.find("OK"), std::string::npos) << v.output;
  const run_result o = run(proofpipe() + " verify " + f("vk.json") + " " + f("our_public.json") + " " + f("our_proof.json"));
  EXPECT_EQ(o.code, 0) << o.output;
  EXPECT_EQ(o.output, "OK\n");
  ASSERT_EQ(run(snarkjs() + " groth16 prove " + zkey + " " + wtns + " " + f("sj_proof.json") + " " + f("sj_public.json")).code, 0);
  EXPECT_EQ(slurp(f("our_public.json")), slurp(f("sj_public.json")));
  const run_result r = run(proofpipe() + " prove --r1cs " + f(c + ".r1cs") + " " + zkey + " " + wtns + " " +
                           f("r1cs_proof.json") + " " + f("r1cs_public.json"));
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(run(snarkjs() + " groth16 verify " + f("vk.json") + " " + f("r1cs_public.json") + " " + f("r1cs_proof.json")).code, 0);
}

// From a valid public.json and proof.json of circuit c: a wrong public value ("123" -> "1123", still
// < r for these circuits' small first signals) and the proof with pi_a and pi_c swapped (both valid
// curve points, not a valid proof) are rejected by snarkjs and by `proofpipe verify` (exit 1, INVALID).
inline void expect_tampering_rejected_by_both(const std::string& c, const std::string& public_json,
                                              const std::string& proof_json) {
  const auto f = [&](const std::string& file) { return in_circuit(c, file); };
  std::string pub = slurp(f(public_json));
  const std::size_t q = pub.find('"');
  ASSERT_NE(q, std::string::npos);
  pub.insert(q + 1, "1");
  std::ofstream(f("t_bad_public.json")) << pub;
  const std::string proof = slurp(f(proof_json));
  const std::size_t a0 = proof.find("\"pi_a\""), b0 = proof.find("\"pi_b\""), c0 = proof.find("\"pi_c\""),
                    e0 = proof.find("\"protocol\"");
  ASSERT_TRUE(a0 < b0 && b0 < c0 && c0 < e0 && e0 != std::string::npos);
  const std::string pa = proof.substr(a0 + 6, b0 - a0 - 6), pc = proof.substr(c0 + 6, e0 - c0 - 6);
  std::ofstream(f("t_bad_proof.json")) << proof.substr(0, a0) + "\"pi_a\"" + pc + proof.substr(b0, c0 - b0) + "\"pi_c\"" +
                                              pa + proof.substr(e0);
  for (const auto& [pubf, prooff] : {std::pair{std::string("t_bad_public.json"), proof_json},
                                     std::pair{public_json, std::string("t_bad_proof.json")}}) {
    const run_result s = run(snarkjs() + " groth16 verify " + f("vk.json") + " " + f(pubf) + " " + f(prooff));
    EXPECT_NE(s.code, 0) << pubf << " " << prooff << ": " << s.output;
    const run_result o = run(proofpipe() + " verify " + f("vk.json") + " " + f(pubf) + " " + f(prooff));
    EXPECT_EQ(o.code, 1) << o.output;
    EXPECT_NE(o.output.find("INVALID"), std::string::npos) << o.output;
  }
}

// `proofpipe demo <flags> --out DIR` writes files snarkjs accepts, and snarkjs proves with the
// demo's key: snarkjs verifies the demo's proof, proofpipe verifies snarkjs's, public.json equal.
inline void expect_demo_files_work_with_snarkjs(const std::string& demo_flags, const std::string& dir_name) {
  const std::string d = w(dir_name);
  const run_result r = run(proofpipe() + " demo " + demo_flags + " --constraints 300 --out " + d);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(run(snarkjs() + " groth16 verify " + d + "/verification_key.json " + d + "/public.json " + d + "/proof.json").code, 0);
  ASSERT_EQ(run(snarkjs() + " groth16 prove " + d + "/circuit.zkey " + d + "/witness.wtns " + d + "/sj_proof.json " + d +
                "/sj_public.json").code, 0);
  EXPECT_EQ(run(proofpipe() + " verify " + d + "/verification_key.json " + d + "/sj_public.json " + d + "/sj_proof.json").code, 0);
  EXPECT_EQ(slurp(d + "/sj_public.json"), slurp(d + "/public.json"));
}

// The interop tests' main: the directories, then exit 77 (skipped) without node or the oracle
// modules, 1 without a built proofpipe, else every test with `env` set up once.
inline int interop_main(int argc, char** argv, const std::string& work_name, ::testing::Environment* env) {
  ::testing::InitGoogleTest(&argc, argv);
  g_src = fs::absolute(pp::test::source_dir());
  g_bin = fs::absolute(pp::test::binary_dir());
  g_work = g_bin / work_name;
  if (!oracle_tools_present()) {
    std::cout << "skipped: node or tools/oracle/node_modules (snarkjs, circom2, circomlib) is missing\n";
    delete env;
    return 77;
  }
  if (!fs::exists(g_bin / "proofpipe")) {
    std::cout << "proofpipe is not built at " << (g_bin / "proofpipe") << "\n";
    delete env;
    return 1;
  }
  ::testing::AddGlobalTestEnvironment(env);
  return RUN_ALL_TESTS();
}

}  // namespace pp::interop
