// ff/safegcd_inverse.hpp against GMP, for Fp and Fr: the inverse of edge values, of 2^k, 2^k - 1 and
// m - 2^k for every k, of small integers, and of fresh random values (mpz_invert); every batch of
// 30 divsteps against the divstep definition run on GMP integers (delta, f, g after each batch); and
// the step bound: g = 0 within the Theorem 11.2 bound, with the most batches any input needed.
#include "ff/safegcd_inverse.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>

#include "gmp_oracle.hpp"

namespace pp::ff::testing {
namespace {

constexpr int kRandom = 100'000;

template <class F>
class SafegcdInverse : public ::testing::Test {
 protected:
  using P = typename F::params;
  using M = safegcd::modulus30<P>;
  static constexpr int L = M::L;
  const mpz_class m = modulus<F>();

  mpz_class invert(const mpz_class& x) const {
    uint64_t in[F::n64], out[F::n64];
    mpz_to_limbs(x, in, F::n64);
    safegcd::invert<P>(out, in);
    return limbs_to_mpz(out, F::n64);
  }
  mpz_class expected(const mpz_class& x) const {
    mpz_class r = 0;
    if (x != 0) mpz_invert(r.get_mpz_t(), x.get_mpz_t(), m.get_mpz_t());
    return r;
  }
  static mpz_class value(const safegcd::signed30<L>& a) {
    mpz_class v = 0;
    for (int i = L - 1; i >= 0; --i) v = v * (mpz_class(1) << safegcd::batch_steps) + a.l[i];
    return v;
  }
};

using fields = ::testing::Types<fp, fr>;
TYPED_TEST_SUITE(SafegcdInverse, fields);

TYPED_TEST(SafegcdInverse, Sizes) {
  using F = TypeParam;
  EXPECT_EQ(safegcd::step_bound(381), 1101);
  EXPECT_EQ(safegcd::step_bound(255), 738);
  // 30 L - 1 bits hold the value bits, a sign bit and a factor of 2 of headroom for (-2m, m).
  EXPECT_GE(safegcd::batch_steps * this->L - 1, F::bits + 2);
  EXPECT_EQ(this->value(TestFixture::M::m), this->m);
  EXPECT_EQ((uint64_t(TestFixture::M::inv30) * mpz_class(this->m % (1u << 30)).get_ui()) % (1u << 30), 1u);
}

TYPED_TEST(SafegcdInverse, EdgeAndStructuredValues) {
  using F = TypeParam;
  const mpz_class& m = this->m;
  std::vector<mpz_class> xs = edge_values(m);
  for (int k = 0; k < F::bits; ++k) {
    const mpz_class p2 = mpz_class(1) << k;
    for (const mpz_class& x : {p2, mpz_class(p2 - 1), mpz_class(m - p2)})
      if (x >= 0 && x < m) xs.push_back(x);
  }
  for (unsigned long v = 0; v < 1000; ++v) xs.push_back(v);
  for (const auto& x : xs) ASSERT_EQ(this->invert(x), this->expected(x)) << hex(x);
}

TYPED_TEST(SafegcdInverse, MatchesGmpOnRandomValues) {
  PP_SEEDED_RNG(rng);
  for (int i = 0; i < kRandom; ++i) {
    const mpz_class x = random_field_value(rng, this->m);
    ASSERT_EQ(this->invert(x), this->expected(x)) << hex(x);
  }
}

// divstep as defined in the paper, on whole integers.
void divstep(long& delta, mpz_class& f, mpz_class& g) {
  if (delta > 0 && mpz_odd_p(g.get_mpz_t())) {
    delta = 1 - delta;
    const mpz_class t = g - f;
    f = g;
    g = t;
  } else {
    delta = 1 + delta;
    if (mpz_odd_p(g.get_mpz_t())) g += f;
  }
  mpz_fdiv_q_2exp(g.get_mpz_t(), g.get_mpz_t(), 1);  // exact: g is even here
}

TYPED_TEST(SafegcdInverse, BatchesFollowTheDivstepDefinitionAndMeetTheBound) {
  using M = typename TestFixture::M;
  constexpr int L = TestFixture::L;
  PP_SEEDED_RNG(rng);
  int most_batches = 0;
  std::vector<mpz_class> xs = edge_values(this->m);  // zero among them, every run
  for (int i = 0; i < 2000; ++i) xs.push_back(random_field_value(rng, this->m));
  for (const mpz_class& x : xs) {
    uint64_t in[TypeParam::n64];
    mpz_to_limbs(x, in, TypeParam::n64);
    safegcd::signed30<L> f = M::m, g;
    safegcd::to_signed30<TypeParam::n64>(g, in);
    int32_t delta = 1;
    long ref_delta = 1;
    mpz_class ref_f = this->m, ref_g = x;
    int needed = x == 0 ? 0 : -1;
    for (int b = 0; b < M::batches; ++b) {
      safegcd::matrix t;
      delta = safegcd::divsteps_30(delta, uint32_t(f.l[0]), uint32_t(g.l[0]), t);
      ASSERT_LE(std::abs(int64_t(t.u)) + std::abs(int64_t(t.v)), int64_t(1) << safegcd::batch_steps);
      ASSERT_LE(std::abs(int64_t(t.q)) + std::abs(int64_t(t.r)), int64_t(1) << safegcd::batch_steps);
      safegcd::update_fg(f, g, t);
      for (int s = 0; s < safegcd::batch_steps; ++s) divstep(ref_delta, ref_f, ref_g);
      ASSERT_EQ(delta, ref_delta) << "batch " << b << " of " << hex(x);
      ASSERT_EQ(this->value(f), ref_f) << "batch " << b << " of " << hex(x);
      ASSERT_EQ(this->value(g), ref_g) << "batch " << b << " of " << hex(x);
      if (needed < 0 && ref_g == 0) needed = b + 1;
    }
    // The divsteps end at f = +-gcd(m, x): +-1 for a unit, +-m for zero.
    const mpz_class gcd = x == 0 ? this->m : mpz_class(1);
    ASSERT_EQ(ref_g, 0) << hex(x);
    ASSERT_TRUE(ref_f == gcd || ref_f == -gcd) << hex(x);
    most_batches = std::max(most_batches, needed);
  }
  ::testing::Test::RecordProperty("most_batches", most_batches);
  std::printf("most batches needed: %d of %d\n", most_batches, M::batches);
}

}  // namespace
}  // namespace pp::ff::testing
