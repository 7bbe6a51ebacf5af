// Fr-only facts against GMP: root_of_unity(k) = 7^((r-1)/2^k) has exact order 2^k for k = 0..32,
// and the coset generator is 7, a quadratic non-residue.
#include "ff/fr.hpp"

#include <gtest/gtest.h>

#include "gmp_oracle.hpp"

namespace pp::ff {
namespace {

using namespace pp::ff::testing;

TEST(Fr, RootOfUnityHasExactOrder) {
  const mpz_class r = modulus<fr>();
  EXPECT_EQ(fr_params::two_adicity, 32);
  for (int k = 0; k <= 32; ++k) {
    SCOPED_TRACE("k=" + std::to_string(k));
    const fr w = root_of_unity(k);
    mpz_class expect;
    const mpz_class e = (r - 1) >> k;
    mpz_powm(expect.get_mpz_t(), mpz_class(7).get_mpz_t(), e.get_mpz_t(), r.get_mpz_t());
    EXPECT_EQ(to_mpz(w), expect);
    // w^(2^k) = 1 and, for k > 0, w^(2^(k-1)) = -1 (so the order is exactly 2^k).
    fr x = w;
    for (int i = 0; i + 1 < k; ++i) x = x.sqr();
    if (k == 0) {
      EXPECT_TRUE(x.is_one());
    } else {
      EXPECT_EQ(x, -fr::one());
      EXPECT_TRUE(x.sqr().is_one());
    }
  }
  EXPECT_TRUE(root_of_unity(0).is_one());
  EXPECT_EQ(to_mpz(root_of_unity(1)), r - 1);
}

TEST(Fr, CosetGeneratorIsSevenAndNonResidue) {
  const mpz_class r = modulus<fr>();
  const fr g = coset_generator();
  EXPECT_EQ(to_mpz(g), 7);
  EXPECT_EQ(g, fr::from_uint(7));
  EXPECT_EQ(mpz_legendre(mpz_class(7).get_mpz_t(), r.get_mpz_t()), -1);
  EXPECT_FALSE(g.is_square());
  // Not in the 2^32 subgroup: the coset g*H is disjoint from H for every power-of-two domain H.
  fr x = g;
  for (int i = 0; i < 32; ++i) x = x.sqr();
  EXPECT_FALSE(x.is_one());
}

}  // namespace
}  // namespace pp::ff
