// Recomputes src/ff/bls12_381_tower_constants.hpp: reruns the generator with --check, then checks every
// coefficient algebraically in C++ (exponents from GMP, powers with the library's Fp2 arithmetic).
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "ff/fp12.hpp"
#include "support/files.hpp"

namespace {

using pp::ff::fp;
using pp::ff::fp2;
using pp::ff::fp_params;
using pp::ff::fp2_from_table;
using pp::ff::tower_params;

mpz_class from_limbs(const uint64_t* v, int n) {
  mpz_class r;
  mpz_import(r.get_mpz_t(), n, -1, sizeof(uint64_t), 0, 0, v);
  return r;
}

std::vector<uint64_t> to_limbs(const mpz_class& v) {
  std::vector<uint64_t> out((mpz_sizeinbase(v.get_mpz_t(), 2) + 63) / 64 + 1, 0);
  size_t count = 0;
  mpz_export(out.data(), &count, -1, sizeof(uint64_t), 0, 0, v.get_mpz_t());
  return out;
}

fp2 pow(const fp2& a, const mpz_class& e) {
  const std::vector<uint64_t> l = to_limbs(e);
  return a.pow(l.data(), static_cast<int>(l.size()));
}

const mpz_class p = from_limbs(fp_params::modulus, 6);
const fp2 xi{fp::one(), fp::one()};

TEST(TowerConstants, GeneratorReproducesHeader) {
  const std::string dir = pp::test::source_dir().string();
  if (!std::filesystem::exists(dir + "/scripts/gen_tower_constants.py")) {
    GTEST_SKIP() << "scripts/gen_tower_constants.py is not under " << dir << " (ctest sets PP_SOURCE_DIR)";
  }
  if (std::system("command -v python3 >/dev/null 2>&1") != 0) GTEST_SKIP() << "python3 not found";
  const std::string cmd = "python3 " + dir + "/scripts/gen_tower_constants.py --check " + dir +
                          "/src/ff/bls12_381_tower_constants.hpp";
  EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
}

TEST(TowerConstants, SeedGivesModulus) {
  const mpz_class x = -from_limbs(&tower_params::seed_abs, 1);
  ASSERT_TRUE(tower_params::seed_is_negative);
  const mpz_class x2 = x * x;
  const mpz_class expect = (x - 1) * (x - 1) * (x2 * x2 - x2 + 1) / 3 + x;
  EXPECT_EQ(expect, p);
}

TEST(TowerConstants, FrobeniusCoefficients) {
  mpz_class pk = 1;
  for (int k = 0; k < 12; ++k) {
    SCOPED_TRACE("k = " + std::to_string(k));
    if (k < 6) {
      EXPECT_EQ(fp2_from_table(tower_params::frob6_c1[k]), pow(xi, (pk - 1) / 3));
      EXPECT_EQ(fp2_from_table(tower_params::frob6_c2[k]), pow(xi, 2 * (pk - 1) / 3));
    }
    EXPECT_EQ(fp2_from_table(tower_params::frob12_c1[k]), pow(xi, (pk - 1) / 6));
    pk *= p;
  }
  // The tables are consistent with each other: (xi^((p^k-1)/6))^2 = xi^((p^k-1)/3).
  for (int k = 0; k < 6; ++k) {
    const fp2 g = fp2_from_table(tower_params::frob12_c1[k]);
    EXPECT_EQ(g.sqr(), fp2_from_table(tower_params::frob6_c1[k]));
    EXPECT_EQ(g.sqr().sqr(), fp2_from_table(tower_params::frob6_c2[k]));
  }
}

TEST(TowerConstants, TwistCurveCoefficient) {
  const fp2 four{fp::from_uint(4), fp::zero()};
  EXPECT_EQ(fp2_from_table(tower_params::twist_b[0]), xi * four);
  EXPECT_EQ(fp2_from_table(tower_params::twist_b3[0]), (xi * four * fp2{fp::from_uint(3), fp::zero()}));
}

TEST(TowerConstants, XiIsNeitherSquareNorCube) {
  // Needed for v^3 - xi and w^2 - v to be irreducible.
  const mpz_class q = p * p;
  EXPECT_FALSE(pow(xi, (q - 1) / 2).is_one());
  EXPECT_FALSE(pow(xi, (q - 1) / 3).is_one());
}

}  // namespace
