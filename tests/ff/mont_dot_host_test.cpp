// The host's fused sum of products (ff/mont_dot_host.hpp) against GMP: mont_dot_adx4 for K = 1..4
// on BN254's p and r, a[k] up to m inclusive (a subtracted product's m - 0), and signed_dot's signs;
// then BN254 Fp2 products and a*b - c*d by the fused formulas against Karatsuba's.
#include "ff/mont_dot_host.hpp"

#include <gtest/gtest.h>

#include <array>

#include "ff/bn254_fr.hpp"
#include "ff/bn254_tower.hpp"
#include "gmp_oracle.hpp"

namespace pp::ff {
namespace {

using namespace pp::ff::testing;

#if PP_MONT_MUL_ADX

// sum_k a[k] b[k] R^-1 mod m, computed by mont_dot_adx4 and by GMP.
template <class F, int K>
void check_dot(const std::array<mpz_class, K>& a, const std::array<mpz_class, K>& b) {
  const mpz_class m = modulus<F>();
  uint64_t al[K][F::n64], bl[K][F::n64], out[F::n64];
  const uint64_t* ap[K];
  const uint64_t* bp[K];
  mpz_class want = 0;
  for (int k = 0; k < K; ++k) {
    mpz_to_limbs(a[k], al[k], F::n64);
    mpz_to_limbs(b[k], bl[k], F::n64);
    ap[k] = al[k];
    bp[k] = bl[k];
    want += a[k] * b[k];
  }
  host_path::mont_dot_adx4<typename F::params, K>(out, ap, bp);
  std::string what;
  for (int k = 0; k < K; ++k) what += " + " + hex(a[k]) + " * " + hex(b[k]);
  ASSERT_EQ(limbs_to_mpz(out, F::n64), mod(want * radix_inverse<F>(), m)) << what;
}

// Random operands with a[k] in [0, m] (m itself: a negated zero) and b[k] in [0, m), and every
// operand at once at its largest and at the edges.
template <class F, int K>
void check_dots(std::mt19937_64& rng) {
  const mpz_class m = modulus<F>();
  std::array<mpz_class, K> a, b;
  for (int i = 0; i < 20000; ++i) {
    for (int k = 0; k < K; ++k) {
      a[k] = rng() % 64 == 0 ? m : random_field_value(rng, m);
      b[k] = random_field_value(rng, m);
    }
    check_dot<F, K>(a, b);
  }
  for (const auto& x : edge_values(m)) {
    for (const auto& y : edge_values(m)) {
      a.fill(x);
      b.fill(y);
      check_dot<F, K>(a, b);
    }
  }
  a.fill(m);
  b.fill(m - 1);
  check_dot<F, K>(a, b);
}

template <class F>
void check_all_widths() {
  PP_SEEDED_RNG(rng);
  check_dots<F, 1>(rng);
  check_dots<F, 2>(rng);
  check_dots<F, 3>(rng);
  check_dots<F, 4>(rng);
}

TEST(MontDotHost, Bn254FpMatchesGmp) {
  if (!host_path::use_adx) GTEST_SKIP() << "this CPU lacks BMI2/ADX";
  check_all_widths<bn254::fp>();
}

TEST(MontDotHost, Bn254FrMatchesGmp) {
  if (!host_path::use_adx) GTEST_SKIP() << "this CPU lacks BMI2/ADX";
  check_all_widths<bn254::fr>();
}

#endif  // PP_MONT_MUL_ADX

// signed_dot (fused where the host allows, products apart elsewhere) against the products apart.
TEST(MontDotHost, SignedDotMatchesProducts) {
  PP_SEEDED_RNG(rng);
  using F = bn254::fp;
  const mpz_class m = modulus<F>();
  for (int i = 0; i < 5000; ++i) {
    F a[4], b[4];
    for (int k = 0; k < 4; ++k) {
      a[k] = from_mpz<F>(random_field_value(rng, m));
      b[k] = from_mpz<F>(random_field_value(rng, m));
    }
    ASSERT_EQ((F::signed_dot<2, 0b10>({a[0], a[1]}, {b[0], b[1]})), a[0] * b[0] - a[1] * b[1]);
    ASSERT_EQ((F::signed_dot<2, 0b01>({a[0], a[1]}, {b[0], b[1]})), a[1] * b[1] - a[0] * b[0]);
    ASSERT_EQ((F::signed_dot<3, 0b101>({a[0], a[1], a[2]}, {b[0], b[1], b[2]})),
              a[1] * b[1] - a[0] * b[0] - a[2] * b[2]);
    ASSERT_EQ((F::signed_dot<4, 0b0110>(a, b)), a[0] * b[0] - a[1] * b[1] - a[2] * b[2] + a[3] * b[3]);
    ASSERT_EQ(F::mul_sub(a[0], b[0], a[1], b[1]), a[0] * b[0] - a[1] * b[1]);
  }
}

// BN254's Fp2 product and a*b - c*d, whichever formula the host picks, against Karatsuba's.
TEST(MontDotHost, Bn254Fp2ProductsMatchKaratsuba) {
  PP_SEEDED_RNG(rng);
  using F = bn254::fp;
  using F2 = bn254::fp2;
  const mpz_class m = modulus<F>();
  const auto random_fp2 = [&] { return F2{from_mpz<F>(random_field_value(rng, m)), from_mpz<F>(random_field_value(rng, m))}; };
  for (int i = 0; i < 5000; ++i) {
    const F2 a = random_fp2(), b = random_fp2(), c = random_fp2(), d = random_fp2();
    ASSERT_EQ(a * b, F2::mul_inline(a, b));
    ASSERT_EQ(F2::mul_sub(a, b, c, d), F2::mul_inline(a, b) - F2::mul_inline(c, d));
  }
}

}  // namespace
}  // namespace pp::ff
