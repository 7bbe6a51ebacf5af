// `proofpipe doctor` run for real on this machine (src/cli/doctor_command.cpp over the real probes):
// it says who will serve (on CI, without a GPU, the CPU backend), its exit code follows its
// conclusion, and a world-readable token file or a configuration that does not load make it exit 1.
// The verdicts one by one, on fake hosts: tests/doctor/host_check_test.cpp.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli/cli_process.hpp"
#include "support/files.hpp"

namespace pp {
namespace {
namespace fs = std::filesystem;

using cli_test::describe;
using cli_test::outcome;
using cli_test::run;

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

// A configuration whose socket lives in a directory of this test's own.
fs::path config(const std::string& name, const std::string& extra) {
  const fs::path dir = test::binary_temp_dir("cli_doctor");
  const fs::path p = dir / (name + ".toml");
  std::ofstream(p) << "[server]\nsocket = \"" << (dir / "pp.sock").string() << "\"\n" << extra;
  return p;
}

TEST(CliDoctor, TheDefaultsSayWhoWillServeAndTheExitCodeFollowsTheConclusion) {
  const outcome r = run({"doctor"});
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_TRUE(contains(r.out, "proofpipe doctor: the default configuration\n")) << describe(r);
  EXPECT_TRUE(contains(r.out, "\nok       GPUs: ") && contains(r.out, "will serve")) << describe(r);
  if (contains(r.out, "the CPU backend will serve")) EXPECT_TRUE(contains(r.out, "memlock: not needed")) << describe(r);
  EXPECT_EQ(r.code, contains(r.out, "this host can serve") ? 0 : 1) << describe(r);
}

TEST(CliDoctor, OnTheCpuBackendThisMachineCanServe) {
  const outcome r = run({"doctor", "--config", config("cpu", "[engine]\nbackend = \"cpu\"\n").string()});
  ASSERT_TRUE(r.exited && r.code == 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "the CPU backend will serve")) << describe(r);
  EXPECT_TRUE(contains(r.out, "ok       socket directory: ")) << describe(r);
  EXPECT_TRUE(contains(r.out, "this host can serve this configuration")) << describe(r);
}

TEST(CliDoctor, AWorldReadableTokenFileMeansItCannotServe) {
  const fs::path token = test::binary_temp_dir("cli_doctor") / "token";
  std::ofstream(token) << "secret\n";
  ASSERT_EQ(::chmod(token.c_str(), 0644), 0);
  const fs::path c = config("token", "listen = \"127.0.0.1:0\"\ntoken_file = \"" + token.string() +
                                         "\"\n[engine]\nbackend = \"cpu\"\n");
  outcome r = run({"doctor", "--config", c.string()});
  ASSERT_TRUE(r.exited && r.code == 1) << describe(r);
  EXPECT_TRUE(contains(r.out, "problem  token file: " + token.string() + " has mode 0644")) << describe(r);
  EXPECT_TRUE(contains(r.out, "fix: chmod 600 " + token.string())) << describe(r);
  EXPECT_TRUE(contains(r.out, "this host cannot serve this configuration: 1 problem")) << describe(r);

  ASSERT_EQ(::chmod(token.c_str(), 0600), 0);
  r = run({"doctor", "--config", c.string()});
  EXPECT_TRUE(r.exited && r.code == 0) << describe(r);
}

TEST(CliDoctor, AConfigurationThatDoesNotLoadIsAFailure) {
  const outcome r = run({"doctor", "--config", config("bad", "[engine]\nbakend = \"cpu\"\n").string()});
  ASSERT_TRUE(r.exited && r.code == 1) << describe(r);
  EXPECT_TRUE(contains(r.err, "engine.bakend: unknown key")) << describe(r);
}

}  // namespace
}  // namespace pp
