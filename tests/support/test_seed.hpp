// Per-test seeds (support/seed.hpp): derived from the run seed and the running test's full name, so
// a failed test replays alone with its inputs: PP_TEST_SEED=<printed> ./<binary> --gtest_filter=<it>.
// Inside a test the replay hint is recorded as the test's "seed" property (--gtest_output=xml);
// outside one (a fixture built once per binary) the key is empty.
#pragma once
#include <cstdint>
#include <random>
#include <string>

#include "support/seed.hpp"

namespace pp::test {

uint64_t test_seed();

// A std::mt19937_64 seeded with test_seed().
inline std::mt19937_64 seeded_rng() { return std::mt19937_64(test_seed()); }

// A generator that keeps its seed: SCOPED_TRACE(rng.trace()) puts the replay hint in a failure.
struct test_rng {
  uint64_t seed = test_seed();
  std::mt19937_64 gen{seed};
  uint64_t next() { return gen(); }
  std::string trace() const { return replay_hint() + " (this generator: seed " + std::to_string(seed) + ")"; }
};

}  // namespace pp::test
