// split_msm == pippenger == naive on G1 and G2 for witness-like scalars (mostly 0 and 1), all-zero
// and all-one inputs, infinity points; split_stats counts checked against a direct count.
#include "msm/split_msm.hpp"

#include <gtest/gtest.h>

#include "msm/msm_test_inputs.hpp"
#include "msm/naive_msm.hpp"
#include "msm/pippenger.hpp"
#include "support/test_seed.hpp"

namespace pp::msm {
namespace {

using testing::random_points;
using testing::random_scalars;
using testing::witness_scalars;

template <class Curve>
class SplitMsm : public ::testing::Test {};
using curves = testing::all_curves;
TYPED_TEST_SUITE(SplitMsm, curves);

template <class Fr>
split_stats count(const std::vector<Fr>& sc) {
  split_stats s{0, 0, 0};
  for (const auto& x : sc) {
    if (x.is_zero()) {
      ++s.zeros;
    } else if (x.is_one()) {
      ++s.ones;
    } else {
      ++s.others;
    }
  }
  return s;
}

template <class Curve>
void expect_split_matches(const std::vector<ec::affine<Curve>>& pts, const std::vector<testing::scalar_of<Curve>>& sc,
                          bool with_naive) {
  split_stats st{~0ull, ~0ull, ~0ull};
  const auto got = split_msm<Curve>(pts, sc, {}, &st);
  const auto want = count(sc);
  EXPECT_EQ(st.zeros, want.zeros);
  EXPECT_EQ(st.ones, want.ones);
  EXPECT_EQ(st.others, want.others);
  const auto pip = pippenger<Curve>(pts, sc);
  EXPECT_TRUE(got == pip) << "n " << pts.size();
  if (with_naive) {
    EXPECT_TRUE(pip == naive_msm<Curve>(pts, sc)) << "n " << pts.size();
  }
  EXPECT_TRUE(split_msm<Curve>(pts, sc, msm_options{.window_bits = 3, .max_threads = 1}) == pip) << "n " << pts.size();
}

TYPED_TEST(SplitMsm, WitnessLikeScalarsMatchNaive) {
  using Fr = testing::scalar_of<TypeParam>;
  SCOPED_TRACE(pp::test::replay_hint());
  std::mt19937_64 rng = pp::test::seeded_rng();
  for (std::size_t n : {0, 1, 2, 3, 15, 16, 17, 255, 256, 257, 1023, 1024, 1025}) {
    const auto pts = random_points<TypeParam>(n, rng);
    expect_split_matches<TypeParam>(pts, witness_scalars<Fr>(rng, n), true);
  }
  // Past the classification block (2^14) and the batch_sum chunk size, against pippenger only.
  const std::size_t big = testing::is_g1<TypeParam> ? 20000 : 6000;
  const auto pts = random_points<TypeParam>(big, rng);
  expect_split_matches<TypeParam>(pts, witness_scalars<Fr>(rng, big), false);
}

TYPED_TEST(SplitMsm, AllZeroAllOneAndDense) {
  using Fr = testing::scalar_of<TypeParam>;
  using affine = ec::affine<TypeParam>;
  SCOPED_TRACE(pp::test::replay_hint());
  std::mt19937_64 rng = pp::test::seeded_rng();
  const std::size_t n = 300;
  auto pts = random_points<TypeParam>(n, rng);
  pts[7] = affine::infinity();
  pts[8] = pts[9];
  pts[10] = ec::neg(pts[11]);

  split_stats st{};
  const std::vector<Fr> zeros(n, Fr::zero());
  EXPECT_TRUE(ec::is_infinity(split_msm<TypeParam>(pts, zeros, {}, &st)));
  EXPECT_EQ(st.zeros, n);
  EXPECT_EQ(st.ones + st.others, 0u);

  const std::vector<Fr> ones(n, Fr::one());
  EXPECT_TRUE(split_msm<TypeParam>(pts, ones, {}, &st) == testing::sequential_sum(pts));
  EXPECT_EQ(st.ones, n);

  expect_split_matches<TypeParam>(pts, random_scalars<Fr>(rng, n), true);
  expect_split_matches<TypeParam>(pts, ones, true);
  auto sc = witness_scalars<Fr>(rng, n);
  sc[9] = Fr::one();
  sc[8] = Fr::one();
  sc[10] = Fr::one();
  sc[11] = Fr::one();
  expect_split_matches<TypeParam>(pts, sc, true);
}

}  // namespace
}  // namespace pp::msm
