// `proofpipe bench --porep` (src/cli/porep_bench.cpp) at CI's size: whole C2-shaped proofs of 10
// partitions through the engine on the CPU, every one self-verified (a proof that failed its check
// fails the run), the table, the machine-readable lines and the per-configuration trace written;
// GPU-only options refused on the CPU, options of the other mode refused beside --porep.
#include <gtest/gtest.h>

#include <cstdint>
#include <regex>
#include <string>

#include "cli/cli_process.hpp"
#include "core/host_memory.hpp"
#include "support/files.hpp"

namespace pp {
namespace {

using cli_test::describe;
using cli_test::last_line;
using cli_test::outcome;
using cli_test::run;
using namespace std::chrono_literals;

bool contains(const std::string& text, const std::string& what) { return text.find(what) != std::string::npos; }

TEST(PorepBench, ProvesTwoC2ShapedProofsOnTheCpuAndReportsThem) {
  const auto trace = test::binary_temp_dir("porep_bench") / "c2.json";
  const outcome r = run({"bench", "--porep", "--log-constraints", "12", "--proofs", "2", "--backend", "cpu", "--trace",
                         trace.string()},
                        300s);
  ASSERT_TRUE(r.exited && r.code == 0) << describe(r);
  EXPECT_TRUE(contains(r.out, "synthetic 2^12, C2 proofs of 10 partitions, 2 proofs per configuration")) << r.out;
  // One configuration (unlimited, uncapped): its row and its figures, positive.
  const std::regex run_line("porep_run log=12 vram_gib=0 h2d_gib_s=0 h_copies=1 together=1 together_wait_ms=20 proofs=2 "
                            "partitions=10 key_load_s=[0-9.]+ "
                            "c2_proof_s=([0-9.]+) steady_s=[0-9.]+ first_s=[0-9.]+ partitions_per_hour=([0-9.]+) "
                            "gpu_busy=-1.0000 h2d_gib_per_partition=-1.0000 region_gib=-1.0000");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, run_line)) << r.out;
  EXPECT_GT(std::stod(m[1]), 0);
  EXPECT_GT(std::stod(m[2]), 0);
  EXPECT_TRUE(std::regex_search(r.out, std::regex("result porep_c2_proof_s [0-9.]+\n"))) << r.out;
  // Where the partitions' time went: the CPU backend's steps, each over the 20 timed partitions.
  const std::regex step_line("porep_step vram_gib=0 h2d_gib_s=0 h_copies=1 together=1 partitions=20 "
                             "median_ms=[0-9.]+ step=[^\n]+\n");
  EXPECT_TRUE(std::regex_search(r.out, step_line)) << r.out;
  // The configuration's trace, named by it: the engine's Chrome trace with the partitions' stages.
  const std::string json = test::read_file(trace.parent_path() / "c2-vram0-h2d0-copies1-k1-wait20.json");
  EXPECT_TRUE(contains(json, "\"traceEvents\"")) << json.substr(0, 200);
  EXPECT_TRUE(contains(json, "\"witness\"")) << json.substr(0, 200);
  EXPECT_FALSE(contains(r.out, "result porep_c2_gpu_busy")) << "no GPU served";
}

TEST(PorepBench, GpuOptionsOnTheCpuAreRefusedNamingThem) {
  for (const auto& option : {std::vector<std::string>{"--vram-gib", "16"}, std::vector<std::string>{"--h-copies", "1,2"},
                             std::vector<std::string>{"--together", "1,3"},
                             std::vector<std::string>{"--matrix-chunk-mib", "512"}}) {
    std::vector<std::string> args{"bench", "--porep", "--log-constraints", "4", "--proofs", "1", "--backend", "cpu"};
    args.insert(args.end(), option.begin(), option.end());
    const outcome r = run(args);
    ASSERT_TRUE(r.exited && r.code == 1) << option.front() << ": " << describe(r);
    EXPECT_TRUE(contains(last_line(r.err), "--vram-gib, --h2d-gib-s, --h-copies, --together and --matrix-chunk-mib need GPUs"))
        << r.err;
  }
  const outcome r = run({"bench", "--porep", "--h-copies", "25"});
  EXPECT_TRUE(r.exited && r.code >= 100) << describe(r);
  EXPECT_TRUE(contains(last_line(r.err), "--h-copies")) << r.err;
  const outcome k = run({"bench", "--porep", "--together", "0"});
  EXPECT_TRUE(k.exited && k.code >= 100) << describe(k);
  EXPECT_TRUE(contains(last_line(k.err), "--together")) << k.err;
}

TEST(PorepBench, OptionsOfTheOtherModeAreRefused) {
  for (const auto& extra : {std::vector<std::string>{"--zkey", "k.zkey"}, std::vector<std::string>{"--warmup", "2"},
                            std::vector<std::string>{"--no-verify"}}) {
    std::vector<std::string> args{"bench", "--porep"};
    args.insert(args.end(), extra.begin(), extra.end());
    const outcome r = run(args);
    EXPECT_TRUE(r.exited && r.code >= 100) << extra.front() << ": " << describe(r);
    EXPECT_TRUE(contains(last_line(r.err), "excludes")) << r.err;
  }
  const outcome r = run({"bench", "--vram-gib", "24"});
  EXPECT_TRUE(r.exited && r.code >= 100) << describe(r);
  EXPECT_TRUE(contains(last_line(r.err), "requires --porep")) << r.err;
}

// A 2^27 circuit and its key need ~78 GiB of host memory: refused before anything is made, naming
// both figures, where the host has less (this test's CI machine); skipped where a 2^27 bench fits.
TEST(PorepBench, RefusesACircuitTheHostCannotHold) {
  const auto available = available_host_memory_bytes();
  ASSERT_TRUE(available.ok()) << available.error().to_string();
  if (*available >= uint64_t{80} << 30) GTEST_SKIP() << "this host holds a 2^27 bench";
  const outcome r = run({"bench", "--porep", "--log-constraints", "27", "--backend", "cpu"}, 60s);
  EXPECT_TRUE(r.exited && r.code == 1) << describe(r);
  EXPECT_TRUE(contains(last_line(r.err), "--log-constraints 27: the PoRep-shaped circuit of 130300000 constraints "
                                         "and its key needs about")) << describe(r);
  EXPECT_TRUE(contains(last_line(r.err), "GiB is available")) << describe(r);
}

TEST(PorepBench, SizesBeyondAFullPartitionAreRefused) {
  const outcome r = run({"bench", "--porep", "--log-constraints", "28", "--backend", "cpu"});
  ASSERT_TRUE(r.exited && r.code == 1) << describe(r);
  EXPECT_TRUE(contains(last_line(r.err), "--log-constraints must lie in [2, 27]")) << r.err;
}

}  // namespace
}  // namespace pp
