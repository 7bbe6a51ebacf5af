// Test helpers for the poly layer: fresh random Fr vectors each run, with the seed to reproduce.
// Use: SCOPED_TRACE(rng.trace()) so a failure prints the seed.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ff/fr.hpp"

namespace pp::poly::testing {

class random_fr_source {
 public:
  random_fr_source() : seed_((uint64_t(std::random_device{}()) << 32) | std::random_device{}()), gen_(seed_) {}
  explicit random_fr_source(uint64_t seed) : seed_(seed), gen_(seed) {}

  [[nodiscard]] uint64_t seed() const { return seed_; }
  [[nodiscard]] std::string trace() const { return "seed = " + std::to_string(seed_); }
  uint64_t next_u64() { return gen_(); }

  // Uniform below 2^254 < r: close enough to uniform over Fr for testing, and always canonical.
  ff::fr next() {
    const uint64_t v[4] = {gen_(), gen_(), gen_(), gen_() >> 2};
    return ff::fr::from_canonical_unchecked(v);
  }
  std::vector<ff::fr> vector(std::size_t n) {
    std::vector<ff::fr> out(n);
    for (auto& x : out) x = next();
    return out;
  }

 private:
  uint64_t seed_;
  std::mt19937_64 gen_;
};

}  // namespace pp::poly::testing
