// device_choice (src/engine/device_choice.hpp): the backend names, the worker default per device
// kind, and the errors for "cuda" where no GPU (or no CUDA build) is. Runs with or without a GPU:
// the expectations follow devices::gpu_count().
#include <gtest/gtest.h>

#include "engine/device_choice.hpp"
#include "support/status_matchers.hpp"

namespace pp::engine {
namespace {

int gpus_here() {
  auto n = devices::gpu_count();
  EXPECT_THAT(n, IsOk());
  return n.ok() ? *n : 0;
}

TEST(DeviceChoice, CpuBackendTakesCpuDevicesWithOneWorkerByDefault) {
  engine_config c;
  auto r = choose_devices("cpu", 0, {}, c);
  ASSERT_THAT(r, IsOk());
  EXPECT_FALSE(*r);
  EXPECT_EQ(c.workers_per_device, 1u);
  EXPECT_FALSE(c.make_devices);
  engine_config c3;
  ASSERT_THAT(choose_devices("cpu", 3, {}, c3), IsOk());
  EXPECT_EQ(c3.workers_per_device, 3u);
}

TEST(DeviceChoice, AutoTakesTheGpusWhenThereAreAny) {
  engine_config c;
  auto r = choose_devices("auto", 0, {}, c);
  ASSERT_THAT(r, IsOk());
  const bool gpus = gpus_here() > 0;
  EXPECT_EQ(*r, gpus);
  EXPECT_EQ(c.workers_per_device, gpus ? 2u : 1u);
  EXPECT_EQ(static_cast<bool>(c.make_devices), gpus);
}

TEST(DeviceChoice, CudaWithoutAGpuIsAPreciseError) {
  engine_config c;
  auto r = choose_devices("cuda", 0, {}, c);
  if (gpus_here() > 0) {
    ASSERT_THAT(r, IsOk());
    EXPECT_TRUE(*r);
    EXPECT_EQ(c.workers_per_device, 2u);
    return;
  }
  ASSERT_THAT(r, StatusIs(status_code::failed_precondition));
  const std::string want = devices::gpu_support_built() ? "no GPU is present" : "this build has no CUDA backend";
  EXPECT_NE(r.error().message().find(want), std::string::npos) << r.error().message();
  EXPECT_FALSE(c.make_devices) << "a failed choice must not leave a device factory behind";
}

TEST(DeviceChoice, UnknownBackendIsRefused) {
  engine_config c;
  auto r = choose_devices("opencl", 0, {}, c);
  ASSERT_THAT(r, StatusIs(status_code::invalid_argument));
  EXPECT_NE(r.error().message().find("opencl"), std::string::npos);
}

}  // namespace
}  // namespace pp::engine
