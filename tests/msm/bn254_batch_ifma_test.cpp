// BN254's IFMA batch additions (msm/bn254_batch_ifma.hpp), G1 and G2, against the XYZZ formulas:
// random sums, doublings, P + (-P) and batches of every length around the lane count; then
// Pippenger with the IFMA path on and off against naive_msm. Skipped where the CPU lacks AVX-512 IFMA.
#include "msm/bn254_batch_ifma.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>

#include "msm/msm.hpp"
#include "msm/msm_test_inputs.hpp"
#include "msm/naive_msm.hpp"
#include "msm/window.hpp"
#include "support/test_seed.hpp"

namespace pp::msm {
namespace {

template <class Curve>
class Bn254BatchIfma : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!detail::bn254_ifma_available()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU";
  }
};
using bn254_groups = ::testing::Types<ec::bn254::g1_curve, ec::bn254::g2_curve>;
TYPED_TEST_SUITE(Bn254BatchIfma, bn254_groups);

// bucket[index[j]] += q[j] for batches of m = 1..40 and 1024 over 2m shuffled buckets; a tenth of
// the q[j] equal their bucket (doubling), a tenth its negation (infinity).
TYPED_TEST(Bn254BatchIfma, MatchesXyzzSums) {
  using point = ec::affine<TypeParam>;
  SCOPED_TRACE(pp::test::replay_hint());
  std::mt19937_64 rng = pp::test::seeded_rng();
  std::vector<uint64_t> scratch;
  std::vector<std::size_t> sizes(40);
  std::iota(sizes.begin(), sizes.end(), 1);
  sizes.push_back(1024);
  for (const std::size_t m : sizes) {
    auto bucket = testing::random_points<TypeParam>(2 * m, rng);
    const auto fresh = testing::random_points<TypeParam>(m, rng);
    std::vector<uint32_t> index(2 * m);
    std::iota(index.begin(), index.end(), 0u);
    std::shuffle(index.begin(), index.end(), rng);
    index.resize(m);
    std::vector<point> q(m);
    std::vector<point> want(m);
    std::vector<uint8_t> want_infinity(m);
    for (std::size_t j = 0; j < m; ++j) {
      const point& a = bucket[index[j]];
      const auto kind = rng() % 10;
      q[j] = kind == 0 ? a : kind == 1 ? ec::neg(a) : fresh[j];
      const auto sum = ec::add(ec::to_xyzz(a), q[j]);
      want_infinity[j] = ec::is_infinity(sum);
      want[j] = ec::to_affine(sum);
    }
    std::vector<uint8_t> infinity(m, 2);
    detail::bn254_add_batch_ifma(bucket.data(), index.data(), q.data(), m, infinity.data(), scratch);
    for (std::size_t j = 0; j < m; ++j) {
      ASSERT_EQ(infinity[j], want_infinity[j]) << "m " << m << " j " << j;
      if (!want_infinity[j]) {
        ASSERT_TRUE(bucket[index[j]] == want[j]) << "m " << m << " j " << j;
      }
    }
  }
}

// Whole MSMs through the affine buckets (c >= min_affine_window_bits), with and without GLV, over
// random and witness-like scalars and repeated points: IFMA on equals IFMA off equals naive.
TYPED_TEST(Bn254BatchIfma, PippengerAgreesWithScalarPath) {
  SCOPED_TRACE(pp::test::replay_hint());
  std::mt19937_64 rng = pp::test::seeded_rng();
  for (const std::size_t n : {std::size_t{1}, std::size_t{9}, std::size_t{1000}, std::size_t{3000}}) {
    auto pts = testing::random_points<TypeParam>(n, rng);
    for (std::size_t i = 0; i + 1 < n; i += 7) pts[i + 1] = pts[i];  // equal points: doublings
    for (const bool witness : {false, true}) {
      const auto sc = witness ? testing::witness_scalars<ff::bn254::fr>(rng, n)
                              : testing::random_scalars<ff::bn254::fr>(rng, n);
      const auto ref = naive_msm<TypeParam>(pts, sc);
      for (const bool glv : {false, true}) {
        for (const int c : {min_affine_window_bits, 13}) {
          const msm_options on{.window_bits = c, .glv = glv, .avx512_ifma = true};
          const msm_options off{.window_bits = c, .glv = glv, .avx512_ifma = false};
          EXPECT_TRUE(pippenger<TypeParam>(pts, sc, on) == ref) << "n " << n << " c " << c << " glv " << glv;
          EXPECT_TRUE(pippenger<TypeParam>(pts, sc, off) == ref) << "n " << n << " c " << c << " glv " << glv;
        }
      }
    }
  }
}

}  // namespace
}  // namespace pp::msm
