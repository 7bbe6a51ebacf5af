// BLS12-381 base field Fp: p = 0x1a0111ea...ffffaaab (381 bits), p = 3 mod 4.
// Sources: draft-irtf-cfrg-pairing-friendly-curves-11 §4.2.1; constants from scripts/gen_constants.py.
// Square roots: ff/fp_sqrt.hpp.
#pragma once
#include "ff/bls12_381_constants.hpp"
#include "ff/fp_sqrt.hpp"
#include "ff/mont_field.hpp"

namespace pp::ff {

using fp = mont_field<fp_params>;
static_assert(sizeof(fp) == 48);

// The "sign" of Fp used by the zcash encoding: a > (p-1)/2 in canonical form.
PP_HD bool lexicographically_largest(const fp& a) {
  uint64_t c[fp::n64];
  a.to_canonical(c);
  constexpr auto half = limbs::copy(fp_params::m_minus_1_half);
  return limbs::cmp<fp::n64>(c, half.v) > 0;
}

}  // namespace pp::ff
