// The MSM entry points check that there is one scalar per point in every build (release included):
// a mismatch stops the process with both lengths named instead of reading past the shorter span.
#include <gtest/gtest.h>

#include "msm/msm_test_inputs.hpp"
#include "msm/naive_msm.hpp"
#include "msm/pippenger.hpp"
#include "msm/split_msm.hpp"
#include "support/test_seed.hpp"

namespace pp::msm {
namespace {

template <class Curve>
class MsmEntryDeathTest : public ::testing::Test {};
using curves = testing::all_curves;
TYPED_TEST_SUITE(MsmEntryDeathTest, curves);

TYPED_TEST(MsmEntryDeathTest, LengthMismatchStopsWithBothLengths) {
  using Fr = testing::scalar_of<TypeParam>;
  std::mt19937_64 rng = pp::test::seeded_rng();
  const auto points = testing::random_points<TypeParam>(3, rng);
  const auto scalars = testing::random_scalars<Fr>(rng, 2);
  std::vector<canonical_scalar> canon(2);
  for (size_t i = 0; i < 2; ++i) scalars[i].to_canonical(canon[i].l);
  const std::span<const ec::affine<TypeParam>> p(points);
  const std::span<const Fr> k(scalars);
  EXPECT_DEATH(naive_msm<TypeParam>(p, k), "naive_msm: 3 points but 2 scalars");
  EXPECT_DEATH(pippenger<TypeParam>(p, k), "pippenger: 3 points but 2 scalars");
  EXPECT_DEATH(pippenger_canonical<TypeParam>(p, std::span<const canonical_scalar>(canon)),
               "pippenger_canonical: 3 points but 2 scalars");
  EXPECT_DEATH(split_msm<TypeParam>(p, k), "split_msm: 3 points but 2 scalars");
  // Equal lengths still work (and an empty MSM is the point at infinity).
  EXPECT_TRUE(ec::is_infinity(pippenger<TypeParam>(p.first(0), k.first(0))));
  EXPECT_TRUE(pippenger<TypeParam>(p.first(2), k) == naive_msm<TypeParam>(p.first(2), k));
}

}  // namespace
}  // namespace pp::msm
