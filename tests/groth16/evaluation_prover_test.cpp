// prove_from_evaluations against the circuit prover (cpu_backend) as the oracle: the same key,
// witness and (r, s) must give the same proof, for circuits around the domain boundaries; and bad
// requests (sizes, densities, wrong evaluations) are errors, never proofs.
#include "groth16/evaluation_prover.hpp"

#include <gtest/gtest.h>

#include <vector>

#include "groth16/prover.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/verifier.hpp"
#include "support/groth16_fixtures.hpp"
#include "support/status_matchers.hpp"
#include "test_circuits.hpp"

namespace pp::groth16 {
namespace {

using ff::fr;
using testing::random_circuit;

// One circuit with its key, the evaluations a request points into (support/groth16_fixtures.hpp)
// and (r, s).
struct fixture {
  testing::test_circuit tc;
  proving_key pk;
  pp::test::evaluations ev;
  blinding rs;

  evaluation_request request() const { return ev.request(pk, tc.cs, tc.w, rs); }
};

fixture make_fixture(uint64_t& state, uint64_t m, uint64_t num_public) {
  fixture f;
  f.tc = random_circuit(state, m, num_public);
  auto pk = setup_insecure(f.tc.cs, h_basis::monomial, toxic_waste_from_seed_insecure(state + 1));
  EXPECT_THAT(pk, IsOk());
  f.pk = std::move(pk).value();
  f.ev = pp::test::make_evaluations(f.tc.cs, f.tc.w, f.pk);
  f.rs = {r1cs::random_fr(state), r1cs::random_fr(state)};
  return f;
}

class EvaluationProverShapes : public ::testing::TestWithParam<std::pair<uint64_t, uint64_t>> {};

TEST_P(EvaluationProverShapes, SameProofAsTheCircuitProver) {
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
INSTANTIATE_TEST_SUITE_P(Boundaries, EvaluationProverShapes,
                         ::testing::Values(std::pair<uint64_t, uint64_t>{0, 0}, std::pair<uint64_t, uint64_t>{1, 0},
                                           std::pair<uint64_t, uint64_t>{14, 1}, std::pair<uint64_t, uint64_t>{15, 0},
                                           std::pair<uint64_t, uint64_t>{30, 1}, std::pair<uint64_t, uint64_t>{31, 0},
                                           std::pair<uint64_t, uint64_t>{33, 4},
                                           std::pair<uint64_t, uint64_t>{300, 5}));

TEST(EvaluationProver, BadRequestsAreErrors) {
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
    if (!((g.ev.a_aux[i / 64] >> (i % 64)) & 1)) {
      g.ev.a_aux[i / 64] |= uint64_t{1} << (i % 64);
      break;
    }
  }
  EXPECT_EQ(prove_from_evaluations(g.request()).error().code(), status_code::invalid_argument);

  r = f.request();
  r.c = r.c.subspan(1);
  EXPECT_EQ(prove_from_evaluations(r).error().code(), status_code::invalid_argument);

  // Evaluations that are not A w: the self-check refuses the proof.
  g = f;
  g.ev.a[state % g.ev.a.size()] += fr::one();
  EXPECT_EQ(prove_from_evaluations(g.request()).error().code(), status_code::internal);

  // More rows than the domain.
  g = f;
  g.ev.a.resize(f.pk.domain_size + 1, fr::zero());
  g.ev.b.resize(g.ev.a.size(), fr::zero());
  g.ev.c.resize(g.ev.a.size(), fr::zero());
  EXPECT_EQ(prove_from_evaluations(g.request()).error().code(), status_code::invalid_argument);
}

}  // namespace
}  // namespace pp::groth16
