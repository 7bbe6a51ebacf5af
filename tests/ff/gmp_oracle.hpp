// Test helpers for tests/ff: GMP (mpz_class) as the reference for field values, fresh random
// inputs each run (support/test_seed.hpp: PP_TEST_SEED replays a run), and edge values.
#pragma once
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "support/test_seed.hpp"

namespace pp::ff::testing {

// Declares a std::mt19937_64 named `name` seeded for this test, and prints the replay hint on failure.
#define PP_SEEDED_RNG(name)                    \
  SCOPED_TRACE(::pp::test::replay_hint());     \
  std::mt19937_64 name(::pp::test::test_seed())

inline mpz_class limbs_to_mpz(const uint64_t* v, int n) {
  mpz_class z;
  mpz_import(z.get_mpz_t(), size_t(n), -1, sizeof(uint64_t), 0, 0, v);
  return z;
}

// Writes z (0 <= z < 2^(64n)) as n little-endian limbs.
inline void mpz_to_limbs(const mpz_class& z, uint64_t* out, int n) {
  for (int i = 0; i < n; ++i) out[i] = 0;
  size_t count = 0;
  EXPECT_LE(mpz_sizeinbase(z.get_mpz_t(), 2), size_t(64 * n));
  if (z != 0) mpz_export(out, &count, -1, sizeof(uint64_t), 0, 0, z.get_mpz_t());
}

template <class F>
mpz_class modulus() {
  return limbs_to_mpz(F::params::modulus, F::n64);
}

// R = 2^(64 n64), the Montgomery radix.
template <class F>
mpz_class radix() {
  return mpz_class(1) << (64 * F::n64);
}

// R^-1 mod the modulus: a raw Montgomery product of limbs a, b is a * b * R^-1 mod m.
template <class F>
mpz_class radix_inverse() {
  mpz_class r_inv;
  const mpz_class r = radix<F>();
  const mpz_class m = modulus<F>();
  mpz_invert(r_inv.get_mpz_t(), r.get_mpz_t(), m.get_mpz_t());
  return r_inv;
}

template <class F>
mpz_class to_mpz(const F& a) {
  uint64_t c[F::n64];
  a.to_canonical(c);
  return limbs_to_mpz(c, F::n64);
}

// v must lie in [0, modulus).
template <class F>
F from_mpz(const mpz_class& v) {
  uint64_t c[F::n64];
  mpz_to_limbs(v, c, F::n64);
  return F::from_canonical_unchecked(c);
}

// Reduces any integer (possibly negative) into [0, m).
inline mpz_class mod(const mpz_class& v, const mpz_class& m) {
  mpz_class r;
  mpz_mod(r.get_mpz_t(), v.get_mpz_t(), m.get_mpz_t());
  return r;
}

// Uniform in [0, 2^bits): whole random limbs, top limb masked.
inline mpz_class random_bits(std::mt19937_64& rng, int bits) {
  std::vector<uint64_t> l((bits + 63) / 64);
  for (auto& x : l) x = rng();
  if (bits % 64) l.back() &= (uint64_t(1) << (bits % 64)) - 1;
  return limbs_to_mpz(l.data(), int(l.size()));
}

// Uniform in [0, m) by rejection from [0, 2^bits(m)).
inline mpz_class random_below(std::mt19937_64& rng, const mpz_class& m) {
  const int bits = int(mpz_sizeinbase(m.get_mpz_t(), 2));
  for (;;) {
    mpz_class v = random_bits(rng, bits);
    if (v < m) return v;
  }
}

// Mostly uniform values, with one in eight drawn near 0 or near m (carry/borrow edge behaviour).
inline mpz_class random_field_value(std::mt19937_64& rng, const mpz_class& m) {
  switch (rng() % 16) {
    case 0: return mpz_class(static_cast<unsigned long>(rng() % 1000));
    case 1: return m - 1 - mpz_class(static_cast<unsigned long>(rng() % 1000));
    default: return random_below(rng, m);
  }
}

// 0, 1, 2, m-1, m-2, (m-1)/2, (m+1)/2, and R mod m (whose Montgomery form is R^2 mod m).
inline std::vector<mpz_class> edge_values(const mpz_class& m) {
  const int n64 = int((mpz_sizeinbase(m.get_mpz_t(), 2) + 63) / 64);
  return {0, 1, 2, m - 1, m - 2, (m - 1) / 2, (m + 1) / 2, mod(mpz_class(1) << (64 * n64), m)};
}

inline std::string hex(const mpz_class& v) { return "0x" + v.get_str(16); }

}  // namespace pp::ff::testing
