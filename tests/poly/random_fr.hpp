// Test helpers for the poly layer: fresh random Fr vectors each run (support/test_seed.hpp), for
// either curve's Fr (BLS12-381's by default).
// Use: SCOPED_TRACE(rng.trace()) so a failure prints how to replay it.
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ff/fr.hpp"
#include "support/scalars.hpp"
#include "support/test_seed.hpp"

namespace pp::poly::testing {

class random_fr_source {
 public:
  [[nodiscard]] std::string trace() const { return rng_.trace(); }
  uint64_t next_u64() { return rng_.next(); }

  // Uniform in Fr.
  template <class Fr = ff::fr>
  Fr next() {
    return pp::test::random_scalar<Fr>(rng_.gen);
  }
  template <class Fr = ff::fr>
  std::vector<Fr> vector(std::size_t n) {
    return pp::test::random_scalars<Fr>(rng_.gen, n);
  }

 private:
  pp::test::test_rng rng_;
};

}  // namespace pp::poly::testing
