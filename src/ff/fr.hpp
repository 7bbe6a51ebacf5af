// BLS12-381 scalar field Fr: r = 0x73eda753...00000001 (255 bits), 2-adicity 32.
// Roots of unity are powers of 7^((r-1)/2^32); 7 is the multiplicative generator and the coset shift.
#pragma once
#include "ff/bls12_381_constants.hpp"
#include "ff/mont_field.hpp"

namespace pp::ff {

using fr = mont_field<fr_params>;
static_assert(sizeof(fr) == 32);

// A primitive 2^log_n-th root of unity (log_n <= 32): the 2^32-th root squared 32 - log_n times.
PP_HD fr root_of_unity(int log_n) {
  fr w = fr::from_montgomery(fr_params::root_of_unity);
  for (int i = fr_params::two_adicity; i > log_n; --i) w = w.sqr();
  return w;
}

// The multiplicative generator 7, used as the coset shift of evaluation domains.
PP_HD constexpr fr coset_generator() { return fr::from_montgomery(fr_params::generator); }

}  // namespace pp::ff
