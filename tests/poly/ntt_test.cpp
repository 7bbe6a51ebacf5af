// The fast NTTs against reference::dft and direct polynomial evaluation, in every order, forward,
// inverse and on the coset; round trips up to 2^20; linearity; errors on size mismatch.
#include "poly/ntt.hpp"

#include <gtest/gtest.h>
#include <tbb/task_arena.h>

#include "poly/bit_reverse.hpp"
#include "poly/powers.hpp"
#include "poly/random_fr.hpp"  // tests/poly
#include "poly/reference_dft.hpp"
#include "ff/bn254_fr.hpp"
#include "support/status_matchers.hpp"

namespace pp::poly {
namespace {

// Every test runs on both curves' scalar fields.
using fields = ::testing::Types<ff::fr, ff::bn254::fr>;
template <class Fr>
class Ntt : public ::testing::Test {};
TYPED_TEST_SUITE(Ntt, fields);
template <class Fr>
class CosetNtt : public ::testing::Test {};
TYPED_TEST_SUITE(CosetNtt, fields);
template <class Fr>
class EvaluationsToCoset : public ::testing::Test {};
TYPED_TEST_SUITE(EvaluationsToCoset, fields);

constexpr ntt_order all_orders[] = {ntt_order::nn, ntt_order::nr, ntt_order::rn, ntt_order::rr};

bool in_reversed(ntt_order o) { return o == ntt_order::rn || o == ntt_order::rr; }
bool out_reversed(ntt_order o) { return o == ntt_order::nr || o == ntt_order::rr; }

template <class Fr>
std::vector<Fr> permuted(std::vector<Fr> v) {
  bit_reverse_permute(v).ignore();
  return v;
}

template <class Fr>
basic_evaluation_domain<Fr> make_domain(int log_n) {
  auto d = basic_evaluation_domain<Fr>::create(log_n);
  EXPECT_THAT(d, IsOk());
  return std::move(d).value();
}

// Runs f on x laid out in `order`'s input order and returns the output in natural order.
template <class F, class Fr>
std::vector<Fr> run_natural(F f, const basic_evaluation_domain<Fr>& d, std::vector<Fr> x, ntt_order order) {
  if (in_reversed(order)) x = permuted(std::move(x));
  const status s = f(d, std::span<Fr>(x), order);
  EXPECT_THAT(s, IsOk());
  return out_reversed(order) ? permuted(std::move(x)) : x;
}

TYPED_TEST(Ntt, MatchesReferenceDftUpTo1024) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  for (int log_n = 0; log_n <= 10; ++log_n) {
    const evaluation_domain d = make_domain<fr>(log_n);
    const std::vector<fr> x = rng.template vector<fr>(d.size());
    const std::vector<fr> want = reference::dft(x, d.omega());
    const std::vector<fr> want_inv = [&] {
      std::vector<fr> v = reference::dft(x, d.omega_inv());
      for (fr& e : v) e *= d.size_inv();
      return v;
    }();
    for (ntt_order o : all_orders) {
      SCOPED_TRACE("log_n = " + std::to_string(log_n) + ", order " + ntt_order_name(o));
      EXPECT_EQ(run_natural(ntt<fr>, d, x, o), want);
      EXPECT_EQ(run_natural(intt<fr>, d, x, o), want_inv);
    }
  }
}

// Above the leaf size the multi-pass path runs; a few outputs are checked by Horner evaluation.
TYPED_TEST(Ntt, LargeSizesMatchPointEvaluation) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  for (int log_n : {11, 12, 13, 14, 17, 19}) {
    const evaluation_domain d = make_domain<fr>(log_n);
    const std::vector<fr> x = rng.template vector<fr>(d.size());
    for (ntt_order o : {ntt_order::nr, ntt_order::rn}) {
      SCOPED_TRACE("log_n = " + std::to_string(log_n) + ", order " + ntt_order_name(o));
      const std::vector<fr> y = run_natural(ntt<fr>, d, x, o);
      for (uint64_t k : {uint64_t{0}, uint64_t{1}, d.size() - 1, rng.next_u64() % d.size()}) {
        EXPECT_EQ(y[k], reference::evaluate(x, d.element(k))) << "k = " << k;
      }
    }
  }
}

TYPED_TEST(Ntt, InverseUndoesForwardUpTo2To20) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  for (int log_n = 0; log_n <= 20; ++log_n) {
    const evaluation_domain d = make_domain<fr>(log_n);
    const std::vector<fr> x = rng.template vector<fr>(d.size());
    // Cycle through the orders so every size meets a few of them without 4x the run time.
    const ntt_order fwd = all_orders[log_n % 4];
    const ntt_order inv = out_reversed(fwd) ? (in_reversed(fwd) ? ntt_order::rr : ntt_order::rn)
                                            : (in_reversed(fwd) ? ntt_order::nr : ntt_order::nn);
    SCOPED_TRACE("log_n = " + std::to_string(log_n) + ", " + ntt_order_name(fwd) + " then " + ntt_order_name(inv));
    std::vector<fr> y = x;
    ASSERT_THAT(ntt(d, y, fwd), IsOk());
    ASSERT_THAT(intt(d, y, inv), IsOk());
    EXPECT_TRUE(y == x);
    std::vector<fr> z = x;
    ASSERT_THAT(coset_ntt(d, z, fwd), IsOk());
    ASSERT_THAT(coset_intt(d, z, inv), IsOk());
    EXPECT_TRUE(z == x);
  }
}

TYPED_TEST(CosetNtt, MatchesDirectEvaluation) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  for (int log_n = 0; log_n <= 8; ++log_n) {
    const evaluation_domain d = make_domain<fr>(log_n);
    const std::vector<fr> x = rng.template vector<fr>(d.size());
    std::vector<fr> want(d.size());
    for (uint64_t i = 0; i < d.size(); ++i) want[i] = reference::evaluate(x, d.coset_shift() * d.element(i));
    for (ntt_order o : all_orders) {
      SCOPED_TRACE("log_n = " + std::to_string(log_n) + ", order " + ntt_order_name(o));
      EXPECT_EQ(run_natural(coset_ntt<fr>, d, x, o), want);
      // coset_intt maps the evaluations back to the coefficients.
      std::vector<fr> evals = in_reversed(o) ? permuted(want) : want;
      ASSERT_THAT(coset_intt(d, evals, o), IsOk());
      EXPECT_EQ(out_reversed(o) ? permuted(evals) : evals, x);
    }
  }
}

TYPED_TEST(Ntt, Linearity) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  for (int log_n : {0, 1, 5, 13, 15}) {
    SCOPED_TRACE("log_n = " + std::to_string(log_n));
    const evaluation_domain d = make_domain<fr>(log_n);
    std::vector<fr> x = rng.template vector<fr>(d.size()), y = rng.template vector<fr>(d.size()), z(d.size());
    const fr a = rng.template next<fr>(), b = rng.template next<fr>();
    for (uint64_t i = 0; i < d.size(); ++i) z[i] = a * x[i] + b * y[i];
    ASSERT_THAT(ntt(d, x), IsOk());
    ASSERT_THAT(ntt(d, y), IsOk());
    ASSERT_THAT(ntt(d, z), IsOk());
    for (uint64_t i = 0; i < d.size(); ++i) ASSERT_EQ(z[i], a * x[i] + b * y[i]) << "i = " << i;
  }
}

TYPED_TEST(Ntt, EdgeInputs) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  const evaluation_domain d = make_domain<fr>(4);
  // Zero maps to zero; a constant polynomial evaluates to the constant; a delta at 0 in the
  // evaluations is the all-(1/n) coefficient vector.
  std::vector<fr> v(16, fr::zero());
  ASSERT_THAT(ntt(d, v), IsOk());
  for (const fr& e : v) EXPECT_TRUE(e.is_zero());
  v[0] = fr::from_uint(5);
  ASSERT_THAT(ntt(d, v), IsOk());
  for (const fr& e : v) EXPECT_EQ(e, fr::from_uint(5));
  std::fill(v.begin(), v.end(), fr::zero());
  v[0] = fr::one();
  ASSERT_THAT(intt(d, v), IsOk());
  for (const fr& e : v) EXPECT_EQ(e, d.size_inv());
  // n = 1: every transform is the identity.
  const evaluation_domain d1 = make_domain<fr>(0);
  std::vector<fr> one{fr::from_uint(9)};
  for (ntt_order o : all_orders) {
    ASSERT_THAT(ntt(d1, one, o), IsOk());
    ASSERT_THAT(intt(d1, one, o), IsOk());
    ASSERT_THAT(coset_ntt(d1, one, o), IsOk());
    EXPECT_EQ(one[0], fr::from_uint(9));
    ASSERT_THAT(coset_intt(d1, one, o), IsOk());
    EXPECT_EQ(one[0], fr::from_uint(9));
  }
}

TYPED_TEST(Ntt, SingleThreadedArenaGivesTheSameResult) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  const evaluation_domain d = make_domain<fr>(16);
  const std::vector<fr> x = rng.template vector<fr>(d.size());
  std::vector<fr> par = x, seq = x;
  ASSERT_THAT(coset_ntt(d, par), IsOk());
  tbb::task_arena one_thread(1);
  one_thread.execute([&] { ASSERT_THAT(coset_ntt(d, seq), IsOk()); });
  EXPECT_TRUE(par == seq);
}

TYPED_TEST(Ntt, RejectsSizeMismatch) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  const evaluation_domain d = make_domain<fr>(3);
  for (std::size_t n : {0, 4, 7, 9, 16}) {
    std::vector<fr> v(n, fr::one());
    const std::vector<fr> before = v;
    for (auto f : {ntt<fr>, intt<fr>, coset_ntt<fr>, coset_intt<fr>}) {
      const status s = f(d, v, ntt_order::nn);
      EXPECT_EQ(s.code(), status_code::invalid_argument);
      EXPECT_NE(s.message().find("8"), std::string::npos) << s.message();
      EXPECT_NE(s.message().find(std::to_string(n)), std::string::npos) << s.message();
    }
    EXPECT_EQ(v, before);  // untouched
  }
}

// snarkjs keys fix omega to the 5^t family; the leaf table must come from the same family, or the
// multi-pass path (above the leaf size) mixes two different roots.
TYPED_TEST(Ntt, SnarkjsRootFamilyMatchesPointEvaluation) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  for (int log_n : {3, 13, 14}) {
    auto made = evaluation_domain::create(log_n, ff::root_family::snarkjs5);
    ASSERT_THAT(made, IsOk());
    const evaluation_domain& d = *made;
    EXPECT_EQ(d.omega(), ff::root_of_unity<fr>(log_n, ff::root_family::snarkjs5));
    // The families differ where the field's generator is not 5 (BLS12-381: 7; BN254: 5, the same).
    EXPECT_EQ(d.omega() == ff::root_of_unity<fr>(log_n), ff::coset_generator<fr>() == fr::from_uint(5));
    const std::vector<fr> x = rng.template vector<fr>(d.size());
    for (ntt_order o : all_orders) {
      SCOPED_TRACE("log_n = " + std::to_string(log_n) + ", order " + ntt_order_name(o));
      const std::vector<fr> y = run_natural(ntt<fr>, d, x, o);
      for (uint64_t k : {uint64_t{1}, d.size() - 1, rng.next_u64() % d.size()}) {
        EXPECT_EQ(y[k], reference::evaluate(x, d.element(k))) << "k = " << k;
      }
      EXPECT_EQ(run_natural(intt<fr>, d, y, o), x);
    }
  }
}

// evaluations_to_coset against its definition: interpolate (reference DFT), evaluate at s * omega^i.
// Both root families, a random shift s each run, sizes from 1 through the leaf into the multi-pass path.
TYPED_TEST(EvaluationsToCoset, MatchesInterpolateThenEvaluate) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  for (const ff::root_family f : {ff::root_family::generator7, ff::root_family::snarkjs5}) {
    for (int log_n : {0, 1, 2, 5, 8}) {
      SCOPED_TRACE("log_n = " + std::to_string(log_n));
      auto made = evaluation_domain::create(log_n, f);
      ASSERT_THAT(made, IsOk());
      const evaluation_domain& d = *made;
      const fr s = rng.template next<fr>();
      const std::vector<fr> evals = rng.template vector<fr>(d.size());
      std::vector<fr> coeffs = reference::dft(evals, d.omega_inv());
      for (fr& e : coeffs) e *= d.size_inv();
      std::vector<fr> got = evals;
      ASSERT_THAT(evaluations_to_coset(d, got, bit_reversed_powers(d, s, d.size_inv())), IsOk());
      for (uint64_t i = 0; i < d.size(); ++i) EXPECT_EQ(got[i], reference::evaluate(coeffs, s * d.element(i))) << i;
    }
  }
}

// Above the leaf size (top passes, table offsets per leaf): the same as the three-step route
// intt, distribute_powers, ntt, and a few points against Horner evaluation.
TYPED_TEST(EvaluationsToCoset, LargeSizesMatchThreeStepRoute) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  for (int log_n : {12, 13, 16}) {
    SCOPED_TRACE("log_n = " + std::to_string(log_n));
    auto made = evaluation_domain::create(log_n, ff::root_family::snarkjs5);
    ASSERT_THAT(made, IsOk());
    const evaluation_domain& d = *made;
    const fr s = rng.template next<fr>();
    const std::vector<fr> evals = rng.template vector<fr>(d.size());
    std::vector<fr> want = evals;
    ASSERT_THAT(intt(d, want), IsOk());
    const std::vector<fr> coeffs = want;
    distribute_powers(want, s);
    ASSERT_THAT(ntt(d, want), IsOk());
    std::vector<fr> got = evals;
    ASSERT_THAT(evaluations_to_coset(d, got, bit_reversed_powers(d, s, d.size_inv())), IsOk());
    EXPECT_TRUE(got == want);
    for (uint64_t k : {uint64_t{0}, d.size() - 1, rng.next_u64() % d.size()}) {
      EXPECT_EQ(got[k], reference::evaluate(coeffs, s * d.element(k))) << "k = " << k;
    }
  }
}

TYPED_TEST(EvaluationsToCoset, ZeroAndConstantInputs) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  const evaluation_domain d = make_domain<fr>(13);
  const fr s = fr::from_uint(11);
  const std::vector<fr> table = bit_reversed_powers(d, s, d.size_inv());
  std::vector<fr> v(d.size(), fr::zero());
  ASSERT_THAT(evaluations_to_coset(d, v, table), IsOk());
  for (const fr& e : v) ASSERT_TRUE(e.is_zero());
  std::fill(v.begin(), v.end(), fr::from_uint(5));  // the constant 5 is 5 on every coset
  ASSERT_THAT(evaluations_to_coset(d, v, table), IsOk());
  for (const fr& e : v) ASSERT_EQ(e, fr::from_uint(5));
}

TYPED_TEST(EvaluationsToCoset, RejectsSizeMismatch) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  const evaluation_domain d = make_domain<fr>(3);
  const std::vector<fr> table = bit_reversed_powers(d, fr::from_uint(3), d.size_inv());
  std::vector<fr> short_v(4, fr::one());
  EXPECT_EQ(evaluations_to_coset(d, short_v, table).code(), status_code::invalid_argument);
  std::vector<fr> v(8, fr::one());
  const std::vector<fr> before = v;
  const status s = evaluations_to_coset(d, v, std::span<const fr>(table).first(4));
  EXPECT_EQ(s.code(), status_code::invalid_argument);
  EXPECT_NE(s.message().find("table"), std::string::npos) << s.message();
  EXPECT_EQ(v, before);
}

}  // namespace
}  // namespace pp::poly
