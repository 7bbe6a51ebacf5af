// The BN254 tower Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - (9 + u)), Fp12 = Fp6[w]/(w^2 - v) (the
// tower of EIP-197, arkworks and @noble/curves), as instances of ff/fp2.hpp, fp6.hpp and fp12.hpp over
// its traits: the base field and the constants of scripts/gen_tower_constants.py --curve bn254.
#pragma once
#include "ff/bn254_fp.hpp"
#include "ff/bn254_tower_constants.hpp"
#include "ff/fp12.hpp"

namespace pp::ff::bn254 {

struct tower {
  using fp = bn254::fp;
  using params = bn254::tower_params;
};

using fp2 = fp2_t<tower>;
using fp6 = fp6_t<tower>;
using fp12 = fp12_t<tower>;
static_assert(sizeof(fp2) == 64 && sizeof(fp6) == 192 && sizeof(fp12) == 384);

}  // namespace pp::ff::bn254
