// BLS12-381 scalar field Fr: r = 0x73eda753...00000001 (255 bits), 2-adicity 32.
// Roots of unity are powers of 7^((r-1)/2^32); 7 is the multiplicative generator and the coset shift
// (ff/roots_of_unity.hpp; snarkjs's keys use 5^((r-1)/2^32) instead).
#pragma once
#include "ff/bls12_381_constants.hpp"
#include "ff/mont_field.hpp"
#include "ff/roots_of_unity.hpp"

namespace pp::ff {

using fr = mont_field<fr_params>;
static_assert(sizeof(fr) == 32);

// A primitive 2^log_n-th root of unity of Fr (log_n <= 32).
PP_HD fr root_of_unity(int log_n, root_family family = root_family::generator7) {
  return root_of_unity<fr>(log_n, family);
}

// The multiplicative generator 7, used as the coset shift of evaluation domains.
PP_HD constexpr fr coset_generator() { return coset_generator<fr>(); }

}  // namespace pp::ff
