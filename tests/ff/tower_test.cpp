// Field axioms and the fast paths of Fp6 and Fp12 (sparse line multiplication, Frobenius maps,
// cyclotomic squaring) against generic arithmetic, on random elements drawn fresh each run. Written
// once over the tower traits, instantiated for BLS12-381's and BN254's towers.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "ff/bn254_tower.hpp"
#include "ff/fp12.hpp"
#include "support/test_seed.hpp"

namespace {

using pp::test::test_rng;

constexpr int kTrials = 8;

// Names of one tower's fields, for the typed suites.
template <class T>
struct tower_types {
  using fp = typename T::fp;
  using fp2 = pp::ff::fp2_t<T>;
  using fp6 = pp::ff::fp6_t<T>;
  using fp12 = pp::ff::fp12_t<T>;
};

template <class F>
F random_fp(std::mt19937_64& g) {
  uint64_t v[F::n64];
  for (auto& x : v) x = g();
  v[F::n64 - 1] %= F::params::modulus[F::n64 - 1];  // below p
  return F::from_canonical_unchecked(v);
}
template <class T>
pp::ff::fp2_t<T> random_fp2(std::mt19937_64& g) {
  return {random_fp<typename T::fp>(g), random_fp<typename T::fp>(g)};
}
template <class T>
pp::ff::fp6_t<T> random_fp6(std::mt19937_64& g) {
  return {random_fp2<T>(g), random_fp2<T>(g), random_fp2<T>(g)};
}
template <class T>
pp::ff::fp12_t<T> random_fp12(std::mt19937_64& g) {
  return {random_fp6<T>(g), random_fp6<T>(g)};
}

// a^(p^k) by k generic exponentiations by p.
template <class T>
pp::ff::fp12_t<T> pow_p(pp::ff::fp12_t<T> a, int k) {
  using P = typename T::fp::params;
  for (int i = 0; i < k; ++i) a = a.pow(P::modulus, P::n64);
  return a;
}
template <class T>
pp::ff::fp6_t<T> pow_p(const pp::ff::fp6_t<T>& a, int k) {
  return pow_p<T>(pp::ff::fp12_t<T>{a, pp::ff::fp6_t<T>::zero()}, k).c0;
}

// An element of the cyclotomic subgroup: a^((p^6 - 1)(p^2 + 1)), the easy part of the final exponentiation.
template <class T>
pp::ff::fp12_t<T> cyclotomic(const pp::ff::fp12_t<T>& a) {
  const pp::ff::fp12_t<T> t = a.conjugate() * a.inverse();
  return t.frobenius_map(2) * t;
}

template <class T>
class Fp6 : public ::testing::Test {};
template <class T>
class Fp12 : public ::testing::Test {};
using towers = ::testing::Types<pp::ff::bls12_381::tower, pp::ff::bn254::tower>;
TYPED_TEST_SUITE(Fp6, towers);
TYPED_TEST_SUITE(Fp12, towers);

TYPED_TEST(Fp6, FieldAxioms) {
  using fp = typename tower_types<TypeParam>::fp;
  using fp2 = typename tower_types<TypeParam>::fp2;
  using fp6 = typename tower_types<TypeParam>::fp6;
  test_rng r;
  SCOPED_TRACE(r.trace());
  for (int i = 0; i < kTrials; ++i) {
    const fp6 a = random_fp6<TypeParam>(r.gen), b = random_fp6<TypeParam>(r.gen), c = random_fp6<TypeParam>(r.gen);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ((a + b) - b, a);
    EXPECT_EQ(a + (-a), fp6::zero());
    EXPECT_EQ(a.sqr(), a * a);
    EXPECT_EQ(a.dbl(), a + a);
    EXPECT_EQ(a * fp6::one(), a);
    EXPECT_TRUE((a * a.inverse()).is_one());
    const fp6 v{fp2::zero(), fp2::one(), fp2::zero()};
    EXPECT_EQ(a.mul_by_nonresidue(), a * v);
    EXPECT_EQ(a * b.c1, (a * fp6{b.c1, fp2::zero(), fp2::zero()}));
  }
  EXPECT_TRUE(fp6::zero().inverse().is_zero());
  EXPECT_TRUE(fp6::one().inverse().is_one());
  const fp6 v{fp2::zero(), fp2::one(), fp2::zero()};
  const fp2 xi{fp::from_uint(TypeParam::params::xi_c0), fp::one()};
  EXPECT_EQ(v * v * v, (fp6{xi, fp2::zero(), fp2::zero()}));  // v^3 = xi = xi_c0 + u
  const fp2 c = random_fp2<TypeParam>(r.gen);
  EXPECT_EQ(c.mul_by_nonresidue(), c * xi);
}

TYPED_TEST(Fp6, SparseMultiplication) {
  using fp2 = typename tower_types<TypeParam>::fp2;
  using fp6 = typename tower_types<TypeParam>::fp6;
  test_rng r;
  SCOPED_TRACE(r.trace());
  for (int i = 0; i < kTrials; ++i) {
    const fp6 a = random_fp6<TypeParam>(r.gen);
    const fp2 b0 = random_fp2<TypeParam>(r.gen), b1 = random_fp2<TypeParam>(r.gen);
    EXPECT_EQ(a.mul_by_01(b0, b1), (a * fp6{b0, b1, fp2::zero()}));
    EXPECT_EQ(a.mul_by_1(b1), (a * fp6{fp2::zero(), b1, fp2::zero()}));
  }
}

TYPED_TEST(Fp6, FrobeniusIsPowerOfP) {
  using fp6 = typename tower_types<TypeParam>::fp6;
  test_rng r;
  SCOPED_TRACE(r.trace());
  const fp6 a = random_fp6<TypeParam>(r.gen);
  fp6 expect = a;
  for (int k = 1; k <= 6; ++k) {
    SCOPED_TRACE("k = " + std::to_string(k));
    expect = pow_p<TypeParam>(expect, 1);
    EXPECT_EQ(a.frobenius_map(k), expect);
  }
  EXPECT_EQ(a.frobenius_map(0), a);
  EXPECT_EQ(a.frobenius_map(6), a);
}

TYPED_TEST(Fp12, FieldAxioms) {
  using fp2 = typename tower_types<TypeParam>::fp2;
  using fp6 = typename tower_types<TypeParam>::fp6;
  using fp12 = typename tower_types<TypeParam>::fp12;
  test_rng r;
  SCOPED_TRACE(r.trace());
  for (int i = 0; i < kTrials; ++i) {
    const fp12 a = random_fp12<TypeParam>(r.gen), b = random_fp12<TypeParam>(r.gen), c = random_fp12<TypeParam>(r.gen);
    EXPECT_EQ((a * b) * c, a * (b * c));
    EXPECT_EQ(a * b, b * a);
    EXPECT_EQ(a * (b + c), a * b + a * c);
    EXPECT_EQ((a + b) - b, a);
    EXPECT_EQ(a + (-a), fp12::zero());
    EXPECT_EQ(a.sqr(), a * a);
    EXPECT_EQ(a.dbl(), a + a);
    EXPECT_EQ(a * fp12::one(), a);
    EXPECT_TRUE((a * a.inverse()).is_one());
    // w^2 = v.
    const fp12 w{fp6::zero(), fp6::one()};
    EXPECT_EQ(w.sqr(), (fp12{fp6{fp2::zero(), fp2::one(), fp2::zero()}, fp6::zero()}));
    // Conjugation is the p^6 Frobenius and a ring automorphism.
    EXPECT_EQ((a * b).conjugate(), a.conjugate() * b.conjugate());
  }
  EXPECT_TRUE(fp12::zero().inverse().is_zero());
  EXPECT_TRUE(fp12::one().inverse().is_one());
  EXPECT_TRUE(fp12::one().sqr().is_one());
}

TYPED_TEST(Fp12, PowMatchesRepeatedMultiplication) {
  using fp12 = typename tower_types<TypeParam>::fp12;
  test_rng r;
  SCOPED_TRACE(r.trace());
  const fp12 a = random_fp12<TypeParam>(r.gen);
  fp12 acc = fp12::one();
  for (uint64_t e = 0; e < 20; ++e) {
    EXPECT_EQ(a.pow(&e, 1), acc);
    acc *= a;
  }
}

TYPED_TEST(Fp12, FrobeniusIsPowerOfP) {
  using fp12 = typename tower_types<TypeParam>::fp12;
  test_rng r;
  SCOPED_TRACE(r.trace());
  const fp12 a = random_fp12<TypeParam>(r.gen);
  fp12 expect = a;
  for (int k = 1; k <= 3; ++k) {
    SCOPED_TRACE("k = " + std::to_string(k));
    expect = pow_p<TypeParam>(expect, 1);
    EXPECT_EQ(a.frobenius_map(k), expect);
  }
  // The other powers by composition of the (now checked) first one.
  fp12 composed = a;
  for (int k = 1; k <= 12; ++k) {
    SCOPED_TRACE("k = " + std::to_string(k));
    composed = composed.frobenius_map(1);
    EXPECT_EQ(a.frobenius_map(k), composed);
  }
  EXPECT_EQ(a.frobenius_map(6), a.conjugate());
  EXPECT_EQ(a.frobenius_map(12), a);
  EXPECT_EQ(a.frobenius_map(0), a);
}

TYPED_TEST(Fp12, SparseLineMultiplication) {
  using fp2 = typename tower_types<TypeParam>::fp2;
  using fp6 = typename tower_types<TypeParam>::fp6;
  using fp12 = typename tower_types<TypeParam>::fp12;
  test_rng r;
  SCOPED_TRACE(r.trace());
  for (int i = 0; i < kTrials; ++i) {
    const fp12 a = random_fp12<TypeParam>(r.gen);
    const fp2 o0 = random_fp2<TypeParam>(r.gen), o1 = random_fp2<TypeParam>(r.gen), o4 = random_fp2<TypeParam>(r.gen);
    const fp12 line{fp6{o0, o1, fp2::zero()}, fp6{fp2::zero(), o4, fp2::zero()}};
    EXPECT_EQ(a.mul_by_014(o0, o1, o4), a * line);
    // The D-type twist's shape: o0 + o3 w + o4 w^3 at c0.c0, c1.c0, c1.c1.
    const fp2 o3 = random_fp2<TypeParam>(r.gen);
    const fp12 line_d{fp6{o0, fp2::zero(), fp2::zero()}, fp6{o3, o4, fp2::zero()}};
    EXPECT_EQ(a.mul_by_034(o0, o3, o4), a * line_d);
  }
  const fp2 one = fp2::one(), zero = fp2::zero();
  EXPECT_TRUE(fp12::one().mul_by_014(one, zero, zero).is_one());
  EXPECT_TRUE(fp12::one().mul_by_014(zero, zero, zero).is_zero());
  EXPECT_TRUE(fp12::one().mul_by_034(one, zero, zero).is_one());
  EXPECT_TRUE(fp12::one().mul_by_034(zero, zero, zero).is_zero());
}

TYPED_TEST(Fp12, CyclotomicSquaring) {
  using fp12 = typename tower_types<TypeParam>::fp12;
  test_rng r;
  SCOPED_TRACE(r.trace());
  for (int i = 0; i < kTrials; ++i) {
    const fp12 c = cyclotomic<TypeParam>(random_fp12<TypeParam>(r.gen));
    // Membership: c^(p^6 + 1) = 1 and c^(p^4 - p^2 + 1) = 1.
    EXPECT_TRUE((c.conjugate() * c).is_one());
    EXPECT_EQ(c.frobenius_map(4) * c, c.frobenius_map(2));
    EXPECT_EQ(c.cyclotomic_sqr(), c.sqr());
    EXPECT_EQ(c.cyclotomic_sqr().cyclotomic_sqr(), c.sqr().sqr());
    const uint64_t e = r.gen();
    EXPECT_EQ(c.cyclotomic_pow(e), c.pow(&e, 1));
    EXPECT_EQ(c.cyclotomic_pow(TypeParam::params::seed_abs), c.pow(&TypeParam::params::seed_abs, 1));
    EXPECT_EQ(c.conjugate(), c.inverse());
  }
  EXPECT_TRUE(fp12::one().cyclotomic_sqr().is_one());
  EXPECT_TRUE(fp12::one().cyclotomic_pow(0).is_one());
}

}  // namespace
