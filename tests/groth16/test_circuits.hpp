// Test helpers for groth16: per-test seeds (support/test_seed.hpp) and random satisfied
// circuits shaped like small real ones: chains of products over earlier variables, several terms per
// row, public inputs used in A/B, public outputs bound in C, aux values that only appear in C, and
// aux variables that appear nowhere. Over either curve's scalar field (BLS12-381's by default).
#pragma once
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "r1cs/constraint_system_builder.hpp"
#include "r1cs/linear_combination.hpp"
#include "support/scalars.hpp"
#include "support/test_seed.hpp"

namespace pp::groth16::testing {

// Seeds: support/test_seed.hpp (PP_TEST_SEED replays a run).
using pp::test::test_seed;

template <class Fr = ff::fr>
struct basic_test_circuit {
  r1cs::basic_constraint_system<Fr> cs;
  std::vector<Fr> w;  // 1 | public | aux, satisfies cs
  std::vector<Fr> public_inputs() const {
    return {w.begin() + 1, w.begin() + 1 + static_cast<std::ptrdiff_t>(cs.num_public())};
  }
};

// m constraints; num_public public variables (the first half are inputs, the rest outputs bound by
// constraints); one fresh aux variable per constraint plus `unused` aux variables used nowhere.
template <class Fr = ff::fr>
basic_test_circuit<Fr> random_circuit(uint64_t& state, uint64_t m, uint64_t num_public, uint64_t unused = 2) {
  using fr = Fr;
  using term = r1cs::basic_term<Fr>;
  using linear_combination = std::vector<term>;
  const uint64_t num_aux = m + unused;
  r1cs::basic_constraint_system_builder<Fr> bld(num_public, num_aux);
  std::vector<fr> w(1 + num_public + num_aux, fr::zero());
  w[0] = fr::one();
  const uint64_t n_inputs = (num_public + 1) / 2;
  std::mt19937_64 g(state++);
  for (uint64_t i = 0; i < num_public; ++i) w[1 + i] = pp::test::random_scalar<Fr>(g);
  for (uint64_t i = 0; i < unused; ++i) w[1 + num_public + m + i] = pp::test::random_scalar<Fr>(g);
  auto coeff = [&]() -> fr {
    switch (g() % 4) {
      case 0: return fr::one();
      case 1: return -fr::one();
      default: return pp::test::random_scalar<Fr>(g);
    }
  };
  auto nonzero_coeff = [&]() {
    fr c = coeff();
    return c.is_zero() ? fr::one() : c;
  };
  uint64_t next_output = n_inputs;
  for (uint64_t k = 0; k < m; ++k) {
    // Variables with a value so far: the constant, every public input, aux 0..k-1.
    const uint64_t n_known = 1 + num_public + k;
    auto pick = [&]() -> uint32_t {
      const uint64_t j = g() % n_known;
      return static_cast<uint32_t>(j <= num_public ? j : 1 + num_public + (j - 1 - num_public));
    };
    auto lc = [&](unsigned max_terms) {
      linear_combination out(1 + g() % max_terms);
      for (term& t : out) t = {pick(), coeff()};
      return out;
    };
    const linear_combination a = lc(3), b = lc(2);
    const fr prod = r1cs::reference::evaluate_lc<Fr>(a, w) * r1cs::reference::evaluate_lc<Fr>(b, w);
    linear_combination c = g() % 3 == 0 ? lc(2) : linear_combination{};
    // Public outputs: bound in C next to the fresh aux variable, in the last constraints.
    if (next_output < num_public && m - k <= num_public - n_inputs) c.push_back({static_cast<uint32_t>(1 + next_output++), fr::one()});
    const fr rest = r1cs::reference::evaluate_lc<Fr>(c, w);
    const uint32_t v = static_cast<uint32_t>(1 + num_public + k);
    const fr cv = nonzero_coeff();
    w[v] = (prod - rest) * cv.inverse();
    c.push_back({v, cv});
    if (!bld.add_constraint(a, b, c).ok()) std::abort();
  }
  auto cs = std::move(bld).build();
  if (!cs.ok()) std::abort();
  return {std::move(cs).value(), std::move(w)};
}

using test_circuit = basic_test_circuit<ff::fr>;

}  // namespace pp::groth16::testing
