// What a user expects of a command line tool, checked on the `proofpipe` binary: --version names the
// release, the commit, the CUDA architectures and the GPUs; --priority takes the proto's names in any
// case; a refused command line says why on its last line.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <regex>
#include <string>
#include <vector>

#include "cli/cli_process.hpp"
#include "support/files.hpp"

namespace pp {
namespace {
namespace fs = std::filesystem;
using namespace std::chrono_literals;

using cli_test::describe;
using cli_test::last_line;
using cli_test::outcome;
using cli_test::run;

// CLI11's exit code for a value its validator refused (CLI::ExitCodes::ValidationError).
constexpr int exit_validation_error = 105;

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

TEST(CliConventions, VersionNamesReleaseCommitArchitecturesAndGpus) {
  const outcome r = run({"--version"});
  ASSERT_TRUE(r.exited && r.code == 0) << describe(r);
  // Four lines, in this order (cmake/build_commit.cmake makes the commit; tests/cli/build_commit_test.cmake
  // checks it).
  const std::regex shape(
      "proofpipe [0-9]+\\.[0-9]+\\.[0-9]+\n"
      "commit: ([0-9a-f]{12}(\\+dirty)?|unknown)\n"
      "CUDA architectures: [^\n]+\n"
      "GPUs: [^\n]+\n");
  EXPECT_TRUE(std::regex_match(r.out, shape)) << describe(r);
  EXPECT_EQ(r.err, "") << describe(r);
}

TEST(CliConventions, WithoutASubcommandTheLastLineSaysOneIsRequired) {
  const outcome r = run({});
  ASSERT_TRUE(r.exited) << describe(r);
  EXPECT_NE(r.code, 0) << describe(r);
  const std::string last = last_line(r.err);
  EXPECT_TRUE(contains(last, "subcommand is required")) << describe(r);
  EXPECT_TRUE(contains(last, "proofpipe --help")) << describe(r);
}

TEST(CliConventions, ARefusedArgumentSaysWhyOnItsLastLine) {
  struct refused {
    std::vector<std::string> args;
    std::vector<std::string> last_line_names;
  };
  for (const refused& c : std::vector<refused>{
           {{"submit", "k.zkey", "w.wtns", "--priority", "urgent"},
            {"proofpipe submit: --priority", "'urgent' is not a priority", "low, normal, high or critical"}},
           {{"submit", "k.zkey", "w.wtns", "--priority", "PRIORITY_UNSPECIFIED"}, {"'PRIORITY_UNSPECIFIED' is not"}},
           {{"prove", "--no-such-option", "k", "w", "p", "q"}, {"proofpipe prove:", "--no-such-option"}},
           {{"demo", "--constraints", "many"}, {"proofpipe demo:", "--constraints", "many"}},
           {{"no-such-command"}, {"proofpipe:", "no-such-command"}},
       }) {
    const outcome r = run(c.args);
    ASSERT_TRUE(r.exited) << describe(r);
    EXPECT_GE(r.code, 100) << describe(r);  // CLI11's range: a refused command line, not a failed command
    const std::string last = last_line(r.err);
    for (const std::string& want : c.last_line_names) EXPECT_TRUE(contains(last, want)) << want << "\n" << describe(r);
    EXPECT_TRUE(contains(last, "--help")) << describe(r);
  }
  const outcome u = run({"submit", "k.zkey", "w.wtns", "--priority", "urgent"});
  EXPECT_EQ(u.code, exit_validation_error) << describe(u);
}

// `proofpipe bench`'s flags that set an engine knob take the knob table's range
// (src/cli/knob_range_check.hpp): one past either end is refused, naming the flag and the range.
TEST(CliConventions, BenchFlagsTakeTheKnobTablesRanges) {
  struct refused {
    std::string flag, value, range;
  };
  for (const refused& c : std::vector<refused>{
           {"--cpu-devices", "1025", "[1, 1024]"},
           {"--cpu-devices", "0", "[1, 1024]"},
           {"--workers", "65", "[0, 64]"},
           {"--witness-threads", "1025", "[1, 1024]"},
           {"--finish-threads", "0", "[1, 1024]"},
           {"--gpu-vram-share", "1.0", "(0, 1)"},
           {"--gpus", "1024", "[0, 1023]"},
           {"--memory-mib", "-1", "[0, 1099511627776]"},
       }) {
    const outcome r = run({"bench", c.flag, c.value});
    ASSERT_TRUE(r.exited) << describe(r);
    EXPECT_EQ(r.code, exit_validation_error) << c.flag << "\n" << describe(r);
    const std::string last = last_line(r.err);
    for (const std::string& want : {c.flag, c.value + " is outside " + c.range}) {
      EXPECT_TRUE(contains(last, want)) << want << "\n" << describe(r);
    }
  }
  const outcome p = run({"bench", "--partitions", "1025"});
  EXPECT_EQ(p.code, exit_validation_error) << describe(p);
}

TEST(CliConventions, PriorityTakesTheProtoNamesInAnyCase) {
  // Accepted: the command gets past its command line and fails only at connecting to the daemon.
  const std::string socket = (fs::temp_directory_path() / ("pp_cli_none_" + std::to_string(::getpid()) + ".sock")).string();
  for (const char* p : {"critical", "CRITICAL", "Critical", "PRIORITY_CRITICAL", "priority_high", "LOW", "Normal"}) {
    const outcome r = run({"submit", "--socket", socket, "k.zkey", "w.wtns", "--priority", p});
    ASSERT_TRUE(r.exited) << p << "\n" << describe(r);
    EXPECT_EQ(r.code, 1) << p << "\n" << describe(r);
    EXPECT_TRUE(contains(r.err, "registering k.zkey with unix:")) << p << "\n" << describe(r);
    EXPECT_FALSE(contains(r.err, "is not a priority")) << p << "\n" << describe(r);
  }
}

// The daemon takes a job submitted as CRITICAL and proves it.
TEST(CliConventions, ACriticalJobIsProvedByTheDaemon) {
  const fs::path dir = fs::temp_directory_path() / ("pp_cli_conv_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path zkey = dir / "mul.zkey", vk = dir / "vk.json";
  const fs::path r1cs = test::source_dir() / "tests/fixtures/circom/mul.r1cs";
  const fs::path wtns = test::source_dir() / "tests/fixtures/circom/mul.wtns";
  const outcome s = run({"setup", r1cs.string(), zkey.string(), "--vk", vk.string()});
  ASSERT_TRUE(s.exited && s.code == 0) << describe(s);
  const std::string socket = (fs::path("/tmp") / ("pp_cli_conv_" + std::to_string(::getpid()) + ".sock")).string();
  cli_test::background serve({"serve", "--socket", socket}, dir / "serve.err");
  ASSERT_TRUE(serve.wait_for_stderr("serving")) << test::read_file(dir / "serve.err");
  const outcome sub = run({"submit", "--socket", socket, zkey.string(), wtns.string(), "--priority", "CRITICAL"}, 60s);
  ASSERT_TRUE(sub.exited && sub.code == 0) << describe(sub);
  const std::string job = last_line(sub.out);
  const fs::path proof = dir / "proof.json", pub = dir / "public.json";
  const outcome aw = run({"await", "--socket", socket, job, proof.string(), pub.string(), "--timeout", "60"}, 90s);
  EXPECT_TRUE(aw.exited && aw.code == 0) << describe(aw);
  const outcome v = run({"verify", vk.string(), pub.string(), proof.string()});
  EXPECT_TRUE(v.exited && v.code == 0) << describe(v);
  static_cast<void>(serve.stop());
  std::error_code ec;
  fs::remove(socket, ec);
  fs::remove_all(dir, ec);
}

}  // namespace
}  // namespace pp
