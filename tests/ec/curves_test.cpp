// Recomputes every curve constant in ec/bls12_381_curves.hpp from its definition: generators on
// the curve and of order r, beta a cube root of unity acting as [-x^2], psi coefficients.
#include <gtest/gtest.h>

#include "ec_test_util.hpp"

namespace pp::ec {
namespace {

// (p - 1) / 3 as little-endian limbs.
void p_minus_1_div_3(uint64_t* out) {
  uint64_t v[6];
  for (int i = 0; i < 6; ++i) v[i] = ff::fp_params::modulus[i];
  v[0] -= 1;  // p is odd: no borrow
  unsigned __int128 rem = 0;
  for (int i = 5; i >= 0; --i) {
    const unsigned __int128 cur = (rem << 64) | v[i];
    out[i] = static_cast<uint64_t>(cur / 3);
    rem = cur % 3;
  }
  ASSERT_EQ(static_cast<uint64_t>(rem), 0u);
}

// x^2 mod r (the seed squared), as canonical limbs of an fr.
ff::fr seed_squared() {
  const ff::fr x = -ff::fr::from_uint(bls_seed_abs);
  return x * x;
}

TEST(Curves, GeneratorsHaveOrderR) {
  EXPECT_TRUE(is_on_curve(generator<g1_curve>()));
  EXPECT_TRUE(is_on_curve(generator<g2_curve>()));
  EXPECT_TRUE(is_infinity(mul_limbs(generator<g1_curve>(), ff::fr_params::modulus, 4)));
  EXPECT_TRUE(is_infinity(mul_limbs(generator<g2_curve>(), ff::fr_params::modulus, 4)));
}

TEST(Curves, SeedDefinesR) {
  // r = x^4 - x^2 + 1: so x^4 - x^2 + 1 = 0 in Fr.
  const ff::fr x2 = seed_squared();
  EXPECT_TRUE((x2 * x2 - x2 + ff::fr::one()).is_zero());
}

TEST(Curves, BetaIsTheRightCubeRootOfUnity) {
  const ff::fp beta = fp_from_limbs(g1_curve::beta());
  EXPECT_FALSE(beta.is_one());
  EXPECT_TRUE((beta * beta * beta).is_one());
  // phi(G) = [-x^2] G, and with beta^2 instead it would be [x^2 - 1] G.
  const g1_affine g = generator<g1_curve>();
  EXPECT_TRUE(to_jacobian(endomorphism_phi(g)) == scalar_mul(g, -seed_squared()));
  const g1_affine phi2{g.x * beta * beta, g.y};
  EXPECT_TRUE(to_jacobian(phi2) == scalar_mul(g, seed_squared() - ff::fr::one()));
}

TEST(Curves, PsiCoefficients) {
  uint64_t e3[6];
  p_minus_1_div_3(e3);
  const ff::fp2 xi = ff::fp2{ff::fp::one(), ff::fp::one()};  // 1 + u
  const ff::fp2 cx = xi.pow(e3, 6).inverse();
  const ff::fp2 cy = xi.pow(ff::fp_params::m_minus_1_half, 6).inverse();
  EXPECT_TRUE(cx.c0.is_zero());
  EXPECT_EQ(cx.c1, fp_from_limbs(g2_curve::psi_x_c1()));
  EXPECT_EQ(cy.c0, fp_from_limbs(g2_curve::psi_y_c0()));
  EXPECT_EQ(cy.c1, fp_from_limbs(g2_curve::psi_y_c1()));
  // psi acts on G2 as [x].
  const g2_affine g = generator<g2_curve>();
  EXPECT_TRUE(to_jacobian(endomorphism_psi(g)) == scalar_mul(g, -ff::fr::from_uint(bls_seed_abs)));
}

TEST(Curves, CurveCoefficients) {
  EXPECT_EQ(g1_curve::b(), ff::fp::from_uint(4));
  EXPECT_EQ(g2_curve::b(), (ff::fp2{ff::fp::one(), ff::fp::one()} * ff::fp::from_uint(4)));
}

}  // namespace
}  // namespace pp::ec
