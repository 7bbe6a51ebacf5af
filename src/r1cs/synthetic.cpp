// Random system generation: terms drawn per row, then the constant term of C balances the row.
#include "r1cs/synthetic.hpp"

#include <cmath>

#include "r1cs/constraint_system_builder.hpp"
#include "r1cs/spmv.hpp"

namespace pp::r1cs {

namespace {

using ff::fr;

uint64_t splitmix(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ull);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

double uniform01(uint64_t& s) { return static_cast<double>(splitmix(s) >> 11) * 0x1.0p-53; }

std::size_t row_terms(double mean, uint64_t& s) {
  const double base = std::floor(mean);
  return static_cast<std::size_t>(base) + (uniform01(s) < mean - base ? 1 : 0);
}

}  // namespace

fr random_fr(uint64_t& state) {
  for (;;) {
    uint64_t v[4] = {splitmix(state), splitmix(state), splitmix(state), splitmix(state) >> 1};
    fr out;
    if (fr::from_canonical_checked(v, out)) return out;
  }
}

result<synthetic_circuit> make_synthetic(const synthetic_params& p) {
  uint64_t s = p.seed;
  constraint_system_builder builder(p.num_public, p.num_aux);
  const uint64_t n_vars = builder.num_variables();
  if (n_vars > constraint_system::max_variables) return out_of_range("synthetic: too many variables");
  witness w(n_vars);
  w[0] = fr::one();
  for (uint64_t i = 1; i < n_vars; ++i) {
    const double u = uniform01(s);
    w[i] = i <= p.num_public ? random_fr(s) : u < p.witness_zero ? fr::zero()
                                         : u < p.witness_zero + p.witness_one ? fr::one()
                                                                              : random_fr(s);
  }
  auto coeff = [&]() {
    const double u = uniform01(s);
    if (u < p.coeff_one) return fr::one();
    if (u < p.coeff_one + p.coeff_minus_one) return -fr::one();
    if (u < p.coeff_one + p.coeff_minus_one + p.coeff_zero) return fr::zero();
    return random_fr(s);
  };
  auto lc = [&](double mean, linear_combination& out) {
    out.clear();
    const std::size_t n = row_terms(mean, s);
    for (std::size_t k = 0; k < n; ++k) out.push_back({static_cast<uint32_t>(splitmix(s) % n_vars), coeff()});
  };
  builder.reserve(p.num_constraints, 3);
  linear_combination a, b, c;
  for (uint64_t i = 0; i < p.num_constraints; ++i) {
    lc(p.nnz_a, a);
    lc(p.nnz_b, b);
    lc(p.nnz_c, c);
    const fr target = reference::evaluate_lc(a, w) * reference::evaluate_lc(b, w);
    c.push_back({0, target - reference::evaluate_lc(c, w)});
    if (status st = builder.add_constraint(a, b, c); !st.ok()) return st;
  }
  auto cs = std::move(builder).build();
  if (!cs.ok()) return std::move(cs).take_status();
  return synthetic_circuit{std::move(cs).value(), std::move(w)};
}

}  // namespace pp::r1cs
