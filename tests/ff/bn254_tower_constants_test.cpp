// Recomputes src/ff/bn254_tower_constants.hpp: reruns the generator with --curve bn254 --check, then
// checks every coefficient algebraically in C++ (exponents from GMP, powers with the library's Fp2
// arithmetic), and the D-type twist's b' = 3/(9 + u).
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "constants_check.hpp"
#include "ff/bn254_tower.hpp"

namespace pp::ff::bn254 {
namespace {

using namespace pp::ff::testing;

fp2 pow(const fp2& a, const mpz_class& e) {
  std::vector<uint64_t> l((mpz_sizeinbase(e.get_mpz_t(), 2) + 63) / 64 + 1, 0);
  mpz_to_limbs(e, l.data(), static_cast<int>(l.size()));
  return a.pow(l.data(), static_cast<int>(l.size()));
}

const mpz_class p = limbs_to_mpz(fp_params::modulus, 4);
const fp2 xi{fp::from_uint(9), fp::one()};

TEST(Bn254TowerConstants, GeneratorReproducesHeader) {
  check_generated_header("gen_tower_constants.py", "--curve bn254", "bn254_tower_constants.hpp");
}

TEST(Bn254TowerConstants, SeedGivesModulus) {
  const mpz_class x = limbs_to_mpz(&tower_params::seed_abs, 1);
  ASSERT_FALSE(tower_params::seed_is_negative);
  EXPECT_EQ(x, mpz_class("4965661367192848881"));
  EXPECT_EQ(36 * x * x * x * x + 36 * x * x * x + 24 * x * x + 6 * x + 1, p);
  EXPECT_EQ(tower_params::xi_c0, 9);
}

TEST(Bn254TowerConstants, FrobeniusCoefficients) {
  mpz_class pk = 1;
  for (int k = 0; k < 12; ++k) {
    SCOPED_TRACE("k = " + std::to_string(k));
    if (k < 6) {
      EXPECT_EQ(fp2::from_table(tower_params::frob6_c1[k]), pow(xi, (pk - 1) / 3));
      EXPECT_EQ(fp2::from_table(tower_params::frob6_c2[k]), pow(xi, 2 * (pk - 1) / 3));
    }
    EXPECT_EQ(fp2::from_table(tower_params::frob12_c1[k]), pow(xi, (pk - 1) / 6));
    pk *= p;
  }
  for (int k = 0; k < 6; ++k) {
    const fp2 g = fp2::from_table(tower_params::frob12_c1[k]);
    EXPECT_EQ(g.sqr(), fp2::from_table(tower_params::frob6_c1[k]));
    EXPECT_EQ(g.sqr().sqr(), fp2::from_table(tower_params::frob6_c2[k]));
  }
}

TEST(Bn254TowerConstants, TwistCurveCoefficient) {
  const fp2 b = fp2::from_table(tower_params::twist_b[0]);
  EXPECT_EQ(b * xi, (fp2{fp::from_uint(3), fp::zero()}));  // b' = 3 / xi
  EXPECT_EQ(fp2::from_table(tower_params::twist_b3[0]), b * fp::from_uint(3));
}

TEST(Bn254TowerConstants, XiIsNeitherSquareNorCube) {
  const mpz_class q = p * p;
  EXPECT_FALSE(pow(xi, (q - 1) / 2).is_one());
  EXPECT_FALSE(pow(xi, (q - 1) / 3).is_one());
  EXPECT_FALSE(xi.is_square());
}

}  // namespace
}  // namespace pp::ff::bn254
