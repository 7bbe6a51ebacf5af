// Per-test seeds keyed by the running test's name (test_seed.hpp).
#include "support/test_seed.hpp"

#include <gtest/gtest.h>

#include <string>

namespace pp::test {

uint64_t test_seed() {
  const ::testing::TestInfo* t = ::testing::UnitTest::GetInstance()->current_test_info();
  if (t == nullptr) return derived_seed("");
  const std::string name = std::string(t->test_suite_name()) + "." + t->name();
  const uint64_t seed = derived_seed(name);
  ::testing::Test::RecordProperty("seed", replay_hint());
  return seed;
}

}  // namespace pp::test
