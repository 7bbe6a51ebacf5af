// prove_from_evaluations against the circuit prover (cpu_backend) as the oracle: the same key,
// witness and (r, s) must give the same proof, for circuits around the domain boundaries; and bad
// requests (sizes, densities, wrong evaluations) are errors, never proofs.
#include "groth16/evaluation_prover.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "groth16/prover.hpp"
#include "groth16/qap.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/verifier.hpp"
#include "support/status_matchers.hpp"
#include "test_circuits.hpp"

namespace pp::groth16 {
namespace {

using ff::fr;
using testing::random_circuit;

// Bits [from, from + count) of d, LSB first.
std::vector<uint64_t> bits_of(const density_bitmap& d, uint64_t from, uint64_t count) {
  std::vector<uint64_t> w((count + 63) / 64, 0);
  for (uint64_t i = 0; i < count; ++i) {
    if (d.get(from + i)) w[i / 64] |= uint64_t{1} << (i % 64);
  }
  return w;
}

// One circuit with its key and everything an evaluation_request points into.
struct fixture {
  testing::test_circuit tc;
  proving_key pk;
  std::vector<fr> a, b, c;
  std::vector<uint64_t> a_aux, b_inp, b_aux;
  blinding rs;

  evaluation_request request() const {
    const uint64_t n_inp = 1 + tc.cs.num_public();
    evaluation_request r;
    r.pk = &pk;
    r.a = a;
    r.b = b;
    r.c = c;
    r.inputs = std::span<const fr>(tc.w).subspan(0, n_inp);
    r.aux = std::span<const fr>(tc.w).subspan(n_inp);
    r.a_aux = {a_aux, tc.cs.num_aux()};
    r.b_inputs = {b_inp, n_inp};
    r.b_aux = {b_aux, tc.cs.num_aux()};
    r.rs = rs;
    return r;
  }
};

fixture make_fixture(uint64_t& state, uint64_t m, uint64_t num_public) {
  fixture f;
  f.tc = random_circuit(state, m, num_public);
  auto pk = setup_insecure(f.tc.cs, h_basis::monomial, toxic_waste_from_seed_insecure(state + 1));
  EXPECT_THAT(pk, IsOk());
  f.pk = std::move(pk).value();
  auto d = qap_domain::for_circuit(f.tc.cs, root_family_for(h_basis::monomial));
  EXPECT_THAT(d, IsOk());
  const uint64_t rows = qap_rows(f.tc.cs);
  std::vector<fr> a(d->size()), b(d->size()), c(d->size());
  EXPECT_THAT(evaluate_qap(*d, f.tc.cs, f.tc.w, a, b, c), IsOk());
  f.a.assign(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(rows));  // unpadded, as bellperson hands it over
  f.b.assign(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(rows));
  f.c.assign(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(rows));
  const uint64_t n_inp = 1 + f.tc.cs.num_public(), n_aux = f.tc.cs.num_aux();
  f.a_aux = bits_of(*f.pk.a_density, n_inp, n_aux);
  f.b_inp = bits_of(*f.pk.b_density, 0, n_inp);
  f.b_aux = bits_of(*f.pk.b_density, n_inp, n_aux);
  f.rs = {r1cs::random_fr(state), r1cs::random_fr(state)};
  return f;
}

class evaluation_prover_shapes : public ::testing::TestWithParam<std::pair<uint64_t, uint64_t>> {};

TEST_P(evaluation_prover_shapes, same_proof_as_the_circuit_prover) {
  uint64_t state = testing::test_seed() ^ (GetParam().first * 1000 + GetParam().second);
  const fixture f = make_fixture(state, GetParam().first, GetParam().second);
  auto pi = prove_from_evaluations(f.request());
  ASSERT_THAT(pi, IsOk());
  cpu_backend be;
  auto oracle = prove(be, prove_request{&f.pk, &f.tc.cs, f.tc.w, f.rs, {}});
  ASSERT_THAT(oracle, IsOk());
  EXPECT_TRUE(*pi == oracle->pi);
  EXPECT_THAT(verify(f.pk.vk, f.tc.public_inputs(), *pi), IsOk());
}

// Rows = m + public + 1 on both sides of 2, 16, 32 and a few hundred.
INSTANTIATE_TEST_SUITE_P(boundaries, evaluation_prover_shapes,
                         ::testing::Values(std::pair<uint64_t, uint64_t>{0, 0}, std::pair<uint64_t, uint64_t>{1, 0},
                                           std::pair<uint64_t, uint64_t>{14, 1}, std::pair<uint64_t, uint64_t>{15, 0},
                                           std::pair<uint64_t, uint64_t>{30, 1}, std::pair<uint64_t, uint64_t>{31, 0},
                                           std::pair<uint64_t, uint64_t>{33, 4},
                                           std::pair<uint64_t, uint64_t>{300, 5}));

TEST(evaluation_prover, bad_requests_are_errors) {
  uint64_t state = testing::test_seed();
  const fixture f = make_fixture(state, 40, 3);
  ASSERT_THAT(prove_from_evaluations(f.request()), IsOk());

  evaluation_request r = f.request();
  r.aux = r.aux.subspan(1);
  EXPECT_EQ(prove_from_evaluations(r).error().code(), status_code::invalid_argument);

  r = f.request();
  r.b_aux.bits -= 1;
  EXPECT_EQ(prove_from_evaluations(r).error().code(), status_code::invalid_argument);

  // One more A bit than the key has points for.
  fixture g = f;
  for (uint64_t i = 0; i < g.tc.cs.num_aux(); ++i) {
    if (!((g.a_aux[i / 64] >> (i % 64)) & 1)) {
      g.a_aux[i / 64] |= uint64_t{1} << (i % 64);
      break;
    }
  }
  EXPECT_EQ(prove_from_evaluations(g.request()).error().code(), status_code::invalid_argument);

  r = f.request();
  r.c = r.c.subspan(1);
  EXPECT_EQ(prove_from_evaluations(r).error().code(), status_code::invalid_argument);

  // Evaluations that are not A w: the self-check refuses the proof.
  g = f;
  g.a[state % g.a.size()] += fr::one();
  EXPECT_EQ(prove_from_evaluations(g.request()).error().code(), status_code::internal);

  // More rows than the domain.
  g = f;
  g.a.resize(f.pk.domain_size + 1, fr::zero());
  g.b.resize(g.a.size(), fr::zero());
  g.c.resize(g.a.size(), fr::zero());
  EXPECT_EQ(prove_from_evaluations(g.request()).error().code(), status_code::invalid_argument);
}

}  // namespace
}  // namespace pp::groth16
