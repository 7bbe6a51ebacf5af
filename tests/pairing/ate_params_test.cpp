// The Miller loops' scalars (pairing/ate_params.hpp): BLS12-381's binary digits of |x| and BN254's
// non-adjacent form of 6x + 2 give back their values, with the digit and step counts the prepared
// lines and the cost notes rely on.
#include <gtest/gtest.h>

#include "pairing/bls12_381_ate.hpp"
#include "pairing/bn254_ate.hpp"

namespace pp::pairing {
namespace {

// The value of the digits, most significant first.
unsigned __int128 value(const loop_digits& l) {
  __int128 v = 0;
  for (int i = 0; i < l.n; ++i) v = 2 * v + l.d[i];
  return static_cast<unsigned __int128>(v);
}
int nonzero(const loop_digits& l) {
  int k = 0;
  for (int i = 0; i < l.n; ++i) k += l.d[i] != 0;
  return k;
}

TEST(AteParams, Bls12381LoopIsTheBinarySeed) {
  constexpr loop_digits l = ate_params<ec::bls12_381::family>::loop;
  EXPECT_EQ(value(l), ff::tower_params::seed_abs);
  EXPECT_EQ(l.n, 64);
  EXPECT_EQ(nonzero(l), 6);
  for (int i = 0; i < l.n; ++i) EXPECT_TRUE(l.d[i] == 0 || l.d[i] == 1);
  EXPECT_TRUE(ate_params<ec::bls12_381::family>::conjugate);
  EXPECT_FALSE(ate_params<ec::bls12_381::family>::frobenius_lines);
}

TEST(AteParams, Bn254LoopIsTheNafOf6xPlus2) {
  constexpr loop_digits l = ate_params<ec::bn254::family>::loop;
  const unsigned __int128 x = ff::bn254::tower_params::seed_abs;
  EXPECT_TRUE(value(l) == 6 * x + 2);
  EXPECT_EQ(l.d[0], 1);
  EXPECT_EQ(l.n, 66);
  EXPECT_EQ(nonzero(l), 22);
  for (int i = 0; i + 1 < l.n; ++i) EXPECT_FALSE(l.d[i] != 0 && l.d[i + 1] != 0) << "adjacent nonzero at " << i;
  EXPECT_FALSE(ate_params<ec::bn254::family>::conjugate);
  EXPECT_TRUE(ate_params<ec::bn254::family>::frobenius_lines);
}

TEST(AteParams, DigitsOfSmallValues) {
  for (unsigned v = 1; v < 2000; ++v) {
    EXPECT_TRUE(value(binary_digits(v)) == v) << v;
    const loop_digits n = naf_digits(v);
    EXPECT_TRUE(value(n) == v) << v;
    EXPECT_EQ(n.d[0], 1) << v;
    for (int i = 0; i + 1 < n.n; ++i) EXPECT_FALSE(n.d[i] != 0 && n.d[i + 1] != 0) << v;
  }
}

TEST(AteParams, ThreeTimesTheTwistCoefficient) {
  const ff::fp2 a{ff::fp::from_uint(12345), ff::fp::from_uint(678)};
  const ff::fp2 b3 = ff::fp2_from_table(ff::tower_params::twist_b3[0]);
  EXPECT_EQ(ate_params<ec::bls12_381::family>::mul_by_3b(a), a * b3);
  const ff::bn254::fp2 c{ff::bn254::fp::from_uint(12345), ff::bn254::fp::from_uint(678)};
  const ff::bn254::fp2 three{ff::bn254::fp::from_uint(3), ff::bn254::fp::zero()};
  EXPECT_EQ(ate_params<ec::bn254::family>::mul_by_3b(c), c * ec::bn254::g2_curve::b() * three);
}

}  // namespace
}  // namespace pp::pairing
