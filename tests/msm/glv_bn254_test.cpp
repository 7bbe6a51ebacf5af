// BN254's GLV split (msm/glv_bn254.hpp) against GMP: lambda, the basis and the rounding constants are
// derived here from the seed alone; every split equals the exact Babai rounding computed with mpz
// (c_i = floor((2 k n_i + r) / 2r)), recomposes k = k1 + k2 lambda mod r, and stays below 2^126.
// Inputs: fresh random scalars, the field's edges, and scalars on both sides of every rounding
// boundary (k n_i / r just below and just above m + 1/2), where an inexact quotient would show.
#include "msm/glv_bn254.hpp"

#include <gtest/gtest.h>

#include "ff/gmp_oracle.hpp"
#include "support/test_seed.hpp"

namespace pp::msm {
namespace {

using ff::testing::limbs_to_mpz;
using ff::testing::mpz_to_limbs;
using split = glv<ec::bn254::g1_curve>;

struct oracle {
  mpz_class x{"4965661367192848881"};
  mpz_class r = 36 * x * x * x * x + 36 * x * x * x + 18 * x * x + 6 * x + 1;
  mpz_class lambda = ff::testing::mod(-(36 * x * x * x + 18 * x * x + 6 * x + 2), r);
  mpz_class n1 = 2 * x + 1, n2 = 6 * x * x + 4 * x + 1, a2 = 6 * x * x + 2 * x;

  mpz_class round_quotient(const mpz_class& k, const mpz_class& n) const {
    mpz_class q;
    const mpz_class num = 2 * k * n + r, den = 2 * r;
    mpz_fdiv_q(q.get_mpz_t(), num.get_mpz_t(), den.get_mpz_t());
    return q;
  }
};

mpz_class signed_half(const canonical_scalar& s, int i) {
  const glv_half h = split::half(s, i);
  const uint64_t v[2] = {h.lo, h.hi};
  const mpz_class m = limbs_to_mpz(v, 2);
  return h.negative ? mpz_class(-m) : m;
}

void expect_split(const oracle& o, const mpz_class& k) {
  canonical_scalar c;
  mpz_to_limbs(k, c.l, 4);
  const canonical_scalar s = split::split(c);
  const mpz_class c1 = o.round_quotient(k, o.n1), c2 = o.round_quotient(k, o.n2);
  const mpz_class k1 = k - c1 * o.n1 - c2 * o.a2, k2 = c2 * o.n1 - c1 * o.n2;
  EXPECT_EQ(signed_half(s, 0), k1) << "k " << ff::testing::hex(k);
  EXPECT_EQ(signed_half(s, 1), k2) << "k " << ff::testing::hex(k);
  const mpz_class bound = mpz_class(1) << 126;
  EXPECT_LT(abs(k1), bound);
  EXPECT_LT(abs(k2), bound);
  EXPECT_EQ(ff::testing::mod(k1 + k2 * o.lambda - k, o.r), 0);
  // A zero half is never stored as "negative zero": the digits would not care, but the encoding is one.
  if (k1 == 0) {
    EXPECT_FALSE(split::half(s, 0).negative);
  }
  if (k2 == 0) {
    EXPECT_FALSE(split::half(s, 1).negative);
  }
}

TEST(GlvBn254, ConstantsFollowFromTheSeed) {
  const oracle o;
  EXPECT_EQ(ff::testing::mod(o.lambda * o.lambda + o.lambda + 1, o.r), 0);
  EXPECT_EQ(ff::testing::mod(o.n1 + o.n2 * o.lambda, o.r), 0);  // v1 = (n1, n2) is in the lattice
  EXPECT_EQ(ff::testing::mod(o.a2 - o.n1 * o.lambda, o.r), 0);  // v2 = (a2, -n1) too
  EXPECT_EQ(o.n1 * (-o.n1) - o.a2 * o.n2, -o.r);                // and they span it
  namespace d = glv_bn254_detail;
  EXPECT_EQ(limbs_to_mpz(d::n1, 2), o.n1);
  EXPECT_EQ(limbs_to_mpz(d::n2, 2), o.n2);
  EXPECT_EQ(limbs_to_mpz(d::a2, 2), o.a2);
  EXPECT_EQ(limbs_to_mpz(d::r, 4), o.r);
  EXPECT_EQ(limbs_to_mpz(d::half_r, 4), (o.r + 1) / 2);
  EXPECT_EQ(limbs_to_mpz(d::g1, 3), (mpz_class(1) << 256) * o.n1 / o.r);
  EXPECT_EQ(limbs_to_mpz(d::g2, 3), (mpz_class(1) << 256) * o.n2 / o.r);
}

TEST(GlvBn254, SplitIsTheExactRoundingForRandomAndEdgeScalars) {
  SCOPED_TRACE(pp::test::replay_hint());
  std::mt19937_64 rng = pp::test::seeded_rng();
  const oracle o;
  for (int i = 0; i < 20000; ++i) expect_split(o, ff::testing::random_field_value(rng, o.r));
  for (const mpz_class& k : ff::testing::edge_values(o.r)) expect_split(o, k);
  // k n / r just below and just above m + 1/2, for both quotients: k = ceil((2m + 1) r / 2n) and k - 1.
  for (const mpz_class& n : {o.n1, o.n2}) {
    for (int i = 0; i < 2000; ++i) {
      const mpz_class m = ff::testing::random_below(rng, n - 1);
      const mpz_class num = (2 * m + 1) * o.r, den = 2 * n;
      mpz_class k;
      mpz_cdiv_q(k.get_mpz_t(), num.get_mpz_t(), den.get_mpz_t());
      if (k < o.r) expect_split(o, k);
      if (k >= 1 && k - 1 < o.r) expect_split(o, k - 1);
    }
  }
}

}  // namespace
}  // namespace pp::msm
