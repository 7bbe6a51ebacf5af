// verify: input counts, off-curve and out-of-subgroup proof points, infinity, and acceptance.
#include "groth16/verifier.hpp"

#include <gtest/gtest.h>

#include "ec/subgroup.hpp"
#include "groth16/prover.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/test_circuits.hpp"
#include "support/status_matchers.hpp"

namespace pp::groth16 {
namespace {

using ff::fr;

class Verifier : public ::testing::Test {
 protected:
  void SetUp() override {
    state_ = testing::test_seed();
    tc_ = testing::random_circuit(state_, 10, 2);
    auto pk = setup_insecure(tc_.cs, h_basis::monomial, toxic_waste_from_seed_insecure(state_));
    ASSERT_THAT(pk, IsOk());
    pk_ = std::move(pk).value();
    cpu_backend be;
    auto out = prove(be, {&pk_, &tc_.cs, tc_.w, std::nullopt, {}});
    ASSERT_THAT(out, IsOk());
    pi_ = out->pi;
    x_ = tc_.public_inputs();
  }
  uint64_t state_ = 0;
  testing::test_circuit tc_;
  proving_key pk_;
  proof pi_;
  std::vector<fr> x_;
};

TEST_F(Verifier, AcceptsAndCountsInputs) {
  EXPECT_THAT(verify(pk_.vk, x_, pi_), IsOk());
  std::vector<fr> more = x_;
  more.push_back(fr::one());
  const status s = verify(pk_.vk, more, pi_);
  EXPECT_EQ(s.code(), status_code::invalid_argument);
  EXPECT_EQ(s.message(), "wrong number of public inputs: expected 2, got 3");
  EXPECT_EQ(verify(pk_.vk, std::span<const fr>(x_.data(), 1), pi_).message(),
            "wrong number of public inputs: expected 2, got 1");
}

TEST_F(Verifier, RejectsPointsOffCurveAndOutsideSubgroup) {
  proof bad = pi_;
  bad.a.y += ff::fp::one();
  EXPECT_EQ(verify(pk_.vk, x_, bad).message(), "proof point A is not on the curve");
  bad = pi_;
  bad.b.x += ff::fp2{ff::fp::one(), ff::fp::zero()};
  EXPECT_EQ(verify(pk_.vk, x_, bad).message(), "proof point B is not on the curve");
  // A curve point outside G1: lift an x without clearing the cofactor.
  ec::g1_affine p;
  ff::fp x = ff::fp::from_uint(state_ % 1000 + 1);
  while (!ec::lift_x(x, p) || ec::is_in_subgroup(p)) x += ff::fp::one();
  bad = pi_;
  bad.c = p;
  EXPECT_EQ(verify(pk_.vk, x_, bad).message(), "proof point C is not in the prime-order subgroup");
  ec::g2_affine q;
  ff::fp2 x2{ff::fp::from_uint(state_ % 1000 + 1), ff::fp::one()};
  while (!ec::lift_x(x2, q) || ec::is_in_subgroup(q)) x2 += ff::fp2{ff::fp::one(), ff::fp::zero()};
  bad = pi_;
  bad.b = q;
  EXPECT_EQ(verify(pk_.vk, x_, bad).message(), "proof point B is not in the prime-order subgroup");
}

TEST_F(Verifier, InfinityPointsDoNotVerify) {
  proof bad = pi_;
  bad.a = ec::g1_affine::infinity();
  EXPECT_EQ(verify(pk_.vk, x_, bad).message(), "proof does not verify");
  bad = pi_;
  bad.c = ec::g1_affine::infinity();
  EXPECT_EQ(verify(pk_.vk, x_, bad).message(), "proof does not verify");
}

}  // namespace
}  // namespace pp::groth16
