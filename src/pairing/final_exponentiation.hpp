// Final exponentiation of the BLS12-381 optimal ate pairing: f^(3 (p^12 - 1)/r), the cube of the
// reduced pairing (the same normalisation as blst, arkworks and @noble/curves; 3 is coprime to r,
// so bilinearity and non-degeneracy hold unchanged). Host code.
#pragma once
#include "ff/fp12.hpp"

namespace pp::pairing {

// Easy part f^((p^6 - 1)(p^2 + 1)): lands in the cyclotomic subgroup. 0 maps to 0.
[[nodiscard]] ff::fp12 final_exponentiation_easy(const ff::fp12& f);

// Hard part on a cyclotomic-subgroup element: m^(3 (p^4 - p^2 + 1)/r).
[[nodiscard]] ff::fp12 final_exponentiation_hard(const ff::fp12& m);

[[nodiscard]] ff::fp12 final_exponentiation(const ff::fp12& f);

}  // namespace pp::pairing
