// bls12_381_constants.hpp is exactly what scripts/gen_constants.py prints, and every constant in it
// is recomputed here with GMP from the curve seed x alone (independent of the Python generator).
#include "ff/bls12_381_constants.hpp"

#include <gtest/gtest.h>

#include "constants_check.hpp"

namespace pp::ff {
namespace {

using namespace pp::ff::testing;

// BLS12 family: p = (x-1)^2 (x^4 - x^2 + 1) / 3 + x, r = x^4 - x^2 + 1, x = -0xd201000000010000.
const mpz_class& seed() {
  static const mpz_class x = -mpz_class("d201000000010000", 16);
  return x;
}
mpz_class curve_r() { return seed() * seed() * seed() * seed() - seed() * seed() + 1; }
mpz_class curve_p() {
  const mpz_class x = seed();
  return (x - 1) * (x - 1) * curve_r() / 3 + x;
}

mpz_class arr(const uint64_t* v, int n) { return limbs_to_mpz(v, n); }

TEST(Constants, SeedGivesTheKnownModuli) {
  EXPECT_EQ(curve_p(), mpz_class("1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab", 16));
  EXPECT_EQ(curve_r(), mpz_class("73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", 16));
  EXPECT_NE(mpz_probab_prime_p(curve_p().get_mpz_t(), 30), 0);
  EXPECT_NE(mpz_probab_prime_p(curve_r().get_mpz_t(), 30), 0);
}

TEST(Constants, FpRecomputed) {
  const mpz_class p = curve_p();
  check_common<fp_params>(p);
  EXPECT_EQ(fp_params::n64, 6);
  EXPECT_EQ(mod(p, 4), 3);
  EXPECT_EQ(arr(fp_params::sqrt_exp, 6), (p + 1) / 4);
  EXPECT_EQ(arr(fp_params::p_minus_3_div_4, 6), (p - 3) / 4);
}

TEST(Constants, FrRecomputed) {
  const mpz_class r = curve_r();
  check_common<fr_params>(r);
  EXPECT_EQ(fr_params::n64, 4);
  const int s = int(mpz_scan1(mpz_class(r - 1).get_mpz_t(), 0));
  EXPECT_EQ(fr_params::two_adicity, s);
  EXPECT_EQ(s, 32);
  const mpz_class R = mpz_class(1) << 256;
  EXPECT_EQ(arr(fr_params::generator, 4), mod(7 * R, r));
  mpz_class root;
  const mpz_class t = (r - 1) >> s;
  mpz_powm(root.get_mpz_t(), mpz_class(7).get_mpz_t(), t.get_mpz_t(), r.get_mpz_t());
  EXPECT_EQ(arr(fr_params::root_of_unity, 4), mod(root * R, r));
}

TEST(Constants, HeaderMatchesGenerator) {
  check_generated_header("gen_constants.py", "", "bls12_381_constants.hpp");
}

}  // namespace
}  // namespace pp::ff
