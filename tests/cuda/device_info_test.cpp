// device_info on a real GPU: the runtime's answers are sane and errors come back as values.
#include "cuda/device_info.hpp"

#include <gtest/gtest.h>

namespace pp::cuda {
namespace {

TEST(DeviceInfo, CountIsPositiveHere) {
  const auto n = device_count();
  ASSERT_TRUE(n.ok()) << n.error().to_string();
  ASSERT_GT(*n, 0);  // gpu_test_main exits 77 before this when there is none
}

TEST(DeviceInfo, EveryDeviceReportsSaneProperties) {
  const auto n = device_count();
  ASSERT_TRUE(n.ok());
  for (int i = 0; i < *n; ++i) {
    const auto d = query_device(i);
    ASSERT_TRUE(d.ok()) << d.error().to_string();
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
  ASSERT_TRUE(n.ok());
  const auto d = query_device(*n);
  ASSERT_FALSE(d.ok());
  EXPECT_EQ(d.error().code(), status_code::invalid_argument);
  EXPECT_FALSE(query_device(-1).ok());
}

}  // namespace
}  // namespace pp::cuda
