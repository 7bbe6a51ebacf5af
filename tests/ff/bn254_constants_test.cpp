// bn254_constants.hpp is exactly what scripts/gen_constants.py --curve bn254 prints, and every
// constant in it is recomputed here with GMP from the curve seed x alone (independent of the Python
// generator).
#include "ff/bn254_constants.hpp"

#include <gtest/gtest.h>

#include "constants_check.hpp"

namespace pp::ff::bn254 {
namespace {

using namespace pp::ff::testing;

// BN family: p = 36x^4 + 36x^3 + 24x^2 + 6x + 1, r = 36x^4 + 36x^3 + 18x^2 + 6x + 1, x = 4965661367192848881.
const mpz_class& seed() {
  static const mpz_class x("4965661367192848881");
  return x;
}
mpz_class poly(int c2) {
  const mpz_class& x = seed();
  return 36 * x * x * x * x + 36 * x * x * x + c2 * x * x + 6 * x + 1;
}
mpz_class curve_p() { return poly(24); }
mpz_class curve_r() { return poly(18); }

TEST(Bn254Constants, SeedGivesTheKnownModuli) {
  EXPECT_EQ(curve_p(), mpz_class("21888242871839275222246405745257275088696311157297823662689037894645226208583"));
  EXPECT_EQ(curve_r(), mpz_class("21888242871839275222246405745257275088548364400416034343698204186575808495617"));
  EXPECT_NE(mpz_probab_prime_p(curve_p().get_mpz_t(), 30), 0);
  EXPECT_NE(mpz_probab_prime_p(curve_r().get_mpz_t(), 30), 0);
  EXPECT_EQ(curve_p() - curve_r(), 6 * seed() * seed());
}

TEST(Bn254Constants, FpRecomputed) {
  const mpz_class p = curve_p();
  check_common<fp_params>(p);
  EXPECT_EQ(fp_params::n64, 4);
  EXPECT_EQ(fp_params::bits, 254);
  EXPECT_EQ(mod(p, 4), 3);
  EXPECT_EQ(limbs_to_mpz(fp_params::sqrt_exp, 4), (p + 1) / 4);
  EXPECT_EQ(limbs_to_mpz(fp_params::p_minus_3_div_4, 4), (p - 3) / 4);
}

TEST(Bn254Constants, FrRecomputed) {
  const mpz_class r = curve_r();
  check_common<fr_params>(r);
  EXPECT_EQ(fr_params::n64, 4);
  const int s = int(mpz_scan1(mpz_class(r - 1).get_mpz_t(), 0));
  EXPECT_EQ(fr_params::two_adicity, s);
  EXPECT_EQ(s, 28);
  const mpz_class R = mpz_class(1) << 256;
  EXPECT_EQ(limbs_to_mpz(fr_params::generator, 4), mod(5 * R, r));
  mpz_class root;
  const mpz_class t = (r - 1) >> s;
  mpz_powm(root.get_mpz_t(), mpz_class(5).get_mpz_t(), t.get_mpz_t(), r.get_mpz_t());
  EXPECT_EQ(limbs_to_mpz(fr_params::root_of_unity, 4), mod(root * R, r));
  EXPECT_EQ(limbs_to_mpz(fr_params::snarkjs_root_of_unity, 4), mod(root * R, r));
  // The 2^28-th root snarkjs (ffjavascript) uses for bn128, from the smallest non-residue 5.
  EXPECT_EQ(root, mpz_class("2a3c09f0a58a7e8500e0a7eb8ef62abc402d111e41112ed49bd61b6e725b19f0", 16));
  for (int k = 2; k < 5; ++k) EXPECT_EQ(mpz_legendre(mpz_class(k).get_mpz_t(), r.get_mpz_t()), 1) << k;
  EXPECT_EQ(mpz_legendre(mpz_class(5).get_mpz_t(), r.get_mpz_t()), -1);
}

TEST(Bn254Constants, HeaderMatchesGenerator) {
  check_generated_header("gen_constants.py", "--curve bn254", "bn254_constants.hpp");
}

}  // namespace
}  // namespace pp::ff::bn254
