// BLS12-381 scalar field Fr: r = 0x73eda753...00000001 (255 bits), 2-adicity 32.
// Roots of unity are powers of 7^((r-1)/2^32); 7 is the multiplicative generator and the coset shift.
#pragma once
#include "ff/bls12_381_constants.hpp"
#include "ff/mont_field.hpp"

namespace pp::ff {

using fr = mont_field<fr_params>;
static_assert(sizeof(fr) == 32);

// Which 2^32-th root of unity generates the evaluation domains. Any primitive root gives a valid
// domain, but key files fix one: bellman/arkworks/blst use 7^t, snarkjs uses 5^t (t = (r-1)/2^32).
enum class root_family { generator7, snarkjs5 };

// A primitive 2^log_n-th root of unity (log_n <= 32): the 2^32-th root squared 32 - log_n times.
PP_HD fr root_of_unity(int log_n, root_family family = root_family::generator7) {
  fr w = fr::from_montgomery(family == root_family::snarkjs5 ? fr_params::snarkjs_root_of_unity
                                                             : fr_params::root_of_unity);
  for (int i = fr_params::two_adicity; i > log_n; --i) w = w.sqr();
  return w;
}

// The multiplicative generator 7, used as the coset shift of evaluation domains.
PP_HD constexpr fr coset_generator() { return fr::from_montgomery(fr_params::generator); }

}  // namespace pp::ff
