// Field axioms and the fast paths of Fp6 and Fp12 (sparse line multiplication, Frobenius maps,
// cyclotomic squaring) against generic arithmetic, on random elements drawn fresh each run.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "ff/fp12.hpp"
#include "support/test_seed.hpp"

namespace {

using pp::ff::fp;
using pp::ff::fp12;
using pp::ff::fp2;
using pp::ff::fp6;
using pp::ff::fp_params;
using pp::test::test_rng;

constexpr int kTrials = 8;

fp random_fp(std::mt19937_64& g) {
  uint64_t v[6];
  for (auto& x : v) x = g();
  v[5] %= fp_params::modulus[5];  // below p
  return fp::from_canonical_unchecked(v);
}
fp2 random_fp2(std::mt19937_64& g) { return {random_fp(g), random_fp(g)}; }
fp6 random_fp6(std::mt19937_64& g) { return {random_fp2(g), random_fp2(g), random_fp2(g)}; }
fp12 random_fp12(std::mt19937_64& g) { return {random_fp6(g), random_fp6(g)}; }

// a^(p^k) by k generic exponentiations by p.
fp12 pow_p(fp12 a, int k) {
  for (int i = 0; i < k; ++i) a = a.pow(fp_params::modulus, 6);
  return a;
}
fp6 pow_p(const fp6& a, int k) { return pow_p(fp12{a, fp6::zero()}, k).c0; }

// An element of the cyclotomic subgroup: a^((p^6 - 1)(p^2 + 1)), the easy part of the final exponentiation.
fp12 cyclotomic(const fp12& a) {
  const fp12 t = a.conjugate() * a.inverse();
  return t.frobenius_map(2) * t;
}

TEST(Fp6, FieldAxioms) {
  test_rng r;
  SCOPED_TRACE(r.trace());
  for (int i = 0; i < kTrials; ++i) {
    const fp6 a = random_fp6(r.gen), b = random_fp6(r.gen), c = random_fp6(r.gen);
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
  EXPECT_EQ(v * v * v, (fp6{fp2{fp::one(), fp::one()}, fp2::zero(), fp2::zero()}));  // v^3 = xi = 1 + u
}

TEST(Fp6, SparseMultiplication) {
  test_rng r;
  SCOPED_TRACE(r.trace());
  for (int i = 0; i < kTrials; ++i) {
    const fp6 a = random_fp6(r.gen);
    const fp2 b0 = random_fp2(r.gen), b1 = random_fp2(r.gen);
    EXPECT_EQ(a.mul_by_01(b0, b1), (a * fp6{b0, b1, fp2::zero()}));
    EXPECT_EQ(a.mul_by_1(b1), (a * fp6{fp2::zero(), b1, fp2::zero()}));
  }
}

TEST(Fp6, FrobeniusIsPowerOfP) {
  test_rng r;
  SCOPED_TRACE(r.trace());
  const fp6 a = random_fp6(r.gen);
  fp6 expect = a;
  for (int k = 1; k <= 6; ++k) {
    SCOPED_TRACE("k = " + std::to_string(k));
    expect = pow_p(expect, 1);
    EXPECT_EQ(a.frobenius_map(k), expect);
  }
  EXPECT_EQ(a.frobenius_map(0), a);
  EXPECT_EQ(a.frobenius_map(6), a);
}

TEST(Fp12, FieldAxioms) {
  test_rng r;
  SCOPED_TRACE(r.trace());
  for (int i = 0; i < kTrials; ++i) {
    const fp12 a = random_fp12(r.gen), b = random_fp12(r.gen), c = random_fp12(r.gen);
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

TEST(Fp12, PowMatchesRepeatedMultiplication) {
  test_rng r;
  SCOPED_TRACE(r.trace());
  const fp12 a = random_fp12(r.gen);
  fp12 acc = fp12::one();
  for (uint64_t e = 0; e < 20; ++e) {
    EXPECT_EQ(a.pow(&e, 1), acc);
    acc *= a;
  }
}

TEST(Fp12, FrobeniusIsPowerOfP) {
  test_rng r;
  SCOPED_TRACE(r.trace());
  const fp12 a = random_fp12(r.gen);
  fp12 expect = a;
  for (int k = 1; k <= 3; ++k) {
    SCOPED_TRACE("k = " + std::to_string(k));
    expect = pow_p(expect, 1);
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

TEST(Fp12, SparseLineMultiplication) {
  test_rng r;
  SCOPED_TRACE(r.trace());
  for (int i = 0; i < kTrials; ++i) {
    const fp12 a = random_fp12(r.gen);
    const fp2 o0 = random_fp2(r.gen), o1 = random_fp2(r.gen), o4 = random_fp2(r.gen);
    const fp12 line{fp6{o0, o1, fp2::zero()}, fp6{fp2::zero(), o4, fp2::zero()}};
    EXPECT_EQ(a.mul_by_014(o0, o1, o4), a * line);
  }
  const fp2 one = fp2::one(), zero = fp2::zero();
  EXPECT_TRUE(fp12::one().mul_by_014(one, zero, zero).is_one());
  EXPECT_TRUE(fp12::one().mul_by_014(zero, zero, zero).is_zero());
}

TEST(Fp12, CyclotomicSquaring) {
  test_rng r;
  SCOPED_TRACE(r.trace());
  for (int i = 0; i < kTrials; ++i) {
    const fp12 c = cyclotomic(random_fp12(r.gen));
    // Membership: c^(p^6 + 1) = 1 and c^(p^4 - p^2 + 1) = 1.
    EXPECT_TRUE((c.conjugate() * c).is_one());
    EXPECT_EQ(c.frobenius_map(4) * c, c.frobenius_map(2));
    EXPECT_EQ(c.cyclotomic_sqr(), c.sqr());
    EXPECT_EQ(c.cyclotomic_sqr().cyclotomic_sqr(), c.sqr().sqr());
    const uint64_t e = r.gen();
    EXPECT_EQ(c.cyclotomic_pow(e), c.pow(&e, 1));
    EXPECT_EQ(c.cyclotomic_pow(pp::ff::tower_params::seed_abs), c.pow(&pp::ff::tower_params::seed_abs, 1));
    EXPECT_EQ(c.conjugate(), c.inverse());
  }
  EXPECT_TRUE(fp12::one().cyclotomic_sqr().is_one());
  EXPECT_TRUE(fp12::one().cyclotomic_pow(0).is_one());
}

}  // namespace
