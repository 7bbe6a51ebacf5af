// device_info on a real GPU: the runtime's answers are sane and errors come back as values.
#include "cuda/runtime/device_info.hpp"
#include "support/status_matchers.hpp"

#include <gtest/gtest.h>

namespace pp::cuda {
namespace {

using ::testing::Not;

TEST(DeviceInfo, CountIsPositiveHere) {
  const auto n = device_count();
  ASSERT_THAT(n, IsOk());
  ASSERT_GT(*n, 0);  // gpu_test_main exits 77 before this when there is none
}

TEST(DeviceInfo, EveryDeviceReportsSaneProperties) {
  const auto n = device_count();
  ASSERT_THAT(n, IsOk());
  for (int i = 0; i < *n; ++i) {
    const auto d = query_device(i);
    ASSERT_THAT(d, IsOk());
    EXPECT_EQ(d->ordinal, i);
    EXPECT_FALSE(d->name.empty());
    EXPECT_GT(d->sm_count, 0);
    EXPECT_GT(d->clock_khz, 100'000);
    EXPECT_GT(d->total_memory_bytes, int64_t{1} << 30);
    EXPECT_LE(d->free_memory_bytes, d->total_memory_bytes);
    EXPECT_GE(d->cc_major, 7);
    std::printf("%s\n", to_string(*d).c_str());
  }
}

TEST(DeviceInfo, OrdinalOutOfRangeIsInvalidArgument) {
  const auto n = device_count();
  ASSERT_THAT(n, IsOk());
  const auto d = query_device(*n);
  ASSERT_THAT(d, StatusIs(status_code::invalid_argument));
  EXPECT_THAT(query_device(-1), Not(IsOk()));
}

}  // namespace
}  // namespace pp::cuda
