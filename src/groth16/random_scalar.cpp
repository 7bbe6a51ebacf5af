// random_scalar_csprng: eight 64-bit words x_i from std::random_device, then sum x_i 2^(64 i) mod r
// by Horner's rule in Fr (each x_i < 2^64 < r, so from_uint is exact).
#include "groth16/random_scalar.hpp"

#include <random>

namespace pp::groth16 {

template <class Fr>
Fr random_scalar_csprng() {
  std::random_device rd;
  const Fr two64 = Fr::from_uint(uint64_t{1} << 32).sqr();
  Fr acc = Fr::zero();
  for (int i = 0; i < 8; ++i) {
    const uint64_t word = (uint64_t{rd()} << 32) ^ uint64_t{rd()};
    acc = acc * two64 + Fr::from_uint(word);
  }
  return acc;
}

template ff::fr random_scalar_csprng<ff::fr>();
template ff::bn254::fr random_scalar_csprng<ff::bn254::fr>();

}  // namespace pp::groth16
