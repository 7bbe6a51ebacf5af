// key_vram (src/doctor/key_vram.hpp): the stand-in compares the budget with the key's files' size
// and never claims to know the least budget.
#include "doctor/key_vram.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace pp::doctor {
namespace {

using ::testing::HasSubstr;
constexpr uint64_t gib = uint64_t{1} << 30;

TEST(KeyVram, ResidentWhenTheBudgetHoldsTheKeysFiles) {
  const server::key_entry k{"porep", "", "/k.params", "/k.r1cs", false};
  const key_vram_plan p = estimate_key_vram({k, 40 * gib, 40 * gib, 2});
  EXPECT_EQ(p.placement, key_placement::resident);
  EXPECT_EQ(p.least_bytes, 0u);
  EXPECT_THAT(p.summary, HasSubstr("40.0 GiB"));
}

TEST(KeyVram, UnknownBelowIt) {
  const server::key_entry k{"porep", "/k.zkey", "", "", false};
  const key_vram_plan p = estimate_key_vram({k, 40 * gib, 40 * gib - 1, 2});
  EXPECT_EQ(p.placement, key_placement::unknown);
  EXPECT_EQ(p.least_bytes, 0u);
  EXPECT_THAT(p.summary, HasSubstr("the least is not estimated"));
}

}  // namespace
}  // namespace pp::doctor
