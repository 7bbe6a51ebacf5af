// qap_domain (both root families) against the naive DFT, lagrange_at against interpolation, and
// compute_h in both bases against its definition: h Z = A B - C.
#include "groth16/qap.hpp"

#include <gtest/gtest.h>

#include "groth16/test_circuits.hpp"
#include "poly/reference_dft.hpp"
#include "r1cs/synthetic.hpp"
#include "support/status_matchers.hpp"

namespace pp::groth16 {
namespace {

using ff::fr;

std::vector<fr> random_vec(uint64_t& state, std::size_t n) {
  std::vector<fr> v(n);
  for (fr& x : v) x = r1cs::random_fr(state);
  return v;
}

class QapFamily : public ::testing::TestWithParam<ff::root_family> {};

TEST_P(QapFamily, NttMatchesDftAndRoundtrips) {
  uint64_t state = testing::test_seed();
  for (int log_n : {0, 1, 2, 3, 5, 9}) {
    auto d = qap_domain::create(log_n, GetParam());
    ASSERT_THAT(d, IsOk());
    EXPECT_EQ(d->omega(), ff::root_of_unity(log_n, GetParam()));
    const auto coeffs = random_vec(state, d->size());
    std::vector<fr> v = coeffs;
    ASSERT_THAT(d->ntt(v), IsOk());
    EXPECT_EQ(v, poly::reference::dft(coeffs, d->omega())) << "log_n " << log_n;
    ASSERT_THAT(d->intt(v), IsOk());
    EXPECT_EQ(v, coeffs);
  }
}

TEST_P(QapFamily, LagrangeAtInterpolates) {
  uint64_t state = testing::test_seed() + 1;
  for (int log_n : {0, 1, 4}) {
    auto d = qap_domain::create(log_n, GetParam());
    ASSERT_THAT(d, IsOk());
    const fr tau = r1cs::random_fr(state);
    auto lag = d->lagrange_at(tau);
    ASSERT_THAT(lag, IsOk());
    // sum_c p(omega^c) L_c(tau) = p(tau) for deg p < n.
    const auto coeffs = random_vec(state, d->size());
    std::vector<fr> evals = coeffs;
    ASSERT_THAT(d->ntt(evals), IsOk());
    fr acc = fr::zero();
    for (std::size_t c = 0; c < evals.size(); ++c) acc += evals[c] * (*lag)[c];
    EXPECT_EQ(acc, poly::reference::evaluate(coeffs, tau));
    // tau in the domain is refused.
    EXPECT_EQ(d->lagrange_at(d->omega()).error().code(), status_code::invalid_argument);
  }
}

INSTANTIATE_TEST_SUITE_P(Both, QapFamily, ::testing::Values(ff::root_family::generator7, ff::root_family::snarkjs5));


TEST(ComputeH, BothBasesSatisfyHTimesZ) {
  uint64_t state = testing::test_seed() + 2;
  for (uint64_t m : {1, 4, 5, 29}) {
    const testing::test_circuit tc = testing::random_circuit(state, m, 2);
    for (h_basis basis : {h_basis::odd_coset_lagrange, h_basis::monomial}) {
      auto d = qap_domain::for_circuit(tc.cs, root_family_for(basis));
      ASSERT_THAT(d, IsOk());
      const uint64_t n = d->size();
      std::vector<fr> a(n), b(n), c(n);
      ASSERT_THAT(evaluate_qap(*d, tc.cs, tc.w, a, b, c), IsOk());
      // Coefficients of A, B, C (interpolants over the domain).
      std::vector<fr> ac = a, bc = b, cc = c;
      ASSERT_TRUE(d->intt(ac).ok() && d->intt(bc).ok() && d->intt(cc).ok());
      auto h = compute_h(*d, basis, a, b, c);
      ASSERT_THAT(h, IsOk());
      const fr x = r1cs::random_fr(state);
      const fr q = poly::reference::evaluate(ac, x) * poly::reference::evaluate(bc, x) - poly::reference::evaluate(cc, x);
      const fr z = x.pow(n) - fr::one();
      if (basis == h_basis::monomial) {
        ASSERT_EQ(*h, n - 1);
        EXPECT_EQ(poly::reference::evaluate(std::span<const fr>(a.data(), *h), x) * z, q) << "m " << m;
      } else {
        // h_j = q(x_j) at the odd 2n-th roots x_j = omega_2n^(2j+1); q = h Z has degree <= 2n - 2, so the
        // 2n-point Lagrange sum over the odd points (q vanishes on the even ones) gives q(x).
        ASSERT_EQ(*h, n);
        const fr w2 = ff::root_of_unity(d->log_size() + 1, d->family());
        fr acc = fr::zero();
        const fr z2 = x.pow(2 * n) - fr::one();
        for (uint64_t j = 0; j < n; ++j) {
          const fr xj = w2.pow(2 * j + 1);
          acc += a[j] * z2 * fr::from_uint(2 * n).inverse() * xj * (x - xj).inverse();
        }
        EXPECT_EQ(acc, q) << "m " << m;
      }
    }
  }
}

TEST(EvaluateQap, RejectsSmallDomainAndBadWitness) {
  uint64_t state = testing::test_seed() + 3;
  const testing::test_circuit tc = testing::random_circuit(state, 6, 2);  // 9 rows
  auto d8 = qap_domain::create(3, ff::root_family::snarkjs5);
  ASSERT_THAT(d8, IsOk());
  std::vector<fr> a(8), b(8);
  EXPECT_EQ(evaluate_qap(*d8, tc.cs, tc.w, a, b, {}).code(), status_code::invalid_argument);
  auto d16 = qap_domain::create(4, ff::root_family::snarkjs5);
  std::vector<fr> a16(16), b16(16);
  std::vector<fr> w = tc.w;
  w.pop_back();
  EXPECT_EQ(evaluate_qap(*d16, tc.cs, w, a16, b16, {}).code(), status_code::invalid_argument);
  EXPECT_THAT(evaluate_qap(*d16, tc.cs, tc.w, a16, b16, {}), IsOk());
}

}  // namespace
}  // namespace pp::groth16
