// BLS12-381's GLV split (msm/glv_bls12_381.hpp) against fr arithmetic: k1 + k2 z^2 == k with both
// halves below z^2, for random scalars and the edges around multiples of z^2; the 128-bit signed
// digits recompose their value for every width; and phi acts on G1 as [-z^2], the identity the split
// relies on. BN254's split: glv_bn254_test.cpp.
#include "msm/glv_bls12_381.hpp"

#include <gtest/gtest.h>

#include "ec/subgroup.hpp"
#include "msm/msm_test_inputs.hpp"
#include "msm/window.hpp"
#include "support/test_seed.hpp"

namespace pp::msm {
namespace {

using ff::fr;

fr from_limbs(uint64_t l0, uint64_t l1, uint64_t l2 = 0, uint64_t l3 = 0) {
  const uint64_t v[4] = {l0, l1, l2, l3};
  return fr::from_canonical_unchecked(v);
}

// z^2 as a 128-bit integer.
unsigned __int128 z2() { return static_cast<unsigned __int128>(ec::bls_seed_abs) * ec::bls_seed_abs; }

fr z2_fr() { return from_limbs(static_cast<uint64_t>(z2()), static_cast<uint64_t>(z2() >> 64)); }

using split = glv<ec::g1_curve>;

void expect_split(const fr& k) {
  canonical_scalar c;
  k.to_canonical(c.l);
  const canonical_scalar s = split::split(c);
  EXPECT_FALSE(split::half(s, 0).negative);
  EXPECT_TRUE(split::half(s, 1).negative);
  const unsigned __int128 k1 = (static_cast<unsigned __int128>(s.l[1]) << 64) | s.l[0];
  const unsigned __int128 k2 = (static_cast<unsigned __int128>(s.l[3]) << 64) | s.l[2];
  EXPECT_LT(k1, z2());
  EXPECT_LT(k2, z2());
  EXPECT_EQ(from_limbs(s.l[0], s.l[1]) + from_limbs(s.l[2], s.l[3]) * z2_fr(), k);
}

TEST(GlvSplit, RecomposesRandomAndEdgeScalars) {
  SCOPED_TRACE(pp::test::replay_hint());
  std::mt19937_64 rng = pp::test::seeded_rng();
  for (const fr& k : testing::random_scalars(rng, 2000)) expect_split(k);
  const fr one = fr::one();
  for (const fr& k : {fr::zero(), one, testing::r_minus_1(), z2_fr() - one, z2_fr(), z2_fr() + one,
                      z2_fr() * z2_fr() - one, z2_fr() * z2_fr(), testing::r_minus_1() - z2_fr()}) {
    expect_split(k);
  }
  // k = q z^2 + rem for random q < z^2 and rem < z^2 (where k < r): the split must return exactly those.
  for (int i = 0; i < 200; ++i) {
    const unsigned __int128 q = ((static_cast<unsigned __int128>(rng()) << 64) | rng()) % z2();
    const unsigned __int128 rem = ((static_cast<unsigned __int128>(rng()) << 64) | rng()) % z2();
    const fr k = from_limbs(static_cast<uint64_t>(rem), static_cast<uint64_t>(rem >> 64)) +
                 from_limbs(static_cast<uint64_t>(q), static_cast<uint64_t>(q >> 64)) * z2_fr();
    canonical_scalar c;
    k.to_canonical(c.l);
    const canonical_scalar s = split::split(c);
    // (z^2 - 1) z^2 = r - 1, so q z^2 + rem wraps mod r only for q = z^2 - 1 (then only the
    // recomposition can be checked); otherwise the halves are exactly rem and q.
    if (q < z2() - 1) {
      EXPECT_EQ(s.l[0], static_cast<uint64_t>(rem));
      EXPECT_EQ(s.l[1], static_cast<uint64_t>(rem >> 64));
      EXPECT_EQ(s.l[2], static_cast<uint64_t>(q));
      EXPECT_EQ(s.l[3], static_cast<uint64_t>(q >> 64));
    }
    expect_split(k);
  }
}

TEST(GlvDigits, RecomposeTheHalf) {
  SCOPED_TRACE(pp::test::replay_hint());
  std::mt19937_64 rng = pp::test::seeded_rng();
  std::vector<std::pair<uint64_t, uint64_t>> halves = {{0, 0}, {1, 0}, {~uint64_t{0}, ~uint64_t{0}},
                                                       {0, uint64_t{1} << 63}, {~uint64_t{0}, 0}};
  for (int i = 0; i < 20; ++i) halves.emplace_back(rng(), rng());
  for (const auto& [lo, hi] : halves) {
    for (int c = 1; c <= max_window_bits; ++c) {
      const int windows = (split::digit_bits + c - 1) / c;
      fr acc = fr::zero();
      const fr radix = fr::from_uint(uint64_t{1} << c);
      for (int w = windows - 1; w >= 0; --w) {
        const int32_t d = glv_digit(lo, hi, w, c);
        ASSERT_LE(std::abs(int64_t{d}), int64_t{1} << (c - 1)) << "c " << c << " w " << w;
        acc = acc * radix + (d >= 0 ? fr::from_uint(d) : -fr::from_uint(-int64_t{d}));
      }
      ASSERT_EQ(acc, from_limbs(lo, hi)) << "c " << c;
    }
  }
}

TEST(GlvEndomorphism, PhiIsMinusZSquared) {
  SCOPED_TRACE(pp::test::replay_hint());
  std::mt19937_64 rng = pp::test::seeded_rng();
  for (const auto& p : testing::random_points<ec::g1_curve>(8, rng)) {
    EXPECT_TRUE(ec::to_jacobian(ec::endomorphism_phi(p)) == ec::scalar_mul(p, -z2_fr()));
  }
}

}  // namespace
}  // namespace pp::msm
