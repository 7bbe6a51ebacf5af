// The seeds of support/seed.hpp and support/test_seed.hpp: derived seeds depend only on the run seed,
// the key and the draw's index (what makes a replay draw the same inputs), and differ from draw to
// draw and from test to test.
#include "support/seed.hpp"

#include <gtest/gtest.h>

#include <set>
#include <string>

#include "support/test_seed.hpp"

namespace pp::test {
namespace {

TEST(Seed, DerivedSeedsFollowRunSeedKeyAndIndex) {
  const std::string key = "Seed.DerivedSeedsFollowRunSeedKeyAndIndex/own key";
  EXPECT_EQ(derived_seed(key), mix_seed(run_seed(), key, 0));
  EXPECT_EQ(derived_seed(key), mix_seed(run_seed(), key, 1));
  EXPECT_EQ(derived_seed(key), mix_seed(run_seed(), key, 2));
}

TEST(Seed, MixSeparatesRunsKeysAndIndices) {
  std::set<uint64_t> seen;
  for (uint64_t run : {0ull, 1ull, 0x1f77454f95e5f8a1ull}) {
    for (const char* key : {"", "a", "b", "Fp.Mul"}) {
      for (uint64_t index = 0; index < 4; ++index) seen.insert(mix_seed(run, key, index));
    }
  }
  EXPECT_EQ(seen.size(), 3u * 4u * 4u);
  EXPECT_EQ(mix_seed(7, "Fp.Mul", 2), mix_seed(7, "Fp.Mul", 2));
}

TEST(Seed, TestSeedIsKeyedByTheTestsName) {
  EXPECT_EQ(test_seed(), mix_seed(run_seed(), "Seed.TestSeedIsKeyedByTheTestsName", 0));
  EXPECT_EQ(test_seed(), mix_seed(run_seed(), "Seed.TestSeedIsKeyedByTheTestsName", 1));
  test_rng a, b;
  EXPECT_NE(a.seed, b.seed);
  EXPECT_NE(a.next(), b.next());
  EXPECT_NE(a.trace().find(replay_hint()), std::string::npos) << a.trace();
}

TEST(Seed, ReplayHintNamesTheVariable) {
  const std::string h = replay_hint();
  EXPECT_EQ(h.rfind("PP_TEST_SEED=0x", 0), 0u) << h;
  EXPECT_EQ(std::stoull(h.substr(std::string("PP_TEST_SEED=").size()), nullptr, 16), run_seed());
}

}  // namespace
}  // namespace pp::test
