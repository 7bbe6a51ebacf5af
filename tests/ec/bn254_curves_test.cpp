// Recomputes every curve constant in ec/bn254_curves.hpp from its definition: generators on the
// curves and of order r, b' = 3/(9 + u), the psi coefficients and psi acting on G2 as [p] = [6x^2],
// and the family's shape (ec/curve_family.hpp).
#include <gtest/gtest.h>

#include "ec_test_util.hpp"

namespace pp::ec::bn254 {
namespace {

using ff::bn254::fp;
using ff::bn254::fp2;
using ff::bn254::fp_params;
using ff::bn254::fr;
using ff::bn254::fr_params;

static_assert(curve_family<family>);
static_assert(std::is_same_v<family::g1_curve, g1_curve> && std::is_same_v<family::g2_curve, g2_curve>);
static_assert(g2_curve::twist == twist_type::d && ec::g2_curve::twist == twist_type::m);

const fp2 xi{fp::from_uint(9), fp::one()};

// (p - 1) / d as little-endian limbs.
void p_minus_1_div(uint64_t d, uint64_t* out) {
  uint64_t v[4];
  for (int i = 0; i < 4; ++i) v[i] = fp_params::modulus[i];
  v[0] -= 1;  // p is odd: no borrow
  unsigned __int128 rem = 0;
  for (int i = 3; i >= 0; --i) {
    const unsigned __int128 cur = (rem << 64) | v[i];
    out[i] = static_cast<uint64_t>(cur / d);
    rem = cur % d;
  }
  ASSERT_EQ(static_cast<uint64_t>(rem), 0u);
}

fr seed() { return fr::from_uint(ff::bn254::tower_params::seed_abs); }

TEST(Bn254Curves, CurveCoefficients) {
  EXPECT_EQ(g1_curve::b(), fp::from_uint(3));
  EXPECT_EQ(g2_curve::b() * xi, (fp2{fp::from_uint(3), fp::zero()}));
  EXPECT_EQ(generator<g1_curve>().x, fp::one());
  EXPECT_EQ(generator<g1_curve>().y, fp::from_uint(2));
}

TEST(Bn254Curves, GeneratorsHaveOrderR) {
  EXPECT_TRUE(is_on_curve(generator<g1_curve>()));
  EXPECT_TRUE(is_on_curve(generator<g2_curve>()));
  EXPECT_TRUE(is_infinity(mul_limbs(generator<g1_curve>(), fr_params::modulus, 4)));
  EXPECT_TRUE(is_infinity(mul_limbs(generator<g2_curve>(), fr_params::modulus, 4)));
  EXPECT_FALSE(is_infinity(generator<g2_curve>()));
}

TEST(Bn254Curves, SeedDefinesR) {
  // r = 36x^4 + 36x^3 + 18x^2 + 6x + 1 = 0 in Fr, and p = r + 6x^2, so p = 6x^2 in Fr.
  const fr x = seed();
  const fr x2 = x * x;
  EXPECT_TRUE((fr::from_uint(36) * x2 * x2 + fr::from_uint(36) * x2 * x + fr::from_uint(18) * x2 +
               fr::from_uint(6) * x + fr::one())
                  .is_zero());
  uint64_t six_x2[4] = {};
  (fr::from_uint(6) * x2).to_canonical(six_x2);
  const limbs2 c = six_seed_squared();
  EXPECT_EQ(six_x2[0], c.v[0]);
  EXPECT_EQ(six_x2[1], c.v[1]);
  EXPECT_EQ(six_x2[2] | six_x2[3], 0u);
}

TEST(Bn254Curves, PsiCoefficients) {
  uint64_t e3[4], e2[4];
  p_minus_1_div(3, e3);
  p_minus_1_div(2, e2);
  const fp2 cx = xi.pow(e3, 4);
  const fp2 cy = xi.pow(e2, 4);
  EXPECT_EQ(cx.c0, fp_from_limbs(g2_curve::psi_x_c0()));
  EXPECT_EQ(cx.c1, fp_from_limbs(g2_curve::psi_x_c1()));
  EXPECT_EQ(cy.c0, fp_from_limbs(g2_curve::psi_y_c0()));
  EXPECT_EQ(cy.c1, fp_from_limbs(g2_curve::psi_y_c1()));
  // psi acts on G2 as [p] = [6x^2], maps the twist to itself, and psi^2 fixes x up to a cube root
  // of unity in Fp and negates y.
  const g2_affine g = generator<g2_curve>();
  const g2_affine pg = endomorphism_psi(g);
  EXPECT_TRUE(is_on_curve(pg));
  EXPECT_TRUE(to_jacobian(pg) == scalar_mul(g, fr::from_uint(6) * seed() * seed()));
  const g2_affine ppg = endomorphism_psi(pg);
  EXPECT_EQ(ppg.y, -g.y);
  EXPECT_TRUE((ppg.x * g.x.inverse()).c1.is_zero());
  EXPECT_TRUE(is_infinity(endomorphism_psi(g2_affine::infinity())));
}

TEST(Bn254Curves, BetaIsTheRightCubeRootOfUnity) {
  const fp beta = fp_from_limbs(g1_curve::beta());
  EXPECT_FALSE(beta.is_one());
  EXPECT_TRUE((beta * beta * beta).is_one());
  // phi(P) = (beta x, y) = [-(36x^3 + 18x^2 + 6x + 2)] P (msm/glv_bn254.hpp's lambda); with beta^2
  // instead it is the other root, 36x^3 + 18x^2 + 6x + 1.
  const fr x = seed();
  const fr other = fr::from_uint(36) * x * x * x + fr::from_uint(18) * x * x + fr::from_uint(6) * x + fr::one();
  const fr lambda = -(other + fr::one());
  EXPECT_TRUE((lambda * lambda + lambda + fr::one()).is_zero());
  const g1_affine g = generator<g1_curve>();
  const g1_affine p = to_affine(scalar_mul(g, fr::from_uint(0x9e3779b97f4a7c15ULL)));
  for (const g1_affine& q : {g, p}) {
    EXPECT_TRUE(to_jacobian(g1_affine{q.x * beta, q.y}) == scalar_mul(q, lambda));
    EXPECT_TRUE(to_jacobian(g1_affine{q.x * beta * beta, q.y}) == scalar_mul(q, other));
  }
  // On G2 (the twist is y^2 = x^3 + b' as well) the same lambda comes from g2_curve::beta = beta^2.
  const fp beta2 = fp_from_limbs(g2_curve::beta());
  EXPECT_TRUE(beta2 == beta * beta);
  using g2_affine = affine<g2_curve>;
  const g2_affine h = generator<g2_curve>();
  const g2_affine hp = to_affine(scalar_mul(h, fr::from_uint(0x9e3779b97f4a7c15ULL)));
  for (const g2_affine& q : {h, hp}) {
    EXPECT_TRUE(to_jacobian(g2_affine{q.x * beta2, q.y}) == scalar_mul(q, lambda));
    EXPECT_TRUE(to_jacobian(g2_affine{q.x * beta, q.y}) == scalar_mul(q, other));
  }
}

}  // namespace
}  // namespace pp::ec::bn254
