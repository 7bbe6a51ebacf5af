// BN254 scalar field Fr: r = 0x30644e72...f0000001 (254 bits), r = 36x^4 + 36x^3 + 18x^2 + 6x + 1,
// 2-adicity 28. The multiplicative generator 5 is also snarkjs's non-residue, so both root families of
// ff/roots_of_unity.hpp give the same domains.
#pragma once
#include "ff/bn254_constants.hpp"
#include "ff/mont_field.hpp"
#include "ff/roots_of_unity.hpp"

namespace pp::ff::bn254 {

using fr = mont_field<fr_params>;
static_assert(sizeof(fr) == 32);

}  // namespace pp::ff::bn254
