// system_probes (src/doctor/system_probes.hpp) on this machine: file modes and access as stat and
// access(2) give them, the THP mode from fixture files, the memlock limit and a small trial pin.
#include "doctor/system_probes.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "support/files.hpp"
#include "support/status_matchers.hpp"

namespace pp::doctor {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

fs::path write(const std::string& name, const std::string& text) {
  const fs::path p = test::binary_temp_dir("doctor_probes") / name;
  std::ofstream(p) << text;
  return p;
}

TEST(SystemProbes, InspectReportsTypeModeSizeAndAccess) {
  system_probes probes;
  const fs::path f = write("token", "secret\n");
  ASSERT_EQ(::chmod(f.c_str(), 0640), 0);
  auto facts = probes.inspect(f.string());
  ASSERT_THAT(facts, IsOk());
  EXPECT_EQ(facts->type, path_facts::kind::regular);
  EXPECT_EQ(facts->mode, 0640u);
  EXPECT_EQ(facts->size, 7u);
  EXPECT_TRUE(facts->readable);
  auto dir = probes.inspect(f.parent_path().string());
  ASSERT_THAT(dir, IsOk());
  EXPECT_EQ(dir->type, path_facts::kind::directory);
  EXPECT_TRUE(dir->writable);
  EXPECT_THAT(probes.inspect((f.parent_path() / "absent").string()), StatusIs(status_code::not_found));
}

TEST(SystemProbes, TheHugePageModeIsTheBracketedOne) {
  system_probe_sources s;
  s.transparent_hugepage = write("thp", "always [madvise] never\n").string();
  EXPECT_EQ(system_probes(s).transparent_hugepages().value(), "madvise");
  s.transparent_hugepage = write("thp_bad", "madvise\n").string();
  EXPECT_THAT(system_probes(s).transparent_hugepages(), StatusIs(status_code::data_loss, HasSubstr("brackets")));
  s.transparent_hugepage = (test::binary_temp_dir("doctor_probes") / "absent").string();
  EXPECT_THAT(system_probes(s).transparent_hugepages(), StatusIs(status_code::not_found));
}

TEST(SystemProbes, HostMemoryIsTheEnginesReading) {
  system_probe_sources s;
  s.memory.meminfo = write("meminfo", "MemTotal:       16384 kB\n").string();
  s.memory.cgroup_v2_max = write("memory.max", "8388608\n").string();
  s.memory.cgroup_v1_limit = (test::binary_temp_dir("doctor_probes") / "absent").string();
  auto m = system_probes(s).host_memory();
  ASSERT_THAT(m, IsOk());
  EXPECT_EQ(m->physical, 16384u * 1024);
  EXPECT_EQ(m->cgroup, 8388608u);
}

TEST(SystemProbes, APinWithinTheLimitSucceeds) {
  system_probes probes;
  auto limit = probes.memlock_limit();
  ASSERT_THAT(limit, IsOk());
  if (*limit < 4096) GTEST_SKIP() << "RLIMIT_MEMLOCK below one page here";
  EXPECT_THAT(probes.trial_pin(4096), IsOk());
  EXPECT_THAT(probes.trial_pin(0), IsOk());
}

}  // namespace
}  // namespace pp::doctor
