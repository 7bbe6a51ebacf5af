// Point formulas (Jacobian and XYZZ add / madd / dbl, conversions, equality, batch to_affine) and
// scalar multiplication, written once and run for G1 and G2 of BLS12-381 and BN254: every
// representation must agree, with infinity, P = Q and P = -Q on purpose.
#include <gtest/gtest.h>

#include <vector>

#include "ec/batch_to_affine.hpp"
#include "ec_test_util.hpp"

namespace pp::ec {
namespace {

using testing::random_field;
using testing::random_scalar;
using testing::random_subgroup_point;
using testing::test_rng;

template <class Curve>
class PointOps : public ::testing::Test {};
TYPED_TEST_SUITE(PointOps, testing::all_curve_types, testing::curve_name_generator);

// Same point with a different projective representative: (l^2 X, l^3 Y, l Z).
template <class Curve>
jacobian<Curve> rescale(const jacobian<Curve>& p, const typename Curve::field& l) {
  const auto l2 = l.sqr();
  return jacobian<Curve>{p.x * l2, p.y * l2 * l, p.z * l};
}
template <class Curve>
xyzz<Curve> rescale(const xyzz<Curve>& p, const typename Curve::field& l) {
  const auto l2 = l.sqr();
  return xyzz<Curve>{p.x * l2, p.y * l2 * l, p.zz * l2, p.zzz * l2 * l};
}

TYPED_TEST(PointOps, GeneratorOnCurve) {
  EXPECT_TRUE(is_on_curve(generator<TypeParam>()));
  EXPECT_FALSE(is_infinity(generator<TypeParam>()));
  EXPECT_FALSE(is_on_curve(affine<TypeParam>{TypeParam::field::one(), TypeParam::field::one()}));
}

TYPED_TEST(PointOps, RepresentationsAgreeOnRandomPoints) {
  using C = TypeParam;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  for (int it = 0; it < 20; ++it) {
    const auto p = random_subgroup_point<C>(rng);
    const auto q = random_subgroup_point<C>(rng);
    const auto l1 = random_field<typename C::field>(rng);
    const auto l2 = random_field<typename C::field>(rng);
    const jacobian<C> pj = rescale(to_jacobian(p), l1), qj = rescale(to_jacobian(q), l2);
    const xyzz<C> px = rescale(to_xyzz(p), l1), qx = rescale(to_xyzz(q), l2);

    const affine<C> sum = to_affine(add(pj, qj));
    ASSERT_TRUE(is_on_curve(sum));
    EXPECT_EQ(to_affine(add(qj, pj)), sum);
    EXPECT_EQ(to_affine(madd(pj, q)), sum);
    EXPECT_EQ(to_affine(add(px, qx)), sum);
    EXPECT_EQ(to_affine(madd(px, q)), sum);
    EXPECT_EQ(to_affine(to_jacobian(add(px, qx))), sum);

    const affine<C> twice = to_affine(dbl(pj));
    ASSERT_TRUE(is_on_curve(twice));
    EXPECT_EQ(to_affine(dbl(px)), twice);
    EXPECT_EQ(to_affine(dbl(p)), twice);  // mdbl

    // Projective equality across representatives, and inequality of different points.
    EXPECT_TRUE(pj == to_jacobian(p));
    EXPECT_TRUE(px == to_xyzz(p));
    EXPECT_TRUE(to_xyzz(pj) == px);
    EXPECT_FALSE(pj == qj);
    EXPECT_FALSE(px == qx);
    EXPECT_FALSE(pj == neg(pj));

    // Associativity: (P + Q) + R == P + (Q + R).
    const auto r = random_subgroup_point<C>(rng);
    EXPECT_TRUE(madd(madd(px, q), r) == add(px, madd(to_xyzz(q), r)));
    EXPECT_TRUE(madd(madd(pj, q), r) == add(pj, madd(to_jacobian(q), r)));
  }
}

TYPED_TEST(PointOps, InfinityAndEqualPoints) {
  using C = TypeParam;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto p = random_subgroup_point<C>(rng);
  const auto l = random_field<typename C::field>(rng);
  const auto inf_a = affine<C>::infinity();
  const auto inf_j = jacobian<C>::infinity();
  const auto inf_x = xyzz<C>::infinity();
  const jacobian<C> pj = rescale(to_jacobian(p), l);
  const xyzz<C> px = rescale(to_xyzz(p), l);

  EXPECT_TRUE(is_infinity(inf_a));
  EXPECT_TRUE(is_infinity(to_jacobian(inf_a)));
  EXPECT_TRUE(is_infinity(to_xyzz(inf_a)));
  EXPECT_TRUE(is_infinity(to_affine(inf_j)));
  EXPECT_TRUE(is_infinity(to_affine(inf_x)));
  EXPECT_TRUE(is_infinity(to_xyzz(inf_j)));
  EXPECT_TRUE(is_infinity(to_jacobian(inf_x)));
  EXPECT_TRUE(is_on_curve(inf_a));
  EXPECT_EQ(neg(inf_a), inf_a);

  // O + P, P + O, O + O in every form.
  EXPECT_TRUE(add(inf_j, pj) == pj);
  EXPECT_TRUE(add(pj, inf_j) == pj);
  EXPECT_TRUE(madd(pj, inf_a) == pj);
  EXPECT_TRUE(madd(inf_j, p) == pj);
  EXPECT_TRUE(is_infinity(add(inf_j, inf_j)));
  EXPECT_TRUE(is_infinity(madd(inf_j, inf_a)));
  EXPECT_TRUE(add(inf_x, px) == px);
  EXPECT_TRUE(add(px, inf_x) == px);
  EXPECT_TRUE(madd(px, inf_a) == px);
  EXPECT_TRUE(madd(inf_x, p) == px);
  EXPECT_TRUE(is_infinity(add(inf_x, inf_x)));
  EXPECT_TRUE(is_infinity(madd(inf_x, inf_a)));
  EXPECT_TRUE(is_infinity(dbl(inf_j)));
  EXPECT_TRUE(is_infinity(dbl(inf_x)));
  EXPECT_TRUE(is_infinity(dbl(inf_a)));
  const jacobian<C> other_inf{random_field<typename C::field>(rng), random_field<typename C::field>(rng),
                              C::field::zero()};
  EXPECT_TRUE(inf_j == other_inf);
  EXPECT_FALSE(inf_j == pj);
  EXPECT_FALSE(pj == inf_j);
  EXPECT_FALSE(inf_x == px);

  // P + P falls back to doubling; P + (-P) = O; in different representatives of P.
  const affine<C> twice = to_affine(dbl(to_jacobian(p)));
  EXPECT_EQ(to_affine(add(pj, to_jacobian(p))), twice);
  EXPECT_EQ(to_affine(madd(pj, p)), twice);
  EXPECT_EQ(to_affine(add(px, to_xyzz(p))), twice);
  EXPECT_EQ(to_affine(madd(px, p)), twice);
  EXPECT_TRUE(is_infinity(add(pj, to_jacobian(neg(p)))));
  EXPECT_TRUE(is_infinity(madd(pj, neg(p))));
  EXPECT_TRUE(is_infinity(add(px, neg(px))));
  EXPECT_TRUE(is_infinity(madd(px, neg(p))));
  EXPECT_TRUE(is_infinity(add(neg(pj), pj)));
}

TYPED_TEST(PointOps, ScalarMultiplication) {
  using C = TypeParam;
  using fr = typename C::scalar_field;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto g = generator<C>();
  const auto gj = to_jacobian(g);
  const fr zero = fr::zero(), one = fr::one();
  const fr minus_one = -fr::one();

  EXPECT_TRUE(is_infinity(scalar_mul(g, zero)));
  EXPECT_TRUE(is_infinity(scalar_mul_wnaf(gj, zero)));
  EXPECT_TRUE(scalar_mul(g, one) == gj);
  EXPECT_TRUE(scalar_mul_wnaf(gj, one) == gj);
  EXPECT_TRUE(scalar_mul(g, one + one) == dbl(gj));
  EXPECT_TRUE(scalar_mul(g, minus_one) == neg(gj));
  EXPECT_TRUE(scalar_mul_wnaf(gj, minus_one) == neg(gj));
  EXPECT_TRUE(is_infinity(mul_limbs(g, fr::params::modulus, fr::n64)));  // [r] G
  EXPECT_TRUE(is_infinity(scalar_mul(affine<C>::infinity(), random_scalar<fr>(rng))));
  EXPECT_TRUE(is_infinity(scalar_mul_wnaf(jacobian<C>::infinity(), random_scalar<fr>(rng))));

  // Small multiples against repeated addition.
  jacobian<C> acc = jacobian<C>::infinity();
  fr k = fr::zero();
  for (int i = 0; i < 40; ++i) {
    EXPECT_TRUE(scalar_mul(g, k) == acc) << "k = " << i;
    EXPECT_TRUE(scalar_mul_wnaf(gj, k) == acc) << "k = " << i;
    acc = madd(acc, g);
    k += one;
  }

  for (int it = 0; it < 6; ++it) {
    const fr a = random_scalar<fr>(rng), b = random_scalar<fr>(rng);
    const jacobian<C> ag = scalar_mul(g, a);
    EXPECT_TRUE(scalar_mul_wnaf(gj, a) == ag);
    EXPECT_TRUE(scalar_mul(gj, a) == ag);
    EXPECT_TRUE(scalar_mul(g, a + b) == add(ag, scalar_mul(g, b)));   // linearity
    EXPECT_TRUE(scalar_mul(g, a * b) == scalar_mul(to_affine(ag), b));  // [ab]G = [b]([a]G)
    EXPECT_TRUE(scalar_mul_wnaf(ag, b) == scalar_mul(ag, b));
    EXPECT_TRUE(scalar_mul(ag, minus_one) == neg(ag));
    EXPECT_TRUE(is_infinity(mul_limbs(ag, fr::params::modulus, fr::n64)));
  }
}

TYPED_TEST(PointOps, BatchToAffineMatchesSingle) {
  using C = TypeParam;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  for (std::size_t n : {0, 1, 2, 7, 33}) {
    std::vector<jacobian<C>> pj(n);
    std::vector<xyzz<C>> px(n);
    for (std::size_t i = 0; i < n; ++i) {
      const auto p = (i % 5 == 3) ? affine<C>::infinity() : random_subgroup_point<C>(rng);
      const auto l = random_field<typename C::field>(rng);
      pj[i] = rescale(to_jacobian(p), l);
      px[i] = rescale(to_xyzz(p), l);
    }
    std::vector<affine<C>> out_j(n), out_x(n);
    batch_to_affine(pj.data(), out_j.data(), n);
    batch_to_affine(px.data(), out_x.data(), n);
    for (std::size_t i = 0; i < n; ++i) {
      EXPECT_EQ(out_j[i], to_affine(pj[i])) << "n = " << n << ", i = " << i;
      EXPECT_EQ(out_x[i], to_affine(px[i])) << "n = " << n << ", i = " << i;
    }
  }
}

}  // namespace
}  // namespace pp::ec
