// Square root in a prime field with p = 3 mod 4 (BLS12-381's and BN254's Fp): s = a^((p+1)/4).
// The params struct provides sqrt_exp = (p+1)/4 (scripts/gen_constants.py).
#pragma once
#include "ff/mont_field.hpp"

namespace pp::ff {

// Returns false (out untouched) when a is not a square.
template <class P>
PP_HD bool sqrt(const mont_field<P>& a, mont_field<P>& out) {
  constexpr auto e = limbs::copy(P::sqrt_exp);
  const mont_field<P> s = a.pow(e.v, P::n64);
  if (s.sqr() != a) return false;
  out = s;
  return true;
}

}  // namespace pp::ff
