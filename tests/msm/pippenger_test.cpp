// Pippenger against the naive reference on G1 and G2: sizes around powers of two, random and
// witness-like scalars, forced window widths, infinity, repeated points, P / -P pairs, r - 1.
// Also checks the Booth digits and the window plan on their own.
#include "msm/pippenger.hpp"

#include <gtest/gtest.h>

#include "msm/glv_bls12_381.hpp"
#include "msm/glv_bn254.hpp"
#include "msm/msm_test_inputs.hpp"
#include "msm/naive_msm.hpp"
#include "msm/window.hpp"
#include "support/test_seed.hpp"

namespace pp::msm {
namespace {

using testing::r_minus_1;
using testing::random_points;
using testing::random_scalars;
using testing::witness_scalars;

TEST(BoothDigits, RecomposeToTheScalar) {
  SCOPED_TRACE(pp::test::replay_hint());
  std::mt19937_64 rng = pp::test::seeded_rng();
  std::vector<ff::fr> ks = random_scalars(rng, 20);
  ks.push_back(ff::fr::zero());
  ks.push_back(ff::fr::one());
  ks.push_back(r_minus_1());
  for (const auto& k : ks) {
    canonical_scalar cs;
    k.to_canonical(cs.l);
    for (int c = 1; c <= max_window_bits; ++c) {
      const int w_count = num_windows(c);
      ASSERT_GE(c * w_count, 256);
      ff::fr acc = ff::fr::zero();
      const ff::fr radix = ff::fr::from_uint(uint64_t{1} << c);
      for (int w = w_count - 1; w >= 0; --w) {
        const int32_t d = booth_digit(cs, w, c);
        ASSERT_LE(std::abs(int64_t{d}), int64_t{1} << (c - 1)) << "c " << c << " w " << w;
        const ff::fr fd = d >= 0 ? ff::fr::from_uint(d) : -ff::fr::from_uint(-int64_t{d});
        acc = acc * radix + fd;
      }
      ASSERT_EQ(acc, k) << "c " << c;
    }
  }
}

TEST(WindowPlan, CoversTheScalarAndUsesOneChunkOnOneThread) {
  for (int64_t n : {int64_t{1}, int64_t{2}, int64_t{100}, int64_t{1} << 12, int64_t{1} << 20, int64_t{1} << 27}) {
    for (int threads : {1, 2, 16, 128}) {
      const msm_plan p = choose_msm_plan(n, threads);
      EXPECT_GE(p.window_bits, 1);
      EXPECT_LE(p.window_bits, max_auto_window_bits);
      EXPECT_EQ(p.windows, num_windows(p.window_bits));
      EXPECT_GE(p.chunks, 1);
      EXPECT_LE(p.chunks, std::max<int64_t>(1, n));
      if (threads == 1) {
        EXPECT_EQ(p.chunks, 1) << n;
      }
    }
  }
  // GLV halves (msm/glv.hpp): the windows cover the halves' digit bits, not 256.
  constexpr int glv_digit_bits = glv<ec::g1_curve>::digit_bits;
  for (int c = 1; c <= max_window_bits; ++c) {
    const msm_plan p = choose_msm_plan(1 << 17, 2, c, glv_digit_bits);
    EXPECT_EQ(p.windows, (glv_digit_bits + c - 1) / c) << c;
    EXPECT_GE(p.window_bits * p.windows, glv_digit_bits) << c;
  }
  EXPECT_EQ(choose_msm_plan(1 << 20, 4, 7).window_bits, 7);
  EXPECT_EQ(choose_msm_plan(1 << 20, 4, 99).window_bits, max_window_bits);
  // More points, wider windows (single thread, where the model is the textbook one).
  EXPECT_LE(choose_msm_plan(1 << 10, 1).window_bits, choose_msm_plan(1 << 20, 1).window_bits);
}

template <class Curve>
class Pippenger : public ::testing::Test {};
using curves = testing::all_curves;
TYPED_TEST_SUITE(Pippenger, curves);

template <class Curve>
void expect_all_paths_match(const std::vector<ec::affine<Curve>>& pts, const std::vector<testing::scalar_of<Curve>>& sc,
                            std::initializer_list<int> windows) {
  const auto ref = naive_msm<Curve>(pts, sc);
  EXPECT_TRUE(pippenger<Curve>(pts, sc) == ref) << "n " << pts.size() << " default window";
  for (int c : windows) {
    EXPECT_TRUE(pippenger<Curve>(pts, sc, msm_options{.window_bits = c}) == ref) << "n " << pts.size() << " c " << c;
  }
  EXPECT_TRUE(pippenger<Curve>(pts, sc, msm_options{.max_threads = 1}) == ref) << "n " << pts.size() << " 1 thread";
  if constexpr (glv<Curve>::available) {  // without the GLV split (G1, BN254's G2), and its affine buckets
    EXPECT_TRUE(pippenger<Curve>(pts, sc, msm_options{.glv = false}) == ref) << "n " << pts.size() << " no GLV";
    EXPECT_TRUE(pippenger<Curve>(pts, sc, msm_options{.window_bits = min_affine_window_bits, .glv = false}) == ref)
        << "n " << pts.size() << " no GLV, affine buckets";
  }
}

TYPED_TEST(Pippenger, MatchesNaiveAroundPowersOfTwo) {
  using Fr = testing::scalar_of<TypeParam>;
  SCOPED_TRACE(pp::test::replay_hint());
  std::mt19937_64 rng = pp::test::seeded_rng();
  for (std::size_t n : {0, 1, 2, 3, 7, 8, 9, 63, 64, 65, 255, 256, 257}) {
    const auto pts = random_points<TypeParam>(n, rng);
    expect_all_paths_match<TypeParam>(pts, random_scalars<Fr>(rng, n), {1, 4, 9});
    expect_all_paths_match<TypeParam>(pts, witness_scalars<Fr>(rng, n), {2, 11});
  }
  for (std::size_t n : {1023, 1024, 1025}) {
    const auto pts = random_points<TypeParam>(n, rng);
    expect_all_paths_match<TypeParam>(pts, witness_scalars<Fr>(rng, n), {6});
  }
  const auto pts = random_points<TypeParam>(511, rng);
  expect_all_paths_match<TypeParam>(pts, random_scalars<Fr>(rng, 511), {7});
}

TYPED_TEST(Pippenger, LargerSizesAgreeAcrossWindowsAndThreads) {
  using Fr = testing::scalar_of<TypeParam>;
  SCOPED_TRACE(pp::test::replay_hint());
  std::mt19937_64 rng = pp::test::seeded_rng();
  const std::size_t big = testing::is_g1<TypeParam> ? 8193 : 4097;
  for (std::size_t n : {big - 1, big}) {
    const auto pts = random_points<TypeParam>(n, rng);
    const auto sc = random_scalars<Fr>(rng, n);
    const auto ref = pippenger<TypeParam>(pts, sc, msm_options{.window_bits = 5, .max_threads = 1});
    EXPECT_TRUE(pippenger<TypeParam>(pts, sc) == ref) << n;
    EXPECT_TRUE(pippenger<TypeParam>(pts, sc, msm_options{.window_bits = 10}) == ref) << n;
    EXPECT_TRUE(pippenger<TypeParam>(pts, sc, msm_options{.window_bits = 13, .max_threads = 2}) == ref) << n;
  }
}

TYPED_TEST(Pippenger, EdgeCases) {
  using Fr = testing::scalar_of<TypeParam>;
  using affine = ec::affine<TypeParam>;
  SCOPED_TRACE(pp::test::replay_hint());
  std::mt19937_64 rng = pp::test::seeded_rng();
  const std::size_t n = 100;
  auto pts = random_points<TypeParam>(n, rng);

  // All-zero scalars: infinity.
  const std::vector<Fr> zeros(n, Fr::zero());
  EXPECT_TRUE(ec::is_infinity(pippenger<TypeParam>(pts, zeros)));
  EXPECT_TRUE(ec::is_infinity(pippenger<TypeParam>(pts, zeros, msm_options{.window_bits = 3})));

  // All-one scalars: the plain sum.
  const std::vector<Fr> ones(n, Fr::one());
  expect_all_paths_match<TypeParam>(pts, ones, {1, 5});
  EXPECT_TRUE(pippenger<TypeParam>(pts, ones) == testing::sequential_sum(pts));

  // All r - 1: minus the sum.
  const std::vector<Fr> minus_ones(n, r_minus_1<Fr>());
  EXPECT_TRUE(pippenger<TypeParam>(pts, minus_ones) == ec::neg(testing::sequential_sum(pts)));

  // Points at infinity anywhere, with random scalars.
  auto with_inf = pts;
  for (std::size_t i = 0; i < n; i += 7) with_inf[i] = affine::infinity();
  with_inf.back() = affine::infinity();
  expect_all_paths_match<TypeParam>(with_inf, random_scalars<Fr>(rng, n), {3, 8});
  const std::vector<affine> all_inf(n, affine::infinity());
  EXPECT_TRUE(ec::is_infinity(pippenger<TypeParam>(all_inf, random_scalars<Fr>(rng, n))));

  // One point repeated, random and equal scalars (equal scalars put every point in the same buckets).
  const std::vector<affine> same(n, pts[0]);
  expect_all_paths_match<TypeParam>(same, random_scalars<Fr>(rng, n), {4});
  const std::vector<Fr> equal(n, testing::random_scalar<Fr>(rng));
  expect_all_paths_match<TypeParam>(same, equal, {2, 9});

  // P and -P with the same scalar cancel; k P + (r - k) P = infinity.
  std::vector<affine> pm;
  std::vector<Fr> pm_sc;
  for (std::size_t i = 0; i < 20; ++i) {
    const auto k = testing::random_scalar<Fr>(rng);
    pm.push_back(pts[i]);
    pm.push_back(ec::neg(pts[i]));
    pm_sc.push_back(k);
    pm_sc.push_back(k);
    pm.push_back(pts[i]);
    pm.push_back(pts[i]);
    pm_sc.push_back(k);
    pm_sc.push_back(Fr::zero() - k);
  }
  EXPECT_TRUE(ec::is_infinity(pippenger<TypeParam>(pm, pm_sc)));
  EXPECT_TRUE(ec::is_infinity(pippenger<TypeParam>(pm, pm_sc, msm_options{.window_bits = 6})));
  EXPECT_TRUE(ec::is_infinity(naive_msm<TypeParam>(pm, pm_sc)));

  // (r - 1) P + P = infinity; (r - 1) P = -P.
  const std::vector<affine> two{pts[1], pts[1]};
  const std::vector<Fr> rm1_one{r_minus_1<Fr>(), Fr::one()};
  EXPECT_TRUE(ec::is_infinity(pippenger<TypeParam>(two, rm1_one)));
  const std::vector<affine> single{pts[2]};
  const std::vector<Fr> rm1{r_minus_1<Fr>()};
  for (int c = 1; c <= 16; ++c) {
    EXPECT_TRUE(pippenger<TypeParam>(single, rm1, msm_options{.window_bits = c}) ==
                ec::to_jacobian(ec::neg(pts[2])))
        << "c " << c;
  }
}

// Windows of min_affine_window_bits and up fill affine buckets in batches (msm/affine_buckets.hpp):
// exercise batch conflicts (small pools of distinct points, so many equal x in one batch: doublings
// and P + (-P) cancellations inside a batch), a full conflict queue spilling into the XYZZ side
// buckets (equal scalars: every point in one bucket per window), and infinity among the points.
TYPED_TEST(Pippenger, AffineBucketsMatchNaive) {
  using Fr = testing::scalar_of<TypeParam>;
  using affine = ec::affine<TypeParam>;
  SCOPED_TRACE(pp::test::replay_hint());
  std::mt19937_64 rng = pp::test::seeded_rng();
  const std::size_t n = testing::is_g1<TypeParam> ? 3000 : 1500;
  const int c0 = min_affine_window_bits;
  const auto pool = random_points<TypeParam>(4, rng);
  std::vector<affine> pts(n);
  for (auto& p : pts) {
    const auto& q = pool[rng() % pool.size()];
    p = rng() % 2 ? q : ec::neg(q);
  }
  // Small scalars from a small set: the same few buckets over and over, many equal points in each.
  std::vector<Fr> small(n);
  for (auto& s : small) s = Fr::from_uint(1 + rng() % 3);
  expect_all_paths_match<TypeParam>(pts, small, {c0, c0 + 2});
  expect_all_paths_match<TypeParam>(pts, random_scalars<Fr>(rng, n), {c0, c0 + 1});

  auto distinct = random_points<TypeParam>(n, rng);
  for (std::size_t i = 0; i < n; i += 11) distinct[i] = affine::infinity();
  const std::vector<Fr> equal(n, testing::random_scalar<Fr>(rng));
  expect_all_paths_match<TypeParam>(distinct, equal, {c0, 14});
  expect_all_paths_match<TypeParam>(distinct, witness_scalars<Fr>(rng, n), {c0, 12});
  expect_all_paths_match<TypeParam>(distinct, random_scalars<Fr>(rng, n), {c0, 11, 13});
}

}  // namespace
}  // namespace pp::msm
