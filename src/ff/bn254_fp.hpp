// BN254 (alt_bn128, snarkjs's "bn128") base field Fp: p = 0x30644e72...d87cfd47 (254 bits), p = 3 mod 4,
// p = 36x^4 + 36x^3 + 24x^2 + 6x + 1 for the seed x = 4965661367192848881.
// Sources: EIP-196; Barreto, Naehrig, "Pairing-Friendly Elliptic Curves of Prime Order" (eprint
// 2005/133); constants from scripts/gen_constants.py --curve bn254. Square roots: ff/fp_sqrt.hpp.
#pragma once
#include "ff/bn254_constants.hpp"
#include "ff/fp_sqrt.hpp"
#include "ff/mont_field.hpp"

namespace pp::ff::bn254 {

using fp = mont_field<fp_params>;
static_assert(sizeof(fp) == 32);

}  // namespace pp::ff::bn254
