// The host memory budget measured as the kernel sees it: a CPU engine proves a workload whose
// partitions, unbounded, would hold several times the partition budget, and the process's peak
// resident set (VmHWM) must stay within the budget while every job completes and verifies.
//
// Each run is a child process (this binary re-executed with --rss-child), so its resident set holds
// nothing but one engine and its key. The child builds a synthetic circuit (2^14 rows, 2^16
// variables: a 2 MiB witness per partition), registers the key with a budget of keys = the key's
// exact size (plus 1 MiB) and partitions = `--budget-partitions` x the engine's per-partition
// estimate, trims the heap, records the baseline RSS and resets the high-water mark
// (/proc/self/clear_refs 5), then proves the jobs with .wtns file witnesses (read by the engine's
// witness pool, after it has reserved the partition's memory; in-memory witnesses would be
// allocated by the caller, outside any budget) and reports VmHWM.
//
// What the budget covers: host_memory_bytes = resident keys + in-flight partitions (engine_config).
// The key is resident at the baseline and stays charged throughout, so the assertion is
//   peak RSS - baseline RSS <= partition budget,
// which with keys budget >= key bytes implies peak RSS <= host_memory_bytes + (baseline RSS - key
// bytes), the latter being memory no budget tracks (code, libraries, stacks: the margin's job).
// The control run is the same workload with an effectively unbounded budget; its peak must exceed
// the tight budget by far, or the tight run's assertion would prove nothing.
#include <gtest/gtest.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "engine/key_catalog.hpp"
#include "formats/circom_wtns.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/synthetic.hpp"
#include "support/run_all_tests.hpp"
#include "support/sanitizers.hpp"

namespace pp::engine {
namespace {

constexpr uint64_t mib = uint64_t{1} << 20;

// The workload: jobs x partitions proofs of one circuit. Unbounded (ready_capacity >= all
// partitions) nearly every witness is loaded at once, because reading a witness takes milliseconds
// and proving one takes a good part of a second.
constexpr uint32_t log_rows = 14;
constexpr uint64_t num_aux = uint64_t{1} << 16;
constexpr uint32_t jobs = 10;
constexpr uint32_t partitions_per_job = 4;
constexpr uint32_t tight_partitions = 1;        // the tight run's partition budget, in estimates
constexpr uint64_t unbounded_partitions = 4096;  // the control's
constexpr size_t queue_capacity = 64;            // ready and finish, in both runs

// ---- the child -----------------------------------------------------------------------------------

// A "Vm...:  N kB" line of /proc/self/status, in bytes (0 if absent).
uint64_t proc_status_bytes(const char* field) {
  std::ifstream in("/proc/self/status");
  std::string line;
  const std::string key = std::string(field) + ":";
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) == 0) return std::strtoull(line.c_str() + key.size(), nullptr, 10) * 1024;
  }
  return 0;
}

bool reset_peak_rss() {
  std::ofstream out("/proc/self/clear_refs");
  out << "5";
  out.flush();
  return static_cast<bool>(out);
}

int child_fail(const std::string& what) {
  std::fprintf(stderr, "rss child: %s\n", what.c_str());
  return 1;
}

// argv: --rss-child <dir> <budget partitions>. Prints one "key=value ..." line on stdout.
struct built_key {
  std::shared_ptr<const groth16::proving_key> pk;
  std::shared_ptr<const r1cs::constraint_system> cs;
};

// The synthetic circuit and its (insecure) key; writes the witness to `wtns`.
result<built_key> build_key(const std::filesystem::path& wtns) {
  r1cs::synthetic_params p;
  p.num_constraints = (uint64_t{1} << log_rows) - 8;  // room for the input rows
  p.num_public = 4;
  p.num_aux = num_aux;
  p.seed = 17;
  auto sc = r1cs::make_synthetic(p);
  if (!sc.ok()) return sc.error();
  auto pk = groth16::setup_insecure(sc->cs, groth16::h_basis::odd_coset_lagrange,
                                    groth16::toxic_waste_from_seed_insecure(5));
  if (!pk.ok()) return pk.error();
  if (auto s = formats::write_circom_wtns_file(sc->w, wtns); !s.ok()) return s;
  return built_key{std::make_shared<const groth16::proving_key>(std::move(pk).value()),
                   std::make_shared<const r1cs::constraint_system>(std::move(sc->cs))};
}

// argv: --rss-child <dir> <budget partitions>. Prints one "key=value ..." line on stdout.
int run_child(const std::filesystem::path& dir, uint64_t budget_partitions) {
  alarm(600);  // a hang ends the child (and fails the parent) instead of the whole test run
  // glibc's default mmap threshold rises to the size of each large block freed, after which
  // multi-MiB witnesses and MSM gathers come from per-thread arenas and stay resident after free
  // (measured here: ~8 MiB over the budget). A fixed threshold returns them to the kernel at once;
  // a deployment that wants RSS to track the budget sets the same (MALLOC_MMAP_THRESHOLD_=131072).
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  const std::filesystem::path wtns = dir / ("witness-" + std::to_string(budget_partitions) + ".wtns");
  auto built = build_key(wtns);
  if (!built.ok()) return child_fail(built.error().to_string());
  auto key = std::move(built->pk);
  auto cs = std::move(built->cs);
  const groth16::verifying_key vk = key->vk;
  const uint64_t kbytes = key_bytes(*key, *cs);
  const uint64_t part_bytes = groth16::cpu_backend().host_bytes_per_partition(cs->num_variables(), key->domain_size);

  // Keys get exactly the key (+1 MiB); partitions budget_partitions estimates (+4 KiB so rounding
  // of key_memory_fraction never costs a partition).
  const uint64_t keys_budget = kbytes + mib;
  const uint64_t host = keys_budget + budget_partitions * part_bytes + 4096;
  engine_config cfg;
  cfg.cpu_devices = 1;
  cfg.workers_per_device = 1;
  cfg.witness_threads = 2;
  cfg.finish_threads = 2;
  cfg.ready_capacity = queue_capacity;
  cfg.finish_capacity = queue_capacity;
  cfg.device_queue_depth = 1;
  cfg.host_memory_bytes = host;
  cfg.key_memory_fraction = static_cast<double>(keys_budget) / static_cast<double>(host);
  auto created = engine::create(cfg);
  if (!created.ok()) return child_fail(created.error().to_string());
  auto& e = **created;
  if (auto s = e.register_key("rss", memory_key_source{key, cs}); !s.ok()) return child_fail(s.to_string());
  if (auto s = e.preload_key("rss"); !s.ok()) return child_fail(s.to_string());
  key.reset();  // the engine holds the key and circuit now
  cs.reset();

  malloc_trim(0);  // setup's garbage is not the workload's
  const uint64_t baseline = proc_status_bytes("VmRSS");
  if (!reset_peak_rss()) return child_fail("cannot reset the peak RSS (/proc/self/clear_refs)");
  const uint64_t hwm_after_reset = proc_status_bytes("VmHWM");
  if (hwm_after_reset == 0 || hwm_after_reset > baseline + 4 * mib) {
    return child_fail("VmHWM " + std::to_string(hwm_after_reset) + " was not reset to the RSS " + std::to_string(baseline));
  }

  std::vector<job_id> ids;
  for (uint32_t j = 0; j < jobs; ++j) {
    submit_request r;
    r.key_id = "rss";
    for (uint32_t i = 0; i < partitions_per_job; ++i) r.witnesses.push_back(witness_source::file(wtns));
    auto id = e.submit(std::move(r));
    if (!id.ok()) return child_fail(id.error().to_string());
    ids.push_back(*id);
  }
  std::vector<job_result> results;
  uint32_t succeeded = 0;
  for (job_id id : ids) {
    auto r = e.await(id);
    if (!r.ok()) return child_fail(r.error().to_string());
    if (r->state == job_state::succeeded) {
      ++succeeded;
    } else {
      std::fprintf(stderr, "rss child: job %llu: %s\n", static_cast<unsigned long long>(id), r->error.to_string().c_str());
    }
    results.push_back(std::move(r).value());
  }
  const uint64_t peak = proc_status_bytes("VmHWM");
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);  // ru_maxrss is not reset by clear_refs: reported, not asserted
  const memory_status mem = e.status().memory;

  uint32_t verified = 0;
  for (const auto& r : results) {
    for (const auto& part : r.partitions) {
      const auto* proved = part.as<ec::bls12_381::family>();
      verified += proved && groth16::verify(vk, proved->public_inputs, proved->proof).ok() ? 1 : 0;
    }
  }
  if (auto s = e.shutdown(); !s.ok()) return child_fail(s.to_string());

  std::printf(
      "baseline=%llu peak=%llu maxrss_since_start=%llu key_bytes=%llu partition_bytes=%llu host_budget=%llu "
      "keys_budget=%llu partitions_budget=%llu partitions_peak=%llu jobs=%u succeeded=%u partitions=%u verified=%u\n",
      static_cast<unsigned long long>(baseline), static_cast<unsigned long long>(peak),
      static_cast<unsigned long long>(ru.ru_maxrss) * 1024, static_cast<unsigned long long>(kbytes),
      static_cast<unsigned long long>(part_bytes), static_cast<unsigned long long>(mem.total),
      static_cast<unsigned long long>(mem.keys_total), static_cast<unsigned long long>(mem.partitions_total),
      static_cast<unsigned long long>(mem.partitions_peak), jobs, succeeded, jobs * partitions_per_job, verified);
  std::fflush(stdout);
  return 0;
}

// ---- the parent ----------------------------------------------------------------------------------

struct child_report {
  int exit_code = -1;
  std::map<std::string, uint64_t> v;
  uint64_t operator[](const std::string& k) const {
    auto it = v.find(k);
    return it == v.end() ? 0 : it->second;
  }
};

// Runs this binary with --rss-child and parses its report line; stderr passes through.
child_report run_child_process(const std::filesystem::path& dir, uint64_t budget_partitions) {
  child_report out;
  int fds[2];
  if (pipe(fds) != 0) return out;
  const std::string exe = std::filesystem::read_symlink("/proc/self/exe").string();
  const std::string dir_s = dir.string();
  const std::string budget_s = std::to_string(budget_partitions);
  const pid_t pid = fork();
  if (pid < 0) return out;
  if (pid == 0) {
    dup2(fds[1], STDOUT_FILENO);
    close(fds[0]);
    close(fds[1]);
    execl(exe.c_str(), exe.c_str(), "--rss-child", dir_s.c_str(), budget_s.c_str(), static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) != 0;) {
    if (n < 0) {
      if (errno == EINTR) continue;
      break;
    }
    text.append(buf, static_cast<size_t>(n));
  }
  close(fds[0]);
  int st = 0;
  while (waitpid(pid, &st, 0) < 0 && errno == EINTR) {
  }
  out.exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
  std::istringstream words(text);
  for (std::string w; words >> w;) {
    const auto eq = w.find('=');
    if (eq != std::string::npos) out.v[w.substr(0, eq)] = std::strtoull(w.c_str() + eq + 1, nullptr, 10);
  }
  std::printf("[rss child, budget %llu partitions] %s", static_cast<unsigned long long>(budget_partitions), text.c_str());
  return out;
}

double in_mib(uint64_t b) { return static_cast<double>(b) / static_cast<double>(mib); }

TEST(EngineRss, PeakRssStaysInTheBudgetAndEveryJobCompletes) {
  if (!std::filesystem::exists("/proc/self/clear_refs")) GTEST_SKIP() << "needs Linux /proc/self/clear_refs";
  if (test::built_with_asan) GTEST_SKIP() << "ASan's shadow and quarantine are in the resident set";
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("pp_engine_rss_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);

  const child_report tight = run_child_process(dir, tight_partitions);
  const child_report control = run_child_process(dir, unbounded_partitions);
  std::filesystem::remove_all(dir);
  ASSERT_EQ(tight.exit_code, 0);
  ASSERT_EQ(control.exit_code, 0);

  for (const child_report* r : {&tight, &control}) {
    EXPECT_EQ(r->operator[]("succeeded"), jobs);
    EXPECT_EQ(r->operator[]("verified"), uint64_t{jobs} * partitions_per_job);
  }

  // The tight run: the partitions' reservations stayed within their budget (bookkeeping) and so did
  // the memory the process really gained over the baseline (kernel's count).
  const uint64_t budget = tight["partitions_budget"];
  const uint64_t grown = tight["peak"] - std::min(tight["peak"], tight["baseline"]);
  EXPECT_LE(tight["partitions_peak"], budget);
  EXPECT_LE(grown, budget) << "peak RSS " << in_mib(tight["peak"]) << " MiB, baseline " << in_mib(tight["baseline"])
                           << " MiB: grew " << in_mib(grown) << " MiB, partition budget " << in_mib(budget) << " MiB";
  // The same as a total: the budget (keys + partitions) plus what was resident and untracked before
  // the first job (baseline minus the key).
  const uint64_t untracked = tight["baseline"] - std::min(tight["baseline"], tight["key_bytes"]);
  EXPECT_LE(tight["peak"], tight["host_budget"] + untracked);

  // The control: unbounded, the same workload grows far past the tight budget, so the assertion
  // above is one the engine could have failed.
  const uint64_t control_grown = control["peak"] - std::min(control["peak"], control["baseline"]);
  EXPECT_GT(control_grown, 3 * budget) << "control grew " << in_mib(control_grown) << " MiB, tight budget "
                                       << in_mib(budget) << " MiB: the workload does not stress the budget";

  std::printf(
      "tight:   baseline %.1f MiB, peak %.1f MiB (+%.1f), key %.1f MiB, partition budget %.1f MiB (%llu x %.1f), "
      "reserved peak %.1f MiB, host budget %.1f MiB\n"
      "control: baseline %.1f MiB, peak %.1f MiB (+%.1f) = %.1f x the tight partition budget\n",
      in_mib(tight["baseline"]), in_mib(tight["peak"]), in_mib(grown), in_mib(tight["key_bytes"]), in_mib(budget),
      static_cast<unsigned long long>(tight_partitions), in_mib(tight["partition_bytes"]),
      in_mib(tight["partitions_peak"]), in_mib(tight["host_budget"]), in_mib(control["baseline"]),
      in_mib(control["peak"]), in_mib(control_grown), static_cast<double>(control_grown) / static_cast<double>(budget));
}

}  // namespace
}  // namespace pp::engine

// GoogleTest main (exit 77 when everything skipped, support/run_all_tests.hpp), plus the
// child mode the test re-executes this binary in.
int main(int argc, char** argv) {
  if (argc == 4 && std::strcmp(argv[1], "--rss-child") == 0) {
    return pp::engine::run_child(argv[2], std::strtoull(argv[3], nullptr, 10));
  }
  testing::InitGoogleTest(&argc, argv);
  return pp::test::run_all_tests_or_skip();
}
