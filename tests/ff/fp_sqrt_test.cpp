// ff/fp_sqrt.hpp against GMP for every p = 3 mod 4 base field (BLS12-381's and BN254's Fp): the
// root is GMP's a^((p+1)/4), non-squares are refused with out untouched, on edge and fresh random
// values.
#include "ff/fp_sqrt.hpp"

#include <gtest/gtest.h>

#include "ff/bn254_fp.hpp"
#include "ff/fp.hpp"
#include "gmp_oracle.hpp"

namespace pp::ff {
namespace {

using namespace pp::ff::testing;

constexpr int kRandom = 3000;

template <class F>
class FpSqrt : public ::testing::Test {};
using fields = ::testing::Types<fp, bn254::fp>;
TYPED_TEST_SUITE(FpSqrt, fields);

TYPED_TEST(FpSqrt, MatchesGmp) {
  using F = TypeParam;
  PP_SEEDED_RNG(rng);
  const mpz_class p = modulus<F>();
  ASSERT_EQ(mod(p, 4), 3);
  const mpz_class e = (p + 1) / 4;
  auto values = edge_values(p);
  for (int i = 0; i < kRandom; ++i) values.push_back(random_field_value(rng, p));
  int squares = 0;
  for (const auto& a : values) {
    const bool is_sq = mpz_legendre(a.get_mpz_t(), p.get_mpz_t()) >= 0;
    F out = F::from_uint(12345);
    const bool ok = sqrt(from_mpz<F>(a), out);
    ASSERT_EQ(ok, is_sq) << hex(a);
    if (ok) {
      ++squares;
      mpz_class s;
      mpz_powm(s.get_mpz_t(), a.get_mpz_t(), e.get_mpz_t(), p.get_mpz_t());
      ASSERT_EQ(to_mpz(out), s) << hex(a);
    } else {
      ASSERT_EQ(out, F::from_uint(12345)) << "out is untouched for a non-square";
    }
  }
  EXPECT_GT(squares, kRandom / 4);
  F out;
  EXPECT_FALSE(sqrt(-F::one(), out));  // -1 is a non-square for p = 3 mod 4
  for (int i = 0; i < 500; ++i) {
    const F x = from_mpz<F>(random_field_value(rng, p));
    ASSERT_TRUE(sqrt(x.sqr(), out));
    ASSERT_TRUE(out == x || out == -x);
  }
}

}  // namespace
}  // namespace pp::ff
