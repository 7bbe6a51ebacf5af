// mont_field<P> against GMP: every arithmetic operation of fp and fr on edge values and thousands
// of fresh random values per run. Written once as a typed suite, instantiated for BLS12-381's and
// BN254's fields.
#include "ff/mont_field.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "ff/bn254_fp.hpp"
#include "ff/bn254_fr.hpp"
#include "ff/fp.hpp"
#include "ff/fr.hpp"
#include "gmp_oracle.hpp"

namespace pp::ff {
namespace {

using namespace pp::ff::testing;

constexpr int kRandom = 20000;    // random inputs per cheap operation per run
constexpr int kRandomPow = 2000;  // per exponentiation-based operation (about 400 multiplications each)

template <class F>
class MontField : public ::testing::Test {
 protected:
  const mpz_class m = modulus<F>();

  // Calls fn on every pair of edge values and on `random` random pairs.
  void for_pairs(std::mt19937_64& rng, int random, const std::function<void(const mpz_class&, const mpz_class&)>& fn) {
    const auto edges = edge_values(m);
    for (const auto& a : edges)
      for (const auto& b : edges) fn(a, b);
    for (int i = 0; i < random; ++i) fn(random_field_value(rng, m), random_field_value(rng, m));
  }
  void for_values(std::mt19937_64& rng, int random, const std::function<void(const mpz_class&)>& fn) {
    for (const auto& a : edge_values(m)) fn(a);
    for (int i = 0; i < random; ++i) fn(random_field_value(rng, m));
  }
};

using fields = ::testing::Types<fp, fr, bn254::fp, bn254::fr>;
TYPED_TEST_SUITE(MontField, fields);

TYPED_TEST(MontField, ZeroOneAndCanonicalRoundTrip) {
  using F = TypeParam;
  EXPECT_EQ(to_mpz(F::zero()), 0);
  EXPECT_EQ(to_mpz(F::one()), 1);
  EXPECT_TRUE(F::zero().is_zero());
  EXPECT_TRUE(F::one().is_one());
  EXPECT_FALSE(F::one().is_zero());
  EXPECT_FALSE(F::zero().is_one());
  // Montgomery form of 1 is R mod m.
  EXPECT_EQ(limbs_to_mpz(F::one().l, F::n64), mod(radix<F>(), this->m));
  PP_SEEDED_RNG(rng);
  this->for_values(rng, kRandom, [&](const mpz_class& a) {
    const F x = from_mpz<F>(a);
    ASSERT_EQ(to_mpz(x), a) << hex(a);
    // Stored limbs are a*R mod m, fully reduced.
    ASSERT_EQ(limbs_to_mpz(x.l, F::n64), mod(a * radix<F>(), this->m)) << hex(a);
    F y;
    uint64_t c[F::n64];
    mpz_to_limbs(a, c, F::n64);
    ASSERT_TRUE(F::from_canonical_checked(c, y));
    ASSERT_EQ(x, y);
    ASSERT_EQ(x.is_zero(), a == 0);
    ASSERT_EQ(x.is_one(), a == 1);
  });
  for (int i = 0; i < kRandom; ++i) {
    const uint64_t u = rng();
    ASSERT_EQ(to_mpz(F::from_uint(u)), mpz_class(std::to_string(u)));
  }
}

TYPED_TEST(MontField, CheckedConversionRejectsValuesAtLeastModulus) {
  using F = TypeParam;
  const mpz_class all_ones = radix<F>() - 1;
  const mpz_class top_bits = (mpz_class(1) << F::bits) - 1;
  PP_SEEDED_RNG(rng);
  std::vector<mpz_class> bad = {this->m, this->m + 1, this->m + 2, top_bits, all_ones};
  for (int i = 0; i < 100; ++i) bad.push_back(this->m + random_below(rng, all_ones - this->m));
  for (const auto& v : bad) {
    uint64_t c[F::n64];
    mpz_to_limbs(v, c, F::n64);
    F out = F::one();
    EXPECT_FALSE(F::from_canonical_checked(c, out)) << hex(v);
    EXPECT_TRUE(out.is_one()) << "out must stay untouched on rejection";
  }
}

TYPED_TEST(MontField, Equality) {
  using F = TypeParam;
  PP_SEEDED_RNG(rng);
  this->for_pairs(rng, kRandom, [&](const mpz_class& a, const mpz_class& b) {
    ASSERT_EQ(from_mpz<F>(a) == from_mpz<F>(b), a == b);
    ASSERT_EQ(from_mpz<F>(a) != from_mpz<F>(b), a != b);
  });
}

TYPED_TEST(MontField, AddSubNegDbl) {
  using F = TypeParam;
  const mpz_class& m = this->m;
  PP_SEEDED_RNG(rng);
  this->for_pairs(rng, kRandom, [&](const mpz_class& a, const mpz_class& b) {
    const F x = from_mpz<F>(a), y = from_mpz<F>(b);
    ASSERT_EQ(to_mpz(x + y), mod(a + b, m)) << hex(a) << " + " << hex(b);
    ASSERT_EQ(to_mpz(x - y), mod(a - b, m)) << hex(a) << " - " << hex(b);
    F z = x;
    z += y;
    ASSERT_EQ(z, x + y);
    z = x;
    z -= y;
    ASSERT_EQ(z, x - y);
  });
  this->for_values(rng, kRandom, [&](const mpz_class& a) {
    const F x = from_mpz<F>(a);
    ASSERT_EQ(to_mpz(-x), mod(-a, m)) << hex(a);
    ASSERT_EQ(to_mpz(x.dbl()), mod(2 * a, m)) << hex(a);
  });
}

TYPED_TEST(MontField, MulSqr) {
  using F = TypeParam;
  const mpz_class& m = this->m;
  PP_SEEDED_RNG(rng);
  this->for_pairs(rng, kRandom, [&](const mpz_class& a, const mpz_class& b) {
    const F x = from_mpz<F>(a), y = from_mpz<F>(b);
    ASSERT_EQ(to_mpz(x * y), mod(a * b, m)) << hex(a) << " * " << hex(b);
    F z = x;
    z *= y;  // aliasing: output is an input
    ASSERT_EQ(z, x * y);
  });
  this->for_values(rng, kRandom, [&](const mpz_class& a) {
    ASSERT_EQ(to_mpz(from_mpz<F>(a).sqr()), mod(a * a, m)) << hex(a);
  });
}

TYPED_TEST(MontField, Inverse) {
  using F = TypeParam;
  const mpz_class& m = this->m;
  EXPECT_TRUE(F::zero().inverse().is_zero()) << "inverse(0) is defined as 0";
  PP_SEEDED_RNG(rng);
  this->for_values(rng, kRandomPow, [&](const mpz_class& a) {
    mpz_class expect = 0;
    if (a != 0) mpz_invert(expect.get_mpz_t(), a.get_mpz_t(), m.get_mpz_t());
    ASSERT_EQ(to_mpz(from_mpz<F>(a).inverse()), expect) << hex(a);
  });
}

TYPED_TEST(MontField, BatchInverseWithZeros) {
  using F = TypeParam;
  const mpz_class& m = this->m;
  PP_SEEDED_RNG(rng);
  batch_inverse<F>(nullptr, nullptr, 0);  // n = 0 touches nothing
  for (int64_t n : {int64_t(1), int64_t(2), int64_t(3), int64_t(17), int64_t(256), int64_t(1000)}) {
    std::vector<mpz_class> a(static_cast<size_t>(n));
    std::vector<F> v(static_cast<size_t>(n)), scratch(static_cast<size_t>(n));
    for (int64_t i = 0; i < n; ++i) {
      const uint64_t kind = rng() % 8;  // zeros inside, at the ends, and runs of them
      a[size_t(i)] = kind == 0 ? mpz_class(0) : random_field_value(rng, m);
      v[size_t(i)] = from_mpz<F>(a[size_t(i)]);
    }
    if (n > 2) v[0] = v[size_t(n - 1)] = F::zero(), a[0] = a[size_t(n - 1)] = 0;
    batch_inverse(v.data(), scratch.data(), n);
    for (int64_t i = 0; i < n; ++i) {
      mpz_class expect = 0;
      if (a[size_t(i)] != 0) mpz_invert(expect.get_mpz_t(), a[size_t(i)].get_mpz_t(), m.get_mpz_t());
      ASSERT_EQ(to_mpz(v[size_t(i)]), expect) << "n=" << n << " i=" << i;
    }
  }
  // All zeros.
  std::vector<F> z(5, F::zero()), scratch(5);
  batch_inverse(z.data(), scratch.data(), 5);
  for (const auto& x : z) EXPECT_TRUE(x.is_zero());
}

TYPED_TEST(MontField, Pow) {
  using F = TypeParam;
  const mpz_class& m = this->m;
  PP_SEEDED_RNG(rng);
  // Edge exponents on random bases: 0, 1, 2, m-1, m-2 (the Fermat inverse), 2^(64n)-1.
  const std::vector<mpz_class> edge_exps = {0, 1, 2, m - 1, m - 2, radix<F>() - 1};
  this->for_values(rng, kRandomPow / 4, [&](const mpz_class& a) {
    const F x = from_mpz<F>(a);
    for (const auto& e : edge_exps) {
      uint64_t el[F::n64];
      mpz_to_limbs(e, el, F::n64);
      mpz_class expect;
      mpz_powm(expect.get_mpz_t(), a.get_mpz_t(), e.get_mpz_t(), m.get_mpz_t());  // 0^0 = 1 in both
      ASSERT_EQ(to_mpz(x.pow(el, F::n64)), expect) << hex(a) << "^" << hex(e);
    }
  });
  for (int i = 0; i < kRandomPow; ++i) {
    const mpz_class a = random_field_value(rng, m);
    const F x = from_mpz<F>(a);
    // Multi-limb exponent of random length (1..n64+1 limbs: also exponents above m).
    const int n = 1 + int(rng() % (F::n64 + 1));
    std::vector<uint64_t> el(static_cast<size_t>(n));
    for (auto& w : el) w = rng();
    const mpz_class e = limbs_to_mpz(el.data(), n);
    mpz_class expect;
    mpz_powm(expect.get_mpz_t(), a.get_mpz_t(), e.get_mpz_t(), m.get_mpz_t());
    ASSERT_EQ(to_mpz(x.pow(el.data(), n)), expect) << hex(a) << "^" << hex(e);
    // The 64-bit exponent overload.
    const uint64_t u = rng() >> (rng() % 64);
    mpz_powm(expect.get_mpz_t(), a.get_mpz_t(), mpz_class(std::to_string(u)).get_mpz_t(), m.get_mpz_t());
    ASSERT_EQ(to_mpz(x.pow(u)), expect) << hex(a) << "^" << u;
  }
}

TYPED_TEST(MontField, IsSquareMatchesLegendre) {
  using F = TypeParam;
  const mpz_class& m = this->m;
  PP_SEEDED_RNG(rng);
  int squares = 0, total = 0;
  this->for_values(rng, kRandomPow, [&](const mpz_class& a) {
    const int legendre = mpz_legendre(a.get_mpz_t(), m.get_mpz_t());
    ASSERT_EQ(legendre, mpz_jacobi(a.get_mpz_t(), m.get_mpz_t()));
    ASSERT_EQ(from_mpz<F>(a).is_square(), legendre >= 0) << hex(a);
    squares += legendre >= 0;
    ++total;
  });
  // Squares of random values are squares; about half of all values are.
  for (int i = 0; i < 200; ++i) {
    const F x = from_mpz<F>(random_field_value(rng, m));
    ASSERT_TRUE(x.sqr().is_square());
  }
  EXPECT_GT(squares, total / 4);
  EXPECT_LT(squares, 3 * total / 4);
}

}  // namespace
}  // namespace pp::ff
