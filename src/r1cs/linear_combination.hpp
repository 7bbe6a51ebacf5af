// A linear combination sum_i coeff_i * w[var_i] over the witness layout 1 | public | aux.
// The builder appends constraints as three of these; reference::evaluate_lc is the naive evaluation
// every fast SpMV path is tested against. Over either curve's scalar field; `term` is BLS12-381's.
#pragma once
#include <cstdint>
#include <span>
#include <type_traits>
#include <vector>

#include "ff/fr.hpp"

namespace pp::r1cs {

template <class Fr>
struct basic_term {
  uint32_t var = 0;  // index into the witness (0 is the constant 1)
  Fr coeff;

  friend bool operator==(const basic_term& x, const basic_term& y) { return x.var == y.var && x.coeff == y.coeff; }
};

using term = basic_term<ff::fr>;
using linear_combination = std::vector<term>;

namespace reference {

// <lc, w>, one multiply per term, no fast paths. Caller guarantees every var < w.size().
template <class Fr>
Fr evaluate_lc(const std::vector<basic_term<Fr>>& lc, std::span<const std::type_identity_t<Fr>> w) {
  Fr acc = Fr::zero();
  for (const basic_term<Fr>& t : lc) acc += t.coeff * w[t.var];
  return acc;
}

}  // namespace reference
}  // namespace pp::r1cs
