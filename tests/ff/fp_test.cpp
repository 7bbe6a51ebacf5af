// Fp-only operations against GMP: sqrt (p = 3 mod 4, so GMP's a^((p+1)/4) is the expected root)
// and the zcash "sign" lexicographically_largest.
#include "ff/fp.hpp"

#include <gtest/gtest.h>

#include "gmp_oracle.hpp"

namespace pp::ff {
namespace {

using namespace pp::ff::testing;

constexpr int kRandom = 3000;

TEST(Fp, SqrtMatchesGmp) {
  PP_SEEDED_RNG(rng);
  const mpz_class p = modulus<fp>();
  const mpz_class e = (p + 1) / 4;
  auto values = edge_values(p);
  for (int i = 0; i < kRandom; ++i) values.push_back(random_field_value(rng, p));
  int squares = 0;
  for (const auto& a : values) {
    const bool is_sq = mpz_legendre(a.get_mpz_t(), p.get_mpz_t()) >= 0;
    fp out = fp::from_uint(12345);
    const bool ok = sqrt(from_mpz<fp>(a), out);
    ASSERT_EQ(ok, is_sq) << hex(a);
    if (ok) {
      ++squares;
      mpz_class s;
      mpz_powm(s.get_mpz_t(), a.get_mpz_t(), e.get_mpz_t(), p.get_mpz_t());
      ASSERT_EQ(mod(s * s, p), a) << "GMP's own root checks out";
      ASSERT_EQ(to_mpz(out), s) << hex(a);
    } else {
      ASSERT_EQ(out, fp::from_uint(12345)) << "out is untouched for a non-square";
    }
  }
  EXPECT_GT(squares, kRandom / 4);
  // -1 is a non-square (p = 3 mod 4); squares of random values have roots +-x.
  fp out;
  EXPECT_FALSE(sqrt(-fp::one(), out));
  for (int i = 0; i < 500; ++i) {
    const fp x = from_mpz<fp>(random_field_value(rng, p));
    ASSERT_TRUE(sqrt(x.sqr(), out));
    ASSERT_TRUE(out == x || out == -x);
  }
}

TEST(Fp, LexicographicallyLargest) {
  PP_SEEDED_RNG(rng);
  const mpz_class p = modulus<fp>();
  const mpz_class half = (p - 1) / 2;
  auto values = edge_values(p);
  values.push_back(half + 1);
  for (int i = 0; i < kRandom; ++i) values.push_back(random_field_value(rng, p));
  for (const auto& a : values) ASSERT_EQ(lexicographically_largest(from_mpz<fp>(a)), a > half) << hex(a);
  EXPECT_FALSE(lexicographically_largest(from_mpz<fp>(half)));
  EXPECT_TRUE(lexicographically_largest(from_mpz<fp>(half + 1)));
}

}  // namespace
}  // namespace pp::ff
