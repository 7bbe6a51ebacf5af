// Random and witness-like Fr scalars (scalars.hpp).
#include "support/scalars.hpp"

namespace pp::test {

ff::fr random_scalar(std::mt19937_64& rng) {
  for (;;) {
    // r < 2^255: drawing 255 bits accepts about 9 draws in 10.
    const uint64_t v[4] = {rng(), rng(), rng(), rng() >> 1};
    ff::fr out;
    if (ff::fr::from_canonical_checked(v, out)) return out;
  }
}

std::vector<ff::fr> random_scalars(std::mt19937_64& rng, std::size_t n) {
  std::vector<ff::fr> s(n);
  for (auto& x : s) x = random_scalar(rng);
  return s;
}

std::vector<ff::fr> witness_scalars(std::mt19937_64& rng, std::size_t n) {
  std::vector<ff::fr> s(n);
  for (auto& x : s) {
    const uint64_t u = rng() % 100;
    if (u < 45) {
      x = ff::fr::zero();
    } else if (u < 85) {
      x = ff::fr::one();
    } else if (u < 95) {
      x = ff::fr::from_uint(2 + rng() % 65534);
    } else if (u < 99) {
      x = random_scalar(rng);
    } else {
      x = -ff::fr::one();
    }
  }
  return s;
}

}  // namespace pp::test
