#include "engine/host_memory_limit.hpp"
#include "support/status_matchers.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace pp::engine {
namespace {

namespace fs = std::filesystem;

class HostMemoryLimit : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() /
           ("pp_host_mem_" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_);
    src_.cgroup_v2_max = (dir_ / "memory.max").string();
    src_.cgroup_v1_limit = (dir_ / "memory.limit_in_bytes").string();
    src_.meminfo = (dir_ / "meminfo").string();
    write(src_.meminfo, "MemTotal:       16384 kB\nMemFree:         1024 kB\n");
  }
  void TearDown() override { fs::remove_all(dir_); }
  static void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

  fs::path dir_;
  host_memory_sources src_;
};

TEST_F(HostMemoryLimit, MemTotalWithoutCgroup) {
  auto r = read_host_memory_limit(src_, 1024);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->physical, 16384u * 1024);
  EXPECT_EQ(r->cgroup, 0u);
  EXPECT_EQ(r->usable, 16384u * 1024 - 1024);
}

TEST_F(HostMemoryLimit, CgroupV2Wins) {
  write(src_.cgroup_v2_max, "8388608\n");
  auto r = read_host_memory_limit(src_, 0);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->cgroup, 8388608u);
  EXPECT_EQ(r->usable, 8388608u);
}

TEST_F(HostMemoryLimit, CgroupV2MaxFallsBackToV1) {
  write(src_.cgroup_v2_max, "max\n");
  write(src_.cgroup_v1_limit, "4194304\n");
  auto r = read_host_memory_limit(src_, 4096);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->cgroup, 4194304u);
  EXPECT_EQ(r->usable, 4194304u - 4096);
}

TEST_F(HostMemoryLimit, UnlimitedV1IsIgnored) {
  write(src_.cgroup_v1_limit, "9223372036854771712\n");
  auto r = read_host_memory_limit(src_, 0);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->cgroup, 0u);
  EXPECT_EQ(r->usable, 16384u * 1024);
}

TEST_F(HostMemoryLimit, MarginSwallowingTheLimitIsAnError) {
  write(src_.cgroup_v2_max, "1000");
  auto r = read_host_memory_limit(src_, 1000);
  ASSERT_THAT(r, StatusIs(status_code::resource_exhausted));
}

TEST_F(HostMemoryLimit, MissingOrMalformedMeminfo) {
  auto missing = src_;
  missing.meminfo = (dir_ / "absent").string();
  EXPECT_EQ(read_host_memory_limit(missing, 0).error().code(), status_code::not_found);
  write(src_.meminfo, "MemFree: 12 kB\n");
  EXPECT_EQ(read_host_memory_limit(src_, 0).error().code(), status_code::data_loss);
  write(src_.meminfo, "MemTotal: lots\n");
  EXPECT_EQ(read_host_memory_limit(src_, 0).error().code(), status_code::data_loss);
}

TEST_F(HostMemoryLimit, GarbageCgroupFileIsIgnored) {
  write(src_.cgroup_v2_max, "not a number");
  auto r = read_host_memory_limit(src_, 0);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->cgroup, 0u);
}

TEST(HostMemoryLimitReal, ThisMachineHasALimit) {
  auto r = read_host_memory_limit({}, 0);
  ASSERT_THAT(r, IsOk());
  EXPECT_GT(r->usable, 0u);
}

}  // namespace
}  // namespace pp::engine
