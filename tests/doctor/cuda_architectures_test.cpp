// cuda_architectures (src/doctor/cuda_architectures.hpp): the build's list as CMake and --version
// write it, and which GPUs each kind of entry runs on.
#include "doctor/cuda_architectures.hpp"

#include <gtest/gtest.h>

#include "support/status_matchers.hpp"

namespace pp::doctor {
namespace {

using ::testing::HasSubstr;

std::vector<cuda_arch> parse(std::string_view list) {
  auto a = parse_cuda_architectures(list);
  EXPECT_THAT(a, IsOk());
  return a.ok() ? *a : std::vector<cuda_arch>{};
}

TEST(CudaArchitectures, ParsesCMakesListAndTheVersionLine) {
  const auto a = parse("80;86-real;90a;100-virtual");
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a[0].cc, 80);
  EXPECT_TRUE(a[0].sass && a[0].ptx && !a[0].specific);
  EXPECT_EQ(a[1].cc, 86);
  EXPECT_TRUE(a[1].sass && !a[1].ptx);
  EXPECT_EQ(a[2].cc, 90);
  EXPECT_TRUE(a[2].specific);
  EXPECT_EQ(a[3].cc, 100);
  EXPECT_TRUE(!a[3].sass && a[3].ptx);
  EXPECT_EQ(parse("80, 86, 89, 90, 100, 120").size(), 6u);
  EXPECT_TRUE(parse("").empty());
}

TEST(CudaArchitectures, RefusesWhatItCannotJudge) {
  EXPECT_THAT(parse_cuda_architectures("native"), StatusIs(status_code::invalid_argument, HasSubstr("\"native\"")));
  EXPECT_THAT(parse_cuda_architectures("90, sm_90"), StatusIs(status_code::invalid_argument, HasSubstr("sm_90")));
  EXPECT_THAT(parse_cuda_architectures("9"), Not(IsOk()));
}

TEST(CudaArchitectures, MachineCodeRunsOnLaterMinorVersionsOfItsMajor) {
  const auto a = parse("80-real");
  EXPECT_EQ(support_for(a, 8, 0), arch_support::native);
  EXPECT_EQ(support_for(a, 8, 6), arch_support::native);
  EXPECT_EQ(support_for(a, 9, 0), arch_support::none);
  EXPECT_EQ(support_for(a, 7, 5), arch_support::none);
}

TEST(CudaArchitectures, PtxIsCompiledForAnyLaterGpu) {
  const auto a = parse("90");
  EXPECT_EQ(support_for(a, 9, 0), arch_support::native);
  EXPECT_EQ(support_for(a, 10, 0), arch_support::jit);
  EXPECT_EQ(support_for(a, 12, 0), arch_support::jit);
  EXPECT_EQ(support_for(a, 8, 9), arch_support::none);
  EXPECT_EQ(support_for(parse("90-virtual"), 9, 0), arch_support::jit);
}

TEST(CudaArchitectures, ArchitectureSpecificCodeRunsOnlyOnItsOwnGpu) {
  const auto a = parse("90a");
  EXPECT_EQ(support_for(a, 9, 0), arch_support::native);
  EXPECT_EQ(support_for(a, 10, 0), arch_support::none);
}

}  // namespace
}  // namespace pp::doctor
