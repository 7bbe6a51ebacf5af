// End-to-end Groth16 on random satisfied circuits in both key layouts: setup_insecure -> prove ->
// verify, at domain boundaries; determinism under fixed (r, s); rejection of tampered proofs, wrong
// inputs, foreign proofs, bad witnesses; and pi_A, pi_B, pi_C against the closed form from the
// toxic waste.
#include "groth16/prover.hpp"

#include <gtest/gtest.h>

#include <string>

#include "ec/scalar_mul.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/verifier.hpp"
#include "groth16/test_circuits.hpp"
#include "r1cs/satisfaction.hpp"
#include "support/status_matchers.hpp"

namespace pp::groth16 {
namespace {

using ::testing::Not;

using ff::fr;
using testing::random_circuit;
using testing::test_circuit;

const char* basis_name(h_basis b) { return b == h_basis::odd_coset_lagrange ? "snarkjs" : "bellman"; }

struct shape {
  h_basis basis;
  uint64_t m, num_public;
};

std::string shape_name(const ::testing::TestParamInfo<shape>& info) {
  return std::string(basis_name(info.param.basis)) + "_m" + std::to_string(info.param.m) + "_p" +
         std::to_string(info.param.num_public);
}

class ProverShapes : public ::testing::TestWithParam<shape> {};

TEST_P(ProverShapes, SetupProveVerify) {
  const shape sh = GetParam();
  uint64_t state = testing::test_seed() ^ (sh.m * 1000003 + sh.num_public * 7 + static_cast<uint64_t>(sh.basis));
  const test_circuit tc = random_circuit(state, sh.m, sh.num_public);
  ASSERT_THAT(r1cs::check_satisfied(tc.cs, tc.w), IsOk());
  auto pk = setup_insecure(tc.cs, sh.basis, toxic_waste_from_seed_insecure(state));
  ASSERT_THAT(pk, IsOk());
  EXPECT_GE(uint64_t{pk->domain_size}, sh.m + sh.num_public + 1);
  EXPECT_LT(uint64_t{pk->domain_size} / 2, sh.m + sh.num_public + 1);

  cpu_backend be;
  prove_request req{&*pk, &tc.cs, tc.w, std::nullopt, {}};
  auto out = prove(be, req);
  ASSERT_THAT(out, IsOk());
  const std::vector<fr> x = tc.public_inputs();
  EXPECT_THAT(verify(pk->vk, x, out->pi), IsOk());
  EXPECT_FALSE(out->timings.steps.empty());

  // A second proof with fresh (r, s) differs and verifies too.
  auto out2 = prove(be, req);
  ASSERT_THAT(out2, IsOk());
  EXPECT_FALSE(out2->pi == out->pi);
  EXPECT_THAT(verify(pk->vk, x, out2->pi), IsOk());

  // Wrong public input.
  if (!x.empty()) {
    std::vector<fr> bad = x;
    bad[state % bad.size()] += fr::one();
    EXPECT_EQ(verify(pk->vk, bad, out->pi).message(), "proof does not verify");
  }
  // Tampered proofs: each element moved by the generator, A and C swapped.
  proof t = out->pi;
  t.a = ec::to_affine(ec::add(ec::to_jacobian(t.a), ec::generator<ec::g1_curve>()));
  EXPECT_EQ(verify(pk->vk, x, t).message(), "proof does not verify");
  t = out->pi;
  t.b = ec::to_affine(ec::add(ec::to_jacobian(t.b), ec::generator<ec::g2_curve>()));
  EXPECT_EQ(verify(pk->vk, x, t).message(), "proof does not verify");
  t = out->pi;
  std::swap(t.a, t.c);
  EXPECT_EQ(verify(pk->vk, x, t).message(), "proof does not verify");
}

INSTANTIATE_TEST_SUITE_P(
    Boundaries, ProverShapes,
    ::testing::Values(
        // rows = m + p + 1 around 2, 4, 8, 16 and a few hundred, in both layouts.
        shape{h_basis::odd_coset_lagrange, 0, 0}, shape{h_basis::monomial, 0, 0},
        shape{h_basis::odd_coset_lagrange, 0, 2}, shape{h_basis::monomial, 0, 2},
        shape{h_basis::odd_coset_lagrange, 1, 0}, shape{h_basis::monomial, 1, 0},
        shape{h_basis::odd_coset_lagrange, 1, 1}, shape{h_basis::monomial, 2, 1},
        shape{h_basis::odd_coset_lagrange, 3, 1}, shape{h_basis::monomial, 3, 1},
        shape{h_basis::odd_coset_lagrange, 4, 2}, shape{h_basis::monomial, 4, 2},
        shape{h_basis::odd_coset_lagrange, 5, 2}, shape{h_basis::monomial, 5, 2},
        shape{h_basis::odd_coset_lagrange, 6, 2}, shape{h_basis::monomial, 6, 2},
        shape{h_basis::odd_coset_lagrange, 13, 2}, shape{h_basis::monomial, 13, 2},
        shape{h_basis::odd_coset_lagrange, 14, 3}, shape{h_basis::monomial, 14, 3},
        shape{h_basis::odd_coset_lagrange, 15, 2}, shape{h_basis::monomial, 15, 2},
        shape{h_basis::odd_coset_lagrange, 31, 0}, shape{h_basis::monomial, 31, 0},
        shape{h_basis::odd_coset_lagrange, 32, 0}, shape{h_basis::monomial, 32, 0},
        shape{h_basis::odd_coset_lagrange, 33, 0}, shape{h_basis::monomial, 33, 0},
        shape{h_basis::odd_coset_lagrange, 300, 5}, shape{h_basis::monomial, 300, 5}),
    shape_name);

class ProverBasis : public ::testing::TestWithParam<h_basis> {
 protected:
  void SetUp() override {
    state_ = testing::test_seed() ^ static_cast<uint64_t>(GetParam());
    tc_ = random_circuit(state_, 20, 3);
    tw_ = toxic_waste_from_seed_insecure(state_ + 1);
    auto pk = setup_insecure(tc_.cs, GetParam(), tw_);
    ASSERT_THAT(pk, IsOk());
    pk_ = std::move(pk).value();
  }
  uint64_t state_ = 0;
  test_circuit tc_;
  toxic_waste_insecure tw_;
  proving_key pk_;
  cpu_backend be_;
};

TEST_P(ProverBasis, FixedBlindingIsDeterministic) {
  const blinding rs{r1cs::random_fr(state_), r1cs::random_fr(state_)};
  prove_request req{&pk_, &tc_.cs, tc_.w, rs, {}};
  auto p1 = prove(be_, req);
  auto p2 = prove(be_, req);
  ASSERT_TRUE(p1.ok() && p2.ok());
  EXPECT_TRUE(p1->pi == p2->pi);
  // r = s = 0 is a valid (unblinded) proof as well.
  req.rs = blinding{fr::zero(), fr::zero()};
  auto p0 = prove(be_, req);
  ASSERT_THAT(p0, IsOk());
}

TEST_P(ProverBasis, ProofForAnotherCircuitFails) {
  const test_circuit other = random_circuit(state_, 20, 3);
  auto pk2 = setup_insecure(other.cs, GetParam(), toxic_waste_from_seed_insecure(state_ + 7));
  ASSERT_THAT(pk2, IsOk());
  auto pi2 = prove(be_, {&*pk2, &other.cs, other.w, std::nullopt, {}});
  ASSERT_THAT(pi2, IsOk());
  EXPECT_EQ(verify(pk_.vk, tc_.public_inputs(), pi2->pi).message(), "proof does not verify");
  EXPECT_EQ(verify(pk_.vk, other.public_inputs(), pi2->pi).message(), "proof does not verify");
}

TEST_P(ProverBasis, UnsatisfiedWitnessIsRejected) {
  // The last constraint's fresh variable appears only in that constraint's C.
  std::vector<fr> w = tc_.w;
  const uint64_t last = tc_.cs.num_constraints() - 1;
  w[1 + tc_.cs.num_public() + last] += fr::one();
  auto out = prove(be_, {&pk_, &tc_.cs, w, std::nullopt, {}});
  ASSERT_THAT(out, StatusIs(status_code::internal));
  EXPECT_NE(out.error().message().find("constraint " + std::to_string(last) + " is not satisfied"), std::string::npos)
      << out.error().message();

  prove_options opt;
  opt.check_satisfied = true;
  auto early = be_.start({&pk_, &tc_.cs, w, std::nullopt, opt});
  ASSERT_THAT(early, StatusIs(status_code::invalid_argument));
  EXPECT_NE(early.error().message().find("constraint " + std::to_string(last)), std::string::npos);

  // Without the self-check the (invalid) proof comes back and fails verification.
  opt = {};
  opt.self_verify = false;
  auto unchecked = prove(be_, {&pk_, &tc_.cs, w, std::nullopt, opt});
  ASSERT_THAT(unchecked, IsOk());
  EXPECT_EQ(verify(pk_.vk, tc_.public_inputs(), unchecked->pi).message(), "proof does not verify");
}

TEST_P(ProverBasis, WitnessSizeMismatch) {
  std::vector<fr> w = tc_.w;
  w.push_back(fr::one());
  auto out = be_.start({&pk_, &tc_.cs, w, std::nullopt, {}});
  ASSERT_THAT(out, StatusIs(status_code::invalid_argument));
  const std::string expected = "expected " + std::to_string(tc_.w.size());
  EXPECT_NE(out.error().message().find(expected), std::string::npos) << out.error().message();
  EXPECT_NE(out.error().message().find("got " + std::to_string(w.size())), std::string::npos);
  w.resize(1);
  EXPECT_THAT(be_.start({&pk_, &tc_.cs, w, std::nullopt, {}}), Not(IsOk()));
  // A key for another circuit shape.
  const test_circuit bigger = random_circuit(state_, 40, 3);
  auto k = be_.start({&pk_, &bigger.cs, bigger.w, std::nullopt, {}});
  ASSERT_THAT(k, StatusIs(status_code::invalid_argument));
}

// M_i(tau) for every variable with the Lagrange basis as a product (independent of lagrange_at).
std::vector<fr> direct_columns(const r1cs::csr_matrix& m, uint64_t num_vars, const fr& tau, uint64_t n,
                               const fr& omega, uint64_t input_rows_from, uint64_t num_inputs) {
  std::vector<fr> lag(n);
  for (uint64_t c = 0; c < n; ++c) {
    fr num = fr::one(), den = fr::one();
    for (uint64_t k = 0; k < n; ++k) {
      if (k == c) continue;
      num *= tau - omega.pow(k);
      den *= omega.pow(c) - omega.pow(k);
    }
    lag[c] = num * den.inverse();
  }
  std::vector<fr> out(num_vars, fr::zero());
  for (std::size_t r = 0; r < m.rows(); ++r) {
    for (std::size_t k = 0; k < m.row_cols(r).size(); ++k) out[m.row_cols(r)[k]] += m.row_coeffs(r)[k] * lag[r];
  }
  for (uint64_t i = 0; i < num_inputs; ++i) out[i] += lag[input_rows_from + i];
  return out;
}

TEST_P(ProverBasis, MatchesClosedFormFromToxicWaste) {
  const h_basis basis = GetParam();
  const test_circuit tc = random_circuit(state_, 3, 1, 1);  // 5 QAP rows: n = 8
  const toxic_waste_insecure tw = toxic_waste_from_seed_insecure(state_ + 3);
  auto pk = setup_insecure(tc.cs, basis, tw);
  ASSERT_THAT(pk, IsOk());
  ASSERT_EQ(pk->domain_size, 8u);
  const blinding rs{r1cs::random_fr(state_), r1cs::random_fr(state_)};
  auto out = prove(be_, {&*pk, &tc.cs, tc.w, rs, {}});
  ASSERT_THAT(out, IsOk());

  const uint64_t n = 8, m = tc.cs.num_constraints(), nv = tc.cs.num_variables(), np = tc.cs.num_public();
  const fr omega = ff::root_of_unity(3, basis == h_basis::odd_coset_lagrange ? ff::root_family::snarkjs5
                                                                                 : ff::root_family::generator7);
  const auto at = direct_columns(tc.cs.a(), nv, tw.tau, n, omega, m, np + 1);
  const auto bt = direct_columns(tc.cs.b(), nv, tw.tau, n, omega, m, 0);
  const auto ct = direct_columns(tc.cs.c(), nv, tw.tau, n, omega, m, 0);
  fr a_tau = fr::zero(), b_tau = fr::zero(), c_tau = fr::zero(), l_sum = fr::zero();
  for (uint64_t i = 0; i < nv; ++i) {
    a_tau += tc.w[i] * at[i];
    b_tau += tc.w[i] * bt[i];
    c_tau += tc.w[i] * ct[i];
    if (i > np) l_sum += tc.w[i] * (tw.beta * at[i] + tw.alpha * bt[i] + ct[i]);
  }
  const fr pa = tw.alpha + a_tau + rs.r * tw.delta;
  const fr pb = tw.beta + b_tau + rs.s * tw.delta;
  // C = (sum_aux (beta A_i + alpha B_i + C_i) + h(tau) Z(tau)) / delta + s A + r B - r s delta, and
  // h Z = A B - C at tau.
  const fr pc = (l_sum + a_tau * b_tau - c_tau) * tw.delta.inverse() + rs.s * pa + rs.r * pb - rs.r * rs.s * tw.delta;
  EXPECT_TRUE(out->pi.a == ec::to_affine(ec::scalar_mul(ec::generator<ec::g1_curve>(), pa)));
  EXPECT_TRUE(out->pi.b == ec::to_affine(ec::scalar_mul(ec::generator<ec::g2_curve>(), pb)));
  EXPECT_TRUE(out->pi.c == ec::to_affine(ec::scalar_mul(ec::generator<ec::g1_curve>(), pc)));
}

INSTANTIATE_TEST_SUITE_P(Both, ProverBasis, ::testing::Values(h_basis::odd_coset_lagrange, h_basis::monomial),
                         [](const auto& info) { return std::string(basis_name(info.param)); });

}  // namespace
}  // namespace pp::groth16
