// batch_sum against a sequential sum on G1 and G2: sizes around the batch-level threshold and the
// parallel chunk size, infinity points, repeated points (doublings at every level), P / -P pairs.
#include "msm/batch_add.hpp"

#include <gtest/gtest.h>

#include "msm/msm_test_inputs.hpp"
#include "msm/naive_msm.hpp"
#include "support/test_seed.hpp"

namespace pp::msm {
namespace {

using testing::random_points;
using testing::sequential_sum;

template <class Curve>
class BatchSum : public ::testing::Test {};
using curves = testing::all_curves;
TYPED_TEST_SUITE(BatchSum, curves);

TYPED_TEST(BatchSum, MatchesSequentialSum) {
  using Fr = testing::scalar_of<TypeParam>;
  SCOPED_TRACE(pp::test::replay_hint());
  std::mt19937_64 rng = pp::test::seeded_rng();
  for (std::size_t n : {0, 1, 2, 3, 255, 256, 257, 511, 512, 513, 4095, 4096, 4097, 12289}) {
    const auto pts = random_points<TypeParam>(n, rng);
    const auto ref = sequential_sum(pts);
    EXPECT_TRUE(batch_sum<TypeParam>(pts) == ref) << n;
    EXPECT_TRUE(batch_sum<TypeParam>(pts, msm_options{.max_threads = 1}) == ref) << n;
  }
  const auto pts = random_points<TypeParam>(300, rng);
  const std::vector<Fr> ones(pts.size(), Fr::one());
  EXPECT_TRUE(batch_sum<TypeParam>(pts) == naive_msm<TypeParam>(pts, ones));
}

TYPED_TEST(BatchSum, InfinityRepeatsAndCancellations) {
  using affine = ec::affine<TypeParam>;
  SCOPED_TRACE(pp::test::replay_hint());
  std::mt19937_64 rng = pp::test::seeded_rng();
  const auto base = random_points<TypeParam>(600, rng);

  const std::vector<affine> all_inf(1000, affine::infinity());
  EXPECT_TRUE(ec::is_infinity(batch_sum<TypeParam>(all_inf)));

  // Infinity sprinkled in.
  auto with_inf = base;
  for (std::size_t i = 0; i < with_inf.size(); i += 3) with_inf[i] = affine::infinity();
  EXPECT_TRUE(batch_sum<TypeParam>(with_inf) == sequential_sum(with_inf));

  // One point 2^k and 2^k + 1 times: every tree level is a doubling.
  for (std::size_t n : {1024, 1025, 5000}) {
    const std::vector<affine> same(n, base[0]);
    EXPECT_TRUE(batch_sum<TypeParam>(same) == sequential_sum(same)) << n;
  }

  // P, -P adjacent (cancel in the first level) and P, -P far apart.
  std::vector<affine> pm;
  for (const auto& p : base) {
    pm.push_back(p);
    pm.push_back(ec::neg(p));
  }
  EXPECT_TRUE(ec::is_infinity(batch_sum<TypeParam>(pm)));
  std::vector<affine> far = base;
  for (const auto& p : base) far.push_back(ec::neg(p));
  far.push_back(base[5]);
  EXPECT_TRUE(batch_sum<TypeParam>(far) == ec::to_jacobian(base[5]));

  // Random mix of repeats, negations and infinity, shuffled.
  std::vector<affine> mix;
  for (std::size_t i = 0; i < 9000; ++i) {
    const auto& p = base[rng() % 40];
    const uint64_t u = rng() % 10;
    mix.push_back(u == 0 ? affine::infinity() : (u < 4 ? ec::neg(p) : p));
  }
  EXPECT_TRUE(batch_sum<TypeParam>(mix) == sequential_sum(mix));
}

}  // namespace
}  // namespace pp::msm
