// prove_from_evaluations against the circuit prover (cpu_backend) as the oracle: the same key,
// witness and (r, s) must give the same proof, for circuits around the domain boundaries; and bad
// requests (sizes, densities, wrong evaluations) are errors, never proofs. first_unreduced (with and
// without its copy) against a plain comparison of the limbs, most significant first: around r on
// purpose (r - 1, r, r + 1, all ones) at the first, last and a random place, across task blocks.
#include "groth16/evaluation_prover.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <iterator>
#include <vector>

#include "groth16/prover.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/synthetic.hpp"
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

// r + k (k small: r's low limb is 0xffffffff00000001, so no carry) as raw Montgomery limbs.
fr r_plus(int64_t k) {
  uint64_t l[fr::n64];
  std::memcpy(l, fr::params::modulus, sizeof l);
  l[0] += uint64_t(k);
  return fr::from_montgomery(l);
}

// The oracle: the first value whose limbs, most significant first, are not below r's.
uint64_t naive_first_unreduced(const std::vector<fr>& v) {
  const auto below_r = [](const fr& x) {
    for (int i = fr::n64 - 1; i >= 0; --i) {
      if (x.l[i] != fr::params::modulus[i]) return x.l[i] < fr::params::modulus[i];
    }
    return false;
  };
  for (uint64_t i = 0; i < v.size(); ++i) {
    if (!below_r(v[i])) return i;
  }
  return v.size();
}

// Both forms of first_unreduced agree with the oracle; the copy holds v whenever v is all reduced.
void expect_first_unreduced(const std::vector<fr>& v, const char* what) {
  SCOPED_TRACE(std::string(what) + ", " + std::to_string(v.size()) + " values");
  const uint64_t want = naive_first_unreduced(v);
  EXPECT_EQ(first_unreduced(v), want);
  std::vector<fr> copy(v.size(), fr::one());
  EXPECT_EQ(first_unreduced(v, copy.data()), want);
  if (want == v.size()) {
    EXPECT_TRUE(copy == v) << "the copy differs";
  }
}

TEST(FirstUnreduced, FindsTheFirstValueNotBelowR) {
  uint64_t state = testing::test_seed();
  uint64_t all_ones[fr::n64];
  std::fill(std::begin(all_ones), std::end(all_ones), ~uint64_t{0});
  // Above r only in a lower limb, and only in the top limb.
  uint64_t low_above[fr::n64], top_above[fr::n64];
  std::memcpy(low_above, fr::params::modulus, sizeof low_above);
  low_above[1] += 1;
  std::fill(std::begin(top_above), std::end(top_above), 0);
  top_above[fr::n64 - 1] = fr::params::modulus[fr::n64 - 1] + 1;
  const fr bad[] = {r_plus(0), r_plus(1), fr::from_montgomery(all_ones), fr::from_montgomery(low_above),
                    fr::from_montgomery(top_above)};

  expect_first_unreduced({}, "empty");
  // Three blocks of first_unreduced's tasks and a few values more.
  for (const uint64_t n : {uint64_t{1}, uint64_t{2}, uint64_t{97}, (uint64_t{3} << 15) + 5}) {
    std::vector<fr> v(n);
    for (fr& x : v) x = r1cs::random_fr(state);
    v[n - 1] = r_plus(-1);  // r - 1 is reduced
    v[0] = fr::zero();
    expect_first_unreduced(v, "all reduced, r - 1 last");
    for (const fr& b : bad) {
      const uint64_t at = state++ % n;
      for (const uint64_t i : {uint64_t{0}, n - 1, at}) {
        std::vector<fr> w = v;
        w[i] = b;
        expect_first_unreduced(w, "one unreduced value");
      }
      // Two: the earlier one is found, whichever task sees it.
      std::vector<fr> w = v;
      w[n - 1] = b;
      w[at] = bad[state++ % std::size(bad)];
      expect_first_unreduced(w, "two unreduced values");
    }
  }
  std::vector<fr> ones(70000, fr::from_montgomery(all_ones));
  expect_first_unreduced(ones, "all ones");
}

TEST(FirstUnreduced, MessageNamesTheValue) {
  EXPECT_THAT(unreduced_scalar("provers[2].b", 17),
              StatusIs(status_code::invalid_argument,
                       ::testing::StrEq("provers[2].b[17] is not a reduced scalar (Montgomery form, below r)")));
}

}  // namespace
}  // namespace pp::groth16
