// A linear combination sum_i coeff_i * w[var_i] over the witness layout 1 | public | aux.
// The builder appends constraints as three of these; reference::evaluate_lc is the naive evaluation
// every fast SpMV path is tested against.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace pp::r1cs {

struct term {
  uint32_t var = 0;  // index into the witness (0 is the constant 1)
  ff::fr coeff;

  friend bool operator==(const term& x, const term& y) { return x.var == y.var && x.coeff == y.coeff; }
};

using linear_combination = std::vector<term>;

namespace reference {

// <lc, w>, one multiply per term, no fast paths. Caller guarantees every var < w.size().
inline ff::fr evaluate_lc(std::span<const term> lc, std::span<const ff::fr> w) {
  ff::fr acc = ff::fr::zero();
  for (const term& t : lc) acc += t.coeff * w[t.var];
  return acc;
}

}  // namespace reference
}  // namespace pp::r1cs
