// gpu_devices (src/devices/gpu_devices.hpp): where no GPU can be used (no driver, no device, or a
// build without the CUDA backend) every factory refuses with a status instead of a device; the GPU
// query lists as many GPUs as gpu_count() counts.
#include "devices/gpu_devices.hpp"
#include "support/status_matchers.hpp"

#include <gtest/gtest.h>

namespace pp::devices {
namespace {

using ::testing::Not;

TEST(GpuDevices, CountIsZeroInABuildWithoutCuda) {
  auto n = gpu_count();
  ASSERT_THAT(n, IsOk());
  EXPECT_GE(*n, 0);
  if (!gpu_support_built()) {
    EXPECT_EQ(*n, 0);
  }
}

TEST(GpuDevices, QueryListsEveryCountedGpu) {
  auto n = gpu_count();
  ASSERT_THAT(n, IsOk());
  auto gpus = query_gpus();
  ASSERT_THAT(gpus, IsOk());
  ASSERT_EQ(static_cast<int>(gpus->size()), *n);
  for (int i = 0; i < *n; ++i) {
    const gpu_facts& g = (*gpus)[static_cast<size_t>(i)];
    EXPECT_EQ(g.ordinal, i);
    EXPECT_FALSE(g.name.empty());
    EXPECT_GT(g.cc_major, 0);
    EXPECT_GT(g.total_bytes, 0u);
    EXPECT_LE(g.free_bytes, g.total_bytes);
    EXPECT_GT(g.driver_version, 0);
    EXPECT_GT(g.runtime_version, 0);
  }
}

TEST(GpuDevices, FactoriesRefuseWhereTheyCannotRun) {
  auto n = gpu_count();
  ASSERT_THAT(n, IsOk());
  if (*n > 0) GTEST_SKIP() << "a GPU is present: make_gpu_devices would take its memory";
  auto d = make_gpu_devices({});
  ASSERT_THAT(d, StatusIs(status_code::unavailable));
  auto m = make_gpu_fixed_base_multiplier(0);
  ASSERT_THAT(m, Not(IsOk()));
}

}  // namespace
}  // namespace pp::devices
