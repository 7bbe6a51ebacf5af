// gpu_devices (src/devices/gpu_devices.hpp): where no GPU can be used (no driver, no device, or a
// build without the CUDA backend) every factory refuses with a status instead of a device.
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
