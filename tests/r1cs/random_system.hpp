// Test helpers: per-test seeds (support/test_seed.hpp) and random systems kept as lists
// of linear combinations, so results can be checked with reference::evaluate_lc independent of CSR.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <random>
#include <vector>

#include "r1cs/constraint_system_builder.hpp"
#include "r1cs/linear_combination.hpp"
#include "r1cs/synthetic.hpp"
#include "support/test_seed.hpp"

namespace pp::r1cs::testing {

// Seeds: support/test_seed.hpp (PP_TEST_SEED replays a run).
using pp::test::test_seed;

struct lc_system {
  uint64_t num_public = 0, num_aux = 0;
  std::vector<linear_combination> a, b, c;

  uint64_t num_variables() const { return 1 + num_public + num_aux; }
  constraint_system build() const {
    constraint_system_builder bld(num_public, num_aux);
    for (std::size_t i = 0; i < a.size(); ++i) {
      if (!bld.add_constraint(a[i], b[i], c[i]).ok()) std::abort();
    }
    auto cs = std::move(bld).build();
    if (!cs.ok()) std::abort();
    return std::move(cs).value();
  }
};

// Values drawn from {0, 1, -1, random}; terms may repeat variables and have zero coefficients.
inline ff::fr special_or_random(uint64_t& state) {
  switch (state % 4) {
    case 0: state = state * 6364136223846793005ull + 1; return ff::fr::zero();
    case 1: state = state * 6364136223846793005ull + 1; return ff::fr::one();
    case 2: state = state * 6364136223846793005ull + 1; return -ff::fr::one();
    default: return random_fr(state);
  }
}

inline lc_system random_lc_system(uint64_t& state, uint64_t rows, uint64_t num_public, uint64_t num_aux,
                                  unsigned max_terms) {
  lc_system s{num_public, num_aux, {}, {}, {}};
  std::mt19937_64 g(state++);
  auto lc = [&] {
    linear_combination out(g() % (max_terms + 1));
    for (term& t : out) t = {static_cast<uint32_t>(g() % s.num_variables()), special_or_random(state)};
    return out;
  };
  for (uint64_t i = 0; i < rows; ++i) {
    s.a.push_back(lc());
    s.b.push_back(lc());
    s.c.push_back(lc());
  }
  return s;
}

inline std::vector<ff::fr> random_witness(uint64_t& state, uint64_t n) {
  std::vector<ff::fr> w(n);
  for (auto& x : w) x = special_or_random(state);
  if (n > 0) w[0] = ff::fr::one();
  return w;
}

}  // namespace pp::r1cs::testing
