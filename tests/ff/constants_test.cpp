// bls12_381_constants.hpp is exactly what scripts/gen_constants.py prints, and every constant in it
// is recomputed here with GMP from the curve seed x alone (independent of the Python generator).
#include "ff/bls12_381_constants.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>

#include "gmp_oracle.hpp"
#include "support/files.hpp"

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

template <class P>
void check_common(const mpz_class& m) {
  const int n = P::n64;
  const mpz_class R = mpz_class(1) << (64 * n);
  EXPECT_EQ(arr(P::modulus, n), m);
  EXPECT_EQ(P::bits, int(mpz_sizeinbase(m.get_mpz_t(), 2)));
  EXPECT_EQ(arr(P::r_mod, n), mod(R, m));
  EXPECT_EQ(arr(P::r2_mod, n), mod(R * R, m));
  EXPECT_EQ(arr(P::r3_mod, n), mod(R * R * R, m));
  // inv = -m^-1 mod 2^64 and mod 2^32.
  for (int w : {64, 32}) {
    const mpz_class two_w = mpz_class(1) << w;
    mpz_class mi;
    ASSERT_NE(mpz_invert(mi.get_mpz_t(), m.get_mpz_t(), two_w.get_mpz_t()), 0);
    const mpz_class want = mod(-mi, two_w);
    const mpz_class got = w == 64 ? arr(&P::inv, 1) : mpz_class(static_cast<unsigned long>(P::inv32));
    EXPECT_EQ(got, want) << "inv" << w;
  }
  EXPECT_EQ(arr(P::m_minus_2, n), m - 2);
  EXPECT_EQ(arr(P::m_minus_1_half, n), (m - 1) / 2);
}

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
  const std::string dir = pp::test::source_dir().string();
  if (!std::filesystem::exists(dir + "/scripts/gen_constants.py")) {
    GTEST_SKIP() << "scripts/gen_constants.py is not under " << dir << " (ctest sets PP_SOURCE_DIR)";
  }
  if (std::system("python3 --version > /dev/null 2>&1") != 0) GTEST_SKIP() << "python3 not found";
  const std::string cmd = "python3 '" + dir + "/scripts/gen_constants.py' --check '" + dir +
                          "/src/ff/bls12_381_constants.hpp'";
  const int rc = std::system(cmd.c_str());
  EXPECT_EQ(rc, 0) << cmd;
}

}  // namespace
}  // namespace pp::ff
