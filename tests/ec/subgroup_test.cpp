// Fast subgroup checks (BLS12-381 G1: phi(P) == [-x^2] P, G2: psi(P) == [x] P; BN254 G1: all
// points, G2: psi(P) == [6x^2] P) against the reference [r] P == O, on subgroup points, on random
// curve points (lifted x, no cofactor clearing) and on points of order dividing the cofactor.
#include <gtest/gtest.h>

#include "ec_test_util.hpp"

namespace pp::ec {
namespace {

using testing::random_curve_point;
using testing::random_subgroup_point;
using testing::test_rng;

template <class Curve>
class Subgroup : public ::testing::Test {};
TYPED_TEST_SUITE(Subgroup, testing::all_curve_types, testing::curve_name_generator);

TYPED_TEST(Subgroup, GeneratorAndInfinity) {
  using C = TypeParam;
  EXPECT_TRUE(is_in_subgroup(generator<C>()));
  EXPECT_TRUE(is_in_subgroup_naive(generator<C>()));
  EXPECT_TRUE(is_in_subgroup(affine<C>::infinity()));
  EXPECT_TRUE(is_in_subgroup_naive(affine<C>::infinity()));
}

TYPED_TEST(Subgroup, FastCheckMatchesNaiveOnSubgroupPoints) {
  using C = TypeParam;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  for (int i = 0; i < 16; ++i) {
    const auto p = random_subgroup_point<C>(rng);
    ASSERT_TRUE(is_on_curve(p));
    EXPECT_TRUE(is_in_subgroup_naive(p));
    EXPECT_TRUE(is_in_subgroup(p));
    EXPECT_TRUE(is_in_subgroup(neg(p)));
  }
}

TYPED_TEST(Subgroup, FastCheckMatchesNaiveOnRandomCurvePoints) {
  using C = TypeParam;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  int outside = 0;
  for (int i = 0; i < 24; ++i) {
    const auto p = random_curve_point<C>(rng);
    ASSERT_TRUE(is_on_curve(p));
    const bool naive = is_in_subgroup_naive(p);
    EXPECT_EQ(is_in_subgroup(p), naive);
    outside += !naive;
    // P + G stays outside the subgroup exactly when P is outside.
    const auto q = to_affine(madd(to_jacobian(p), generator<C>()));
    EXPECT_EQ(is_in_subgroup(q), is_in_subgroup_naive(q));
  }
  // A lifted x lands in the subgroup with probability 1/h (BLS12-381: h1 ~ 2^126, h2 ~ 2^509;
  // BN254: h1 = 1, h2 ~ 2^254).
  EXPECT_EQ(outside, testing::cofactor_is_one<C> ? 0 : 24);
}

TYPED_TEST(Subgroup, PointsOfCofactorOrderAreRejected) {
  using C = TypeParam;
  using fr = typename C::scalar_field;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  for (int i = 0; i < 8; ++i) {
    // [r] P has order dividing h: in the subgroup only if it is O.
    const auto t = to_affine(mul_limbs(random_curve_point<C>(rng), fr::params::modulus, fr::n64));
    ASSERT_TRUE(is_on_curve(t));
    EXPECT_EQ(is_in_subgroup(t), is_infinity(t));
    EXPECT_EQ(is_in_subgroup_naive(t), is_infinity(t));
    // A subgroup point plus a cofactor-torsion point is outside.
    const auto s = to_affine(madd(to_jacobian(t), random_subgroup_point<C>(rng)));
    EXPECT_EQ(is_in_subgroup(s), is_infinity(t));
  }
}

}  // namespace
}  // namespace pp::ec
