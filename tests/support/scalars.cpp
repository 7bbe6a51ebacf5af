// Random and witness-like Fr scalars (scalars.hpp), for both curves.
#include "support/scalars.hpp"

namespace pp::test {

template <class Fr>
Fr random_scalar(std::mt19937_64& rng) {
  // Draw as many bits as r has: each draw is accepted with probability r / 2^bits > 1/2.
  constexpr int top_bits = Fr::bits - 64 * (Fr::n64 - 1);
  for (;;) {
    uint64_t v[Fr::n64];
    for (auto& x : v) x = rng();
    if constexpr (top_bits < 64) v[Fr::n64 - 1] &= (uint64_t{1} << top_bits) - 1;
    Fr out;
    if (Fr::from_canonical_checked(v, out)) return out;
  }
}

template <class Fr>
std::vector<Fr> random_scalars(std::mt19937_64& rng, std::size_t n) {
  std::vector<Fr> s(n);
  for (auto& x : s) x = random_scalar<Fr>(rng);
  return s;
}

template <class Fr>
std::vector<Fr> witness_scalars(std::mt19937_64& rng, std::size_t n) {
  std::vector<Fr> s(n);
  for (auto& x : s) {
    const uint64_t u = rng() % 100;
    if (u < 45) {
      x = Fr::zero();
    } else if (u < 85) {
      x = Fr::one();
    } else if (u < 95) {
      x = Fr::from_uint(2 + rng() % 65534);
    } else if (u < 99) {
      x = random_scalar<Fr>(rng);
    } else {
      x = -Fr::one();
    }
  }
  return s;
}

#define PP_TEST_SCALARS(Fr)                                                 \
  template Fr random_scalar<Fr>(std::mt19937_64&);                          \
  template std::vector<Fr> random_scalars<Fr>(std::mt19937_64&, std::size_t); \
  template std::vector<Fr> witness_scalars<Fr>(std::mt19937_64&, std::size_t)
PP_TEST_SCALARS(ff::fr);
PP_TEST_SCALARS(ff::bn254::fr);
#undef PP_TEST_SCALARS

}  // namespace pp::test
