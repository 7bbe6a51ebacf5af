// setup_insecure: layout of both key kinds (sizes, densities, gamma), the verifying key against the
// toxic waste, and the refusals.
#include "groth16/setup_insecure.hpp"

#include <gtest/gtest.h>

#include "ec/scalar_mul.hpp"
#include "groth16/test_circuits.hpp"
#include "r1cs/density.hpp"
#include "support/status_matchers.hpp"

namespace pp::groth16 {
namespace {

using ::testing::Not;

using ff::fr;

ec::g1_affine g1_mul(const fr& k) { return ec::to_affine(ec::scalar_mul(ec::generator<ec::g1_curve>(), k)); }
ec::g2_affine g2_mul(const fr& k) { return ec::to_affine(ec::scalar_mul(ec::generator<ec::g2_curve>(), k)); }

TEST(SetupInsecure, SnarkjsLayout) {
  uint64_t state = testing::test_seed();
  const testing::test_circuit tc = testing::random_circuit(state, 12, 3, 4);  // 16 rows: n = 16
  const toxic_waste_insecure tw = toxic_waste_from_seed_insecure(state);
  auto pk = setup_insecure(tc.cs, h_basis::odd_coset_lagrange, tw);
  ASSERT_THAT(pk, IsOk());
  EXPECT_EQ(pk->domain_size, 16u);
  EXPECT_EQ(pk->n_vars, tc.cs.num_variables());
  EXPECT_EQ(pk->n_public(), 3u);
  EXPECT_EQ(pk->a.size(), tc.cs.num_variables());
  EXPECT_EQ(pk->b_g1.size(), tc.cs.num_variables());
  EXPECT_EQ(pk->b_g2.size(), tc.cs.num_variables());
  EXPECT_EQ(pk->l.size(), tc.cs.num_aux());
  EXPECT_EQ(pk->h.size(), 16u);
  EXPECT_FALSE(pk->a_density || pk->b_density);
  EXPECT_TRUE(pk->vk.gamma_g2 == ec::generator<ec::g2_curve>());
  EXPECT_TRUE(pk->vk.alpha_g1 == g1_mul(tw.alpha));
  EXPECT_TRUE(pk->vk.beta_g1 == g1_mul(tw.beta));
  EXPECT_TRUE(pk->vk.beta_g2 == g2_mul(tw.beta));
  EXPECT_TRUE(pk->vk.delta_g1 == g1_mul(tw.delta));
  EXPECT_TRUE(pk->vk.delta_g2 == g2_mul(tw.delta));
  // Unused aux variables have zero columns: their points are infinity, kept.
  const uint64_t unused = tc.cs.num_variables() - 1;
  EXPECT_TRUE(ec::is_infinity(pk->a[unused]) && ec::is_infinity(pk->b_g2[unused]) && ec::is_infinity(pk->l.back()));
}

TEST(SetupInsecure, BellmanLayoutFiltersAAndB) {
  uint64_t state = testing::test_seed() + 1;
  const testing::test_circuit tc = testing::random_circuit(state, 13, 2, 3);  // 16 rows
  const toxic_waste_insecure tw = toxic_waste_from_seed_insecure(state);
  auto pk = setup_insecure(tc.cs, h_basis::monomial, tw);
  ASSERT_THAT(pk, IsOk());
  EXPECT_EQ(pk->domain_size, 16u);
  EXPECT_EQ(pk->h.size(), 15u);
  EXPECT_TRUE(pk->vk.gamma_g2 == g2_mul(tw.gamma));
  ASSERT_TRUE(pk->a_density && pk->b_density);
  const r1cs::column_density cd = r1cs::compute_density(tc.cs);
  for (uint64_t i = 0; i < tc.cs.num_variables(); ++i) {
    EXPECT_EQ(pk->a_density->get(i), i <= tc.cs.num_public() || cd.a.test(i)) << i;
    EXPECT_EQ(pk->b_density->get(i), cd.b.test(i)) << i;
  }
  EXPECT_EQ(pk->a.size(), pk->a_density->count());
  EXPECT_EQ(pk->b_g1.size(), pk->b_density->count());
  EXPECT_EQ(pk->b_g2.size(), pk->b_density->count());
  EXPECT_LT(pk->a.size(), tc.cs.num_variables());  // the unused variables are gone
  // The filter follows the density (terms present), not the value: a column whose terms cancel,
  // e.g. x - x in one row, keeps its (infinity) point, and the prover reads the same bitmap.
  // H_0 = Z(tau) / delta.
  EXPECT_TRUE(pk->h[0] == g1_mul((tw.tau.pow(16) - fr::one()) * tw.delta.inverse()));
}

TEST(SetupInsecure, Refusals) {
  uint64_t state = testing::test_seed() + 2;
  const testing::test_circuit tc = testing::random_circuit(state, 4, 1);  // 6 rows: n = 8
  toxic_waste_insecure tw = toxic_waste_from_seed_insecure(state);
  tw.delta = fr::zero();
  EXPECT_EQ(setup_insecure(tc.cs, h_basis::monomial, tw).error().code(), status_code::invalid_argument);
  tw = toxic_waste_from_seed_insecure(state);
  tw.tau = ff::root_of_unity(3, ff::root_family::snarkjs5);  // in the 8-domain
  EXPECT_EQ(setup_insecure(tc.cs, h_basis::odd_coset_lagrange, tw).error().code(), status_code::invalid_argument);
  tw.tau = ff::root_of_unity(4, ff::root_family::snarkjs5);  // an odd 16th root: in the 2n-domain only
  EXPECT_EQ(setup_insecure(tc.cs, h_basis::odd_coset_lagrange, tw).error().code(), status_code::invalid_argument);
  EXPECT_THAT(setup_insecure(tc.cs, h_basis::monomial, tw), IsOk());
  // gamma = 0 is fine for snarkjs (gamma is forced to 1 there).
  tw = toxic_waste_from_seed_insecure(state);
  tw.gamma = fr::zero();
  EXPECT_THAT(setup_insecure(tc.cs, h_basis::odd_coset_lagrange, tw), IsOk());
  EXPECT_THAT(setup_insecure(tc.cs, h_basis::monomial, tw), Not(IsOk()));
}

TEST(SetupInsecure, RandomToxicWasteDiffers) {
  const auto a = random_toxic_waste_insecure(), b = random_toxic_waste_insecure();
  EXPECT_NE(a.tau, b.tau);
  EXPECT_NE(a.delta, b.delta);
}

}  // namespace
}  // namespace pp::groth16
