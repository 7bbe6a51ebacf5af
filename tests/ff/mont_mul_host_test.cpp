// The host Montgomery multiplication paths against GMP and against each other: the portable CIOS
// (also the device fallback) and the x86-64 BMI2/ADX asm must be bit-identical, a*b/R mod m.
#include "ff/mont_mul_host.hpp"

#include <gtest/gtest.h>

#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gmp_oracle.hpp"

namespace pp::ff {
namespace {

using namespace pp::ff::testing;

constexpr int kRandom = 50000;

// Expected raw Montgomery product a * b * R^-1 mod m of limbs a, b < m.
template <class F>
mpz_class expected_mont_product(const mpz_class& a, const mpz_class& b) {
  return mod(a * b * radix_inverse<F>(), modulus<F>());
}

template <class F, class Mul>
void check_against_gmp(std::mt19937_64& rng, Mul mul) {
  const mpz_class m = modulus<F>();
  auto check = [&](const mpz_class& a, const mpz_class& b) {
    uint64_t al[F::n64], bl[F::n64], out[F::n64];
    mpz_to_limbs(a, al, F::n64);
    mpz_to_limbs(b, bl, F::n64);
    mul(out, al, bl);
    ASSERT_EQ(limbs_to_mpz(out, F::n64), expected_mont_product<F>(a, b)) << hex(a) << " * " << hex(b);
    mul(al, al, bl);  // out aliases a
    ASSERT_EQ(limbs_to_mpz(al, F::n64), limbs_to_mpz(out, F::n64));
    mpz_to_limbs(a, al, F::n64);
    mul(bl, al, bl);  // out aliases b
    ASSERT_EQ(limbs_to_mpz(bl, F::n64), limbs_to_mpz(out, F::n64));
  };
  const auto edges = edge_values(m);
  for (const auto& a : edges)
    for (const auto& b : edges) check(a, b);
  for (int i = 0; i < 20000; ++i) check(random_field_value(rng, m), random_field_value(rng, m));
}

TEST(MontMulHost, PortableFpMatchesGmp) {
  PP_SEEDED_RNG(rng);
  check_against_gmp<fp>(rng, host_path::mont_mul_portable<fp_params>);
}

TEST(MontMulHost, PortableFrMatchesGmp) {
  PP_SEEDED_RNG(rng);
  check_against_gmp<fr>(rng, host_path::mont_mul_portable<fr_params>);
}

#if PP_MONT_MUL_ADX
TEST(MontMulHost, AdxFpMatchesGmp) {
  if (!host_path::cpu_has_bmi2_adx()) GTEST_SKIP() << "this CPU lacks BMI2/ADX";
  PP_SEEDED_RNG(rng);
  check_against_gmp<fp>(rng, host_path::mont_mul_adx6<fp_params>);
}

// Fully reduced inputs chained through many products: both paths stay bit-identical.
TEST(MontMulHost, AdxAndPortableBitIdentical) {
  if (!host_path::cpu_has_bmi2_adx()) GTEST_SKIP() << "this CPU lacks BMI2/ADX";
  PP_SEEDED_RNG(rng);
  const mpz_class m = modulus<fp>();
  uint64_t x[6], y[6], p[6], q[6];
  mpz_to_limbs(random_below(rng, m), x, 6);
  for (int i = 0; i < kRandom; ++i) {
    mpz_to_limbs(random_field_value(rng, m), y, 6);
    host_path::mont_mul_portable<fp_params>(p, x, y);
    host_path::mont_mul_adx6<fp_params>(q, x, y);
    for (int k = 0; k < 6; ++k) ASSERT_EQ(p[k], q[k]) << "step " << i << " limb " << k;
    for (int k = 0; k < 6; ++k) x[k] = p[k];
  }
  // Products landing exactly on the final conditional subtraction: (m-1)^2, 1*1, R*R.
  const std::vector<mpz_class> edges = edge_values(m);
  for (const auto& a : edges) {
    for (const auto& b : edges) {
      mpz_to_limbs(a, x, 6);
      mpz_to_limbs(b, y, 6);
      host_path::mont_mul_portable<fp_params>(p, x, y);
      host_path::mont_mul_adx6<fp_params>(q, x, y);
      for (int k = 0; k < 6; ++k) ASSERT_EQ(p[k], q[k]) << hex(a) << " * " << hex(b);
    }
  }
}

TEST(MontMulHost, AdxFrMatchesGmp) {
  if (!host_path::cpu_has_bmi2_adx()) GTEST_SKIP() << "this CPU lacks BMI2/ADX";
  PP_SEEDED_RNG(rng);
  check_against_gmp<fr>(rng, host_path::mont_mul_adx4<fr_params>);
}

// The 4-limb asm against the portable CIOS on chained products and on the edge values.
TEST(MontMulHost, AdxFrAndPortableBitIdentical) {
  if (!host_path::cpu_has_bmi2_adx()) GTEST_SKIP() << "this CPU lacks BMI2/ADX";
  PP_SEEDED_RNG(rng);
  const mpz_class m = modulus<fr>();
  uint64_t x[4], y[4], p[4], q[4];
  mpz_to_limbs(random_below(rng, m), x, 4);
  for (int i = 0; i < kRandom; ++i) {
    mpz_to_limbs(random_field_value(rng, m), y, 4);
    host_path::mont_mul_portable<fr_params>(p, x, y);
    host_path::mont_mul_adx4<fr_params>(q, x, y);
    for (int k = 0; k < 4; ++k) ASSERT_EQ(p[k], q[k]) << "step " << i << " limb " << k;
    for (int k = 0; k < 4; ++k) x[k] = p[k];
  }
  for (const auto& a : edge_values(m)) {
    for (const auto& b : edge_values(m)) {
      mpz_to_limbs(a, x, 4);
      mpz_to_limbs(b, y, 4);
      host_path::mont_mul_portable<fr_params>(p, x, y);
      host_path::mont_mul_adx4<fr_params>(q, x, y);
      for (int k = 0; k < 4; ++k) ASSERT_EQ(p[k], q[k]) << hex(a) << " * " << hex(b);
    }
  }
}

TEST(MontMulHost, DispatchUsesAdxWhenAvailable) {
  EXPECT_EQ(host_path::use_adx, host_path::cpu_has_bmi2_adx());
}
#endif

}  // namespace
}  // namespace pp::ff
