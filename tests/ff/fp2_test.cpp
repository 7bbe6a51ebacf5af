// fp2 against a GMP reference of Fp[u]/(u^2 + 1) written here from the definition (schoolbook
// products, no Karatsuba), for every operation: + - neg dbl * sqr inverse conjugate
// mul_by_nonresidue norm is_square pow, on edge and fresh random values.
#include "ff/fp2.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "gmp_oracle.hpp"

namespace pp::ff {
namespace {

using namespace pp::ff::testing;

constexpr int kRandom = 3000;
constexpr int kRandomPow = 200;

// a0 + a1 u with u^2 = -1, coordinates in [0, p).
struct ref2 {
  mpz_class a0, a1;
};

const mpz_class& p() {
  static const mpz_class v = modulus<fp>();
  return v;
}

ref2 add(const ref2& a, const ref2& b) { return {mod(a.a0 + b.a0, p()), mod(a.a1 + b.a1, p())}; }
ref2 sub(const ref2& a, const ref2& b) { return {mod(a.a0 - b.a0, p()), mod(a.a1 - b.a1, p())}; }
ref2 neg(const ref2& a) { return {mod(-a.a0, p()), mod(-a.a1, p())}; }
// (a0 + a1 u)(b0 + b1 u) = a0 b0 + a1 b1 u^2 + (a0 b1 + a1 b0) u, u^2 = -1.
ref2 mul(const ref2& a, const ref2& b) {
  return {mod(a.a0 * b.a0 - a.a1 * b.a1, p()), mod(a.a0 * b.a1 + a.a1 * b.a0, p())};
}
mpz_class norm(const ref2& a) { return mod(a.a0 * a.a0 + a.a1 * a.a1, p()); }
ref2 inverse(const ref2& a) {
  const mpz_class n = norm(a);
  if (n == 0) return {0, 0};
  mpz_class ni;
  mpz_invert(ni.get_mpz_t(), n.get_mpz_t(), p().get_mpz_t());
  return {mod(a.a0 * ni, p()), mod(-a.a1 * ni, p())};
}
ref2 pow(const ref2& a, const mpz_class& e) {
  ref2 r{1, 0};
  for (long i = long(mpz_sizeinbase(e.get_mpz_t(), 2)) - 1; i >= 0; --i) {
    r = mul(r, r);
    if (mpz_tstbit(e.get_mpz_t(), mp_bitcnt_t(i))) r = mul(r, a);
  }
  return e == 0 ? ref2{1, 0} : r;
}

fp2 to_fp2(const ref2& a) { return {from_mpz<fp>(a.a0), from_mpz<fp>(a.a1)}; }

// Compares coordinates and prints both sides on failure.
::testing::AssertionResult same(const fp2& got, const ref2& want) {
  const mpz_class g0 = to_mpz(got.c0), g1 = to_mpz(got.c1);
  if (g0 == want.a0 && g1 == want.a1) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "got (" << hex(g0) << ", " << hex(g1) << ") want (" << hex(want.a0)
                                       << ", " << hex(want.a1) << ")";
}

std::vector<ref2> test_values(std::mt19937_64& rng, int random) {
  std::vector<ref2> v;
  for (const auto& x : edge_values(p()))
    for (const mpz_class& y : std::vector<mpz_class>{0, 1, p() - 1, (p() - 1) / 2}) v.push_back({x, y});
  v.push_back({0, 1});  // u itself
  for (int i = 0; i < random; ++i) v.push_back({random_field_value(rng, p()), random_field_value(rng, p())});
  return v;
}

TEST(Fp2, ZeroOneEquality) {
  EXPECT_TRUE(same(fp2::zero(), {0, 0}));
  EXPECT_TRUE(same(fp2::one(), {1, 0}));
  EXPECT_TRUE(fp2::zero().is_zero());
  EXPECT_TRUE(fp2::one().is_one());
  const fp2 u{fp::zero(), fp::one()};
  EXPECT_FALSE(u.is_one());
  EXPECT_FALSE(u.is_zero());
  EXPECT_EQ(u.sqr(), -fp2::one()) << "u^2 = -1";
  EXPECT_NE(u, fp2::one());
}

TEST(Fp2, AddSubNegDblConjugate) {
  PP_SEEDED_RNG(rng);
  const auto vals = test_values(rng, kRandom);
  for (size_t i = 0; i < vals.size(); ++i) {
    const ref2& a = vals[i];
    const ref2& b = vals[(i * 7 + 3) % vals.size()];
    const fp2 x = to_fp2(a), y = to_fp2(b);
    ASSERT_TRUE(same(x + y, add(a, b)));
    ASSERT_TRUE(same(x - y, sub(a, b)));
    ASSERT_TRUE(same(-x, neg(a)));
    ASSERT_TRUE(same(x.dbl(), add(a, a)));
    ASSERT_TRUE(same(x.conjugate(), {a.a0, mod(-a.a1, p())}));
    fp2 z = x;
    z += y;
    ASSERT_EQ(z, x + y);
    z = x;
    z -= y;
    ASSERT_EQ(z, x - y);
    ASSERT_EQ(x == y, a.a0 == b.a0 && a.a1 == b.a1);
  }
}

TEST(Fp2, MulSqrScalarNonresidueNorm) {
  PP_SEEDED_RNG(rng);
  const auto vals = test_values(rng, kRandom);
  const ref2 xi{1, 1};  // the sextic non-residue 1 + u
  for (size_t i = 0; i < vals.size(); ++i) {
    const ref2& a = vals[i];
    const ref2& b = vals[(i * 13 + 5) % vals.size()];
    const fp2 x = to_fp2(a), y = to_fp2(b);
    ASSERT_TRUE(same(x * y, mul(a, b)));
    ASSERT_TRUE(same(x.sqr(), mul(a, a)));
    ASSERT_TRUE(same(x * from_mpz<fp>(b.a0), mul(a, {b.a0, 0})));
    ASSERT_TRUE(same(x.mul_by_nonresidue(), mul(a, xi)));
    ASSERT_EQ(to_mpz(x.norm()), norm(a));
    fp2 z = x;
    z *= z;
    ASSERT_EQ(z, x.sqr());
  }
}

TEST(Fp2, Inverse) {
  PP_SEEDED_RNG(rng);
  EXPECT_TRUE(fp2::zero().inverse().is_zero()) << "inverse(0) is defined as 0";
  for (const auto& a : test_values(rng, kRandom / 2)) {
    const fp2 x = to_fp2(a);
    const fp2 xi = x.inverse();
    ASSERT_TRUE(same(xi, inverse(a)));
    if (!x.is_zero()) {
      ASSERT_TRUE((x * xi).is_one());
    }
  }
}

TEST(Fp2, Pow) {
  PP_SEEDED_RNG(rng);
  const auto vals = test_values(rng, kRandomPow);
  const mpz_class p2 = p() * p();
  for (size_t i = 0; i < vals.size(); ++i) {
    const ref2& a = vals[i];
    const fp2 x = to_fp2(a);
    // Random exponents of 1..13 limbs: up to and beyond p^2 - 1 (the group order plus one).
    const int n = 1 + int(rng() % 13);
    std::vector<uint64_t> el(static_cast<size_t>(n));
    for (auto& w : el) w = rng();
    const mpz_class e = limbs_to_mpz(el.data(), n);
    ASSERT_TRUE(same(x.pow(el.data(), n), pow(a, e))) << "e=" << hex(e);
  }
  // x^(p^2 - 1) = 1 for x != 0 (Lagrange in Fp2*), x^0 = 1, x^p = conjugate(x) (Frobenius).
  for (size_t i = 0; i < 20 && i < vals.size(); ++i) {
    const fp2 x = to_fp2(vals[vals.size() - 1 - i]);
    uint64_t e[12];
    mpz_to_limbs(p2 - 1, e, 12);
    if (!x.is_zero()) {
      ASSERT_TRUE(x.pow(e, 12).is_one());
    }
    mpz_to_limbs(p(), e, 6);
    ASSERT_EQ(x.pow(e, 6), x.conjugate());
    ASSERT_TRUE(x.pow(e, 0).is_one());
  }
}

// Reference: a is a square in Fp2 iff a = 0 or a^((p^2 - 1)/2) = 1 (Euler's criterion in Fp2),
// computed with the reference arithmetic, independent of fp2's norm shortcut.
TEST(Fp2, IsSquareMatchesEulerCriterion) {
  PP_SEEDED_RNG(rng);
  const mpz_class half = (p() * p() - 1) / 2;
  int squares = 0, total = 0;
  for (const auto& a : test_values(rng, kRandomPow)) {
    const bool zero = a.a0 == 0 && a.a1 == 0;
    const ref2 c = pow(a, half);
    const bool expect = zero || (c.a0 == 1 && c.a1 == 0);
    ASSERT_EQ(to_fp2(a).is_square(), expect) << hex(a.a0) << " + " << hex(a.a1) << " u";
    squares += expect;
    ++total;
  }
  EXPECT_GT(squares, total / 5);
  EXPECT_LT(squares, total);  // every element of Fp is a square in Fp2; random ones are not all
  for (int i = 0; i < 50; ++i) {
    const fp2 x = to_fp2({random_field_value(rng, p()), random_field_value(rng, p())});
    ASSERT_TRUE(x.sqr().is_square());
  }
}

}  // namespace
}  // namespace pp::ff
