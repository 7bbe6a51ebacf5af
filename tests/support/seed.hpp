// Seeds for the random inputs of tests and benchmarks: fresh every run, and replayable. One
// variable, PP_TEST_SEED (decimal or 0x-hex), fixes the run's seed; unset, the run draws a fresh one
// from std::random_device. The run seed is printed once, when first drawn:
//   [seed] PP_TEST_SEED=0x1f77454f95e5f8a1 replays this run
// Tests take per-test seeds from support/test_seed.hpp; benchmarks call derived_seed directly.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace pp::test {

// The run's seed: PP_TEST_SEED when set, else fresh; the same for the whole process. A value that is
// not a number stops the process with a message naming it.
uint64_t run_seed();

// A seed for one generator: mix_seed(run_seed(), key, how many seeds `key` has drawn before), so
// two generators under one key differ, and a replay (same PP_TEST_SEED, same key) draws the same
// seeds in the same order. Thread-safe.
uint64_t derived_seed(std::string_view key);

// The derivation itself (splitmix64 over the run seed, an FNV-1a hash of key, and index).
uint64_t mix_seed(uint64_t run, std::string_view key, uint64_t index);

// "PP_TEST_SEED=0x..." (the run seed): for failure messages.
std::string replay_hint();

}  // namespace pp::test
