// Roots of unity and the coset shift of a scalar field, for any mont_field whose params carry
// two_adicity, generator, root_of_unity (generator^t) and snarkjs_root_of_unity (5^t), with
// r - 1 = 2^two_adicity * t (scripts/gen_constants.py).
#pragma once
#include "ff/mont_field.hpp"

namespace pp::ff {

// Which 2^two_adicity-th root of unity generates the evaluation domains. Any primitive root gives a
// valid domain, but key files fix one: bellman/arkworks/blst use the field's generator (7 on
// BLS12-381), snarkjs uses 5 on every curve. On BN254 the generator is 5, so both families agree.
enum class root_family { generator7, snarkjs5 };

// A primitive 2^log_n-th root of unity (log_n <= two_adicity): the 2^two_adicity-th root squared
// two_adicity - log_n times.
template <class F>
PP_HD F root_of_unity(int log_n, root_family family = root_family::generator7) {
  using P = typename F::params;
  F w = F::from_montgomery(family == root_family::snarkjs5 ? P::snarkjs_root_of_unity : P::root_of_unity);
  for (int i = P::two_adicity; i > log_n; --i) w = w.sqr();
  return w;
}

// The multiplicative generator, used as the coset shift of evaluation domains.
template <class F>
PP_HD constexpr F coset_generator() {
  return F::from_montgomery(F::params::generator);
}

}  // namespace pp::ff
