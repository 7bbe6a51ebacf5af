// ff/roots_of_unity.hpp against GMP for BLS12-381's and BN254's Fr: root_of_unity<F>(k) is
// g^((r-1)/2^k) for the params' generator g (snarkjs's family: 5) and has exact order 2^k for every k
// up to the 2-adicity; the coset generator is a non-residue outside every power-of-two subgroup.
#include "ff/roots_of_unity.hpp"

#include <gtest/gtest.h>

#include <string>

#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"
#include "gmp_oracle.hpp"

namespace pp::ff {
namespace {

using namespace pp::ff::testing;

template <class F>
class RootsOfUnity : public ::testing::Test {};
using fields = ::testing::Types<fr, bn254::fr>;
TYPED_TEST_SUITE(RootsOfUnity, fields);

TYPED_TEST(RootsOfUnity, RootsHaveExactOrder) {
  using F = TypeParam;
  const int s = F::params::two_adicity;
  const mpz_class r = modulus<F>();
  const mpz_class g = to_mpz(coset_generator<F>());
  for (root_family family : {root_family::generator7, root_family::snarkjs5}) {
    const mpz_class base = family == root_family::snarkjs5 ? mpz_class(5) : g;
    for (int k = 0; k <= s; ++k) {
      SCOPED_TRACE("k=" + std::to_string(k) + " base=" + base.get_str());
      const F w = root_of_unity<F>(k, family);
      mpz_class expect;
      const mpz_class e = (r - 1) >> k;
      mpz_powm(expect.get_mpz_t(), base.get_mpz_t(), e.get_mpz_t(), r.get_mpz_t());
      EXPECT_EQ(to_mpz(w), expect);
      F x = w;
      for (int i = 0; i + 1 < k; ++i) x = x.sqr();
      if (k == 0) {
        EXPECT_TRUE(x.is_one());
      } else {
        EXPECT_EQ(x, -F::one());  // w^(2^(k-1)) = -1: the order is exactly 2^k
      }
    }
  }
}

TYPED_TEST(RootsOfUnity, CosetGeneratorIsANonResidue) {
  using F = TypeParam;
  const mpz_class r = modulus<F>();
  const F g = coset_generator<F>();
  EXPECT_EQ(mpz_legendre(to_mpz(g).get_mpz_t(), r.get_mpz_t()), -1);
  EXPECT_FALSE(g.is_square());
  F x = g;
  for (int i = 0; i < F::params::two_adicity; ++i) x = x.sqr();
  EXPECT_FALSE(x.is_one());
}

TEST(RootsOfUnity, Bn254FamiliesAgree) {
  EXPECT_EQ(to_mpz(coset_generator<bn254::fr>()), 5);
  for (int k = 0; k <= 28; ++k) {
    EXPECT_EQ(root_of_unity<bn254::fr>(k, root_family::generator7), root_of_unity<bn254::fr>(k, root_family::snarkjs5));
  }
}

}  // namespace
}  // namespace pp::ff
