// End-to-end Groth16 on random satisfied circuits in both key layouts: setup_insecure -> prove ->
// verify, at domain boundaries; determinism under fixed (r, s); rejection of tampered proofs, wrong
// inputs, foreign proofs, bad witnesses; and pi_A, pi_B, pi_C against the closed form from the
// toxic waste. Every test runs on both curve families (BLS12-381 and BN254).
#include "groth16/prover.hpp"

#include <gtest/gtest.h>

#include <string>

#include "ec/scalar_mul.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/verifier.hpp"
#include "groth16/test_circuits.hpp"
#include "r1cs/satisfaction.hpp"
#include "support/scalars.hpp"
#include "support/status_matchers.hpp"

namespace pp::groth16 {
namespace {

using ::testing::Not;

using bls = ec::bls12_381::family;
using bn = ec::bn254::family;

const char* basis_name(h_basis b) { return b == h_basis::odd_coset_lagrange ? "snarkjs" : "bellman"; }

struct shape {
  h_basis basis;
  uint64_t m, num_public;
};

// rows = m + p + 1 around 2, 4, 8, 16 and a few hundred, in both layouts.
constexpr shape boundary_shapes[] = {
    {h_basis::odd_coset_lagrange, 0, 0},   {h_basis::monomial, 0, 0},   {h_basis::odd_coset_lagrange, 0, 2},
    {h_basis::monomial, 0, 2},             {h_basis::odd_coset_lagrange, 1, 0}, {h_basis::monomial, 1, 0},
    {h_basis::odd_coset_lagrange, 1, 1},   {h_basis::monomial, 2, 1},   {h_basis::odd_coset_lagrange, 3, 1},
    {h_basis::monomial, 3, 1},             {h_basis::odd_coset_lagrange, 4, 2}, {h_basis::monomial, 4, 2},
    {h_basis::odd_coset_lagrange, 5, 2},   {h_basis::monomial, 5, 2},   {h_basis::odd_coset_lagrange, 6, 2},
    {h_basis::monomial, 6, 2},             {h_basis::odd_coset_lagrange, 13, 2}, {h_basis::monomial, 13, 2},
    {h_basis::odd_coset_lagrange, 14, 3},  {h_basis::monomial, 14, 3},  {h_basis::odd_coset_lagrange, 15, 2},
    {h_basis::monomial, 15, 2},            {h_basis::odd_coset_lagrange, 31, 0}, {h_basis::monomial, 31, 0},
    {h_basis::odd_coset_lagrange, 32, 0},  {h_basis::monomial, 32, 0},  {h_basis::odd_coset_lagrange, 33, 0},
    {h_basis::monomial, 33, 0},            {h_basis::odd_coset_lagrange, 300, 5}, {h_basis::monomial, 300, 5},
};

struct family_names {
  template <class T>
  static std::string GetName(int) {
    return std::is_same_v<T, bls> ? "bls12_381" : "bn254";
  }
};

template <class Family>
class ProverShapes : public ::testing::Test {};
using families = ::testing::Types<bls, bn>;
TYPED_TEST_SUITE(ProverShapes, families, family_names);

TYPED_TEST(ProverShapes, SetupProveVerifyAtDomainBoundaries) {
  using Family = TypeParam;
  using fr = typename Family::fr;
  for (const shape& sh : boundary_shapes) {
    SCOPED_TRACE(std::string(basis_name(sh.basis)) + " m " + std::to_string(sh.m) + " p " + std::to_string(sh.num_public));
    uint64_t state = testing::test_seed() ^ (sh.m * 1000003 + sh.num_public * 7 + static_cast<uint64_t>(sh.basis));
    const auto tc = testing::random_circuit<fr>(state, sh.m, sh.num_public);
    ASSERT_THAT(r1cs::check_satisfied<fr>(tc.cs, tc.w), IsOk());
    auto pk = setup_insecure<Family>(tc.cs, sh.basis, toxic_waste_from_seed_insecure<fr>(state));
    ASSERT_THAT(pk, IsOk());
    EXPECT_GE(uint64_t{pk->domain_size}, sh.m + sh.num_public + 1);
    EXPECT_LT(uint64_t{pk->domain_size} / 2, sh.m + sh.num_public + 1);

    basic_cpu_backend<Family> be;
    basic_prove_request<Family> req{&*pk, &tc.cs, tc.w, std::nullopt, {}};
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
    basic_proof<Family> t = out->pi;
    t.a = ec::to_affine(ec::add(ec::to_jacobian(t.a), ec::generator<typename Family::g1_curve>()));
    EXPECT_EQ(verify(pk->vk, x, t).message(), "proof does not verify");
    t = out->pi;
    t.b = ec::to_affine(ec::add(ec::to_jacobian(t.b), ec::generator<typename Family::g2_curve>()));
    EXPECT_EQ(verify(pk->vk, x, t).message(), "proof does not verify");
    t = out->pi;
    std::swap(t.a, t.c);
    EXPECT_EQ(verify(pk->vk, x, t).message(), "proof does not verify");
  }
}

// A curve family and a key layout.
template <class Family, h_basis Basis>
struct config {
  using family = Family;
  static constexpr h_basis basis = Basis;
};
using configs = ::testing::Types<config<bls, h_basis::odd_coset_lagrange>, config<bls, h_basis::monomial>,
                                 config<bn, h_basis::odd_coset_lagrange>, config<bn, h_basis::monomial>>;
struct config_names {
  template <class T>
  static std::string GetName(int) {
    return std::string(std::is_same_v<typename T::family, bls> ? "bls12_381_" : "bn254_") + basis_name(T::basis);
  }
};

template <class Config>
class ProverBasis : public ::testing::Test {
 protected:
  using Family = typename Config::family;
  using fr = typename Family::fr;
  static constexpr h_basis basis = Config::basis;

  void SetUp() override {
    state_ = testing::test_seed() ^ static_cast<uint64_t>(basis);
    rng_.seed(state_);
    tc_ = testing::random_circuit<fr>(state_, 20, 3);
    tw_ = toxic_waste_from_seed_insecure<fr>(state_ + 1);
    auto pk = setup_insecure<Family>(tc_.cs, basis, tw_);
    ASSERT_THAT(pk, IsOk());
    pk_ = std::move(pk).value();
  }
  fr random() { return pp::test::random_scalar<fr>(rng_); }

  uint64_t state_ = 0;
  std::mt19937_64 rng_;
  testing::basic_test_circuit<fr> tc_;
  basic_toxic_waste_insecure<fr> tw_;
  basic_proving_key<Family> pk_;
  basic_cpu_backend<Family> be_;
};
TYPED_TEST_SUITE(ProverBasis, configs, config_names);

TYPED_TEST(ProverBasis, FixedBlindingIsDeterministic) {
  using Family = typename TypeParam::family;
  using fr = typename Family::fr;
  const basic_blinding<Family> rs{this->random(), this->random()};
  basic_prove_request<Family> req{&this->pk_, &this->tc_.cs, this->tc_.w, rs, {}};
  auto p1 = prove(this->be_, req);
  auto p2 = prove(this->be_, req);
  ASSERT_TRUE(p1.ok() && p2.ok());
  EXPECT_TRUE(p1->pi == p2->pi);
  // r = s = 0 is a valid (unblinded) proof as well.
  req.rs = basic_blinding<Family>{fr::zero(), fr::zero()};
  auto p0 = prove(this->be_, req);
  ASSERT_THAT(p0, IsOk());
}

TYPED_TEST(ProverBasis, ProofForAnotherCircuitFails) {
  using Family = typename TypeParam::family;
  using fr = typename Family::fr;
  const auto other = testing::random_circuit<fr>(this->state_, 20, 3);
  auto pk2 = setup_insecure<Family>(other.cs, TestFixture::basis, toxic_waste_from_seed_insecure<fr>(this->state_ + 7));
  ASSERT_THAT(pk2, IsOk());
  auto pi2 = prove(this->be_, basic_prove_request<Family>{&*pk2, &other.cs, other.w, std::nullopt, {}});
  ASSERT_THAT(pi2, IsOk());
  EXPECT_EQ(verify(this->pk_.vk, this->tc_.public_inputs(), pi2->pi).message(), "proof does not verify");
  EXPECT_EQ(verify(this->pk_.vk, other.public_inputs(), pi2->pi).message(), "proof does not verify");
}

TYPED_TEST(ProverBasis, UnsatisfiedWitnessIsRejected) {
  using Family = typename TypeParam::family;
  using fr = typename Family::fr;
  // The last constraint's fresh variable appears only in that constraint's C.
  std::vector<fr> w = this->tc_.w;
  const uint64_t last = this->tc_.cs.num_constraints() - 1;
  w[1 + this->tc_.cs.num_public() + last] += fr::one();
  auto out = prove(this->be_, basic_prove_request<Family>{&this->pk_, &this->tc_.cs, w, std::nullopt, {}});
  ASSERT_THAT(out, StatusIs(status_code::internal));
  EXPECT_NE(out.error().message().find("constraint " + std::to_string(last) + " is not satisfied"), std::string::npos)
      << out.error().message();

  prove_options opt;
  opt.check_satisfied = true;
  auto early = this->be_.start(basic_prove_request<Family>{&this->pk_, &this->tc_.cs, w, std::nullopt, opt});
  ASSERT_THAT(early, StatusIs(status_code::invalid_argument));
  EXPECT_NE(early.error().message().find("constraint " + std::to_string(last)), std::string::npos);

  // Without the self-check the (invalid) proof comes back and fails verification.
  opt = {};
  opt.self_verify = false;
  auto unchecked = prove(this->be_, basic_prove_request<Family>{&this->pk_, &this->tc_.cs, w, std::nullopt, opt});
  ASSERT_THAT(unchecked, IsOk());
  EXPECT_EQ(verify(this->pk_.vk, this->tc_.public_inputs(), unchecked->pi).message(), "proof does not verify");
}

TYPED_TEST(ProverBasis, WitnessSizeMismatch) {
  using Family = typename TypeParam::family;
  using fr = typename Family::fr;
  std::vector<fr> w = this->tc_.w;
  w.push_back(fr::one());
  auto out = this->be_.start(basic_prove_request<Family>{&this->pk_, &this->tc_.cs, w, std::nullopt, {}});
  ASSERT_THAT(out, StatusIs(status_code::invalid_argument));
  const std::string expected = "expected " + std::to_string(this->tc_.w.size());
  EXPECT_NE(out.error().message().find(expected), std::string::npos) << out.error().message();
  EXPECT_NE(out.error().message().find("got " + std::to_string(w.size())), std::string::npos);
  w.resize(1);
  EXPECT_THAT(this->be_.start(basic_prove_request<Family>{&this->pk_, &this->tc_.cs, w, std::nullopt, {}}), Not(IsOk()));
  // A key for another circuit shape.
  const auto bigger = testing::random_circuit<fr>(this->state_, 40, 3);
  auto k = this->be_.start(basic_prove_request<Family>{&this->pk_, &bigger.cs, bigger.w, std::nullopt, {}});
  ASSERT_THAT(k, StatusIs(status_code::invalid_argument));
}

// M_i(tau) for every variable with the Lagrange basis as a product (independent of lagrange_at).
template <class fr>
std::vector<fr> direct_columns(const r1cs::basic_csr_matrix<fr>& m, uint64_t num_vars, const fr& tau, uint64_t n,
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

TYPED_TEST(ProverBasis, MatchesClosedFormFromToxicWaste) {
  using Family = typename TypeParam::family;
  using fr = typename Family::fr;
  const h_basis basis = TestFixture::basis;
  const auto tc = testing::random_circuit<fr>(this->state_, 3, 1, 1);  // 5 QAP rows: n = 8
  const basic_toxic_waste_insecure<fr> tw = toxic_waste_from_seed_insecure<fr>(this->state_ + 3);
  auto pk = setup_insecure<Family>(tc.cs, basis, tw);
  ASSERT_THAT(pk, IsOk());
  ASSERT_EQ(pk->domain_size, 8u);
  const basic_blinding<Family> rs{this->random(), this->random()};
  auto out = prove(this->be_, basic_prove_request<Family>{&*pk, &tc.cs, tc.w, rs, {}});
  ASSERT_THAT(out, IsOk());

  const uint64_t n = 8, m = tc.cs.num_constraints(), nv = tc.cs.num_variables(), np = tc.cs.num_public();
  const fr omega = ff::root_of_unity<fr>(3, basis == h_basis::odd_coset_lagrange ? ff::root_family::snarkjs5
                                                                                 : ff::root_family::generator7);
  const auto at = direct_columns<fr>(tc.cs.a(), nv, tw.tau, n, omega, m, np + 1);
  const auto bt = direct_columns<fr>(tc.cs.b(), nv, tw.tau, n, omega, m, 0);
  const auto ct = direct_columns<fr>(tc.cs.c(), nv, tw.tau, n, omega, m, 0);
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
  EXPECT_TRUE(out->pi.a == ec::to_affine(ec::scalar_mul(ec::generator<typename Family::g1_curve>(), pa)));
  EXPECT_TRUE(out->pi.b == ec::to_affine(ec::scalar_mul(ec::generator<typename Family::g2_curve>(), pb)));
  EXPECT_TRUE(out->pi.c == ec::to_affine(ec::scalar_mul(ec::generator<typename Family::g1_curve>(), pc)));
}

}  // namespace
}  // namespace pp::groth16
