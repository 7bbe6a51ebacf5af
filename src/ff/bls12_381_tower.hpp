// The BLS12-381 tower's traits for ff/fp2.hpp, fp6.hpp and fp12.hpp: the base field Fp and the
// generated constants (xi = 1 + u, Frobenius tables, the M-type twist's b'). Those headers
// instantiate the tower on it under the plain names fp2, fp6, fp12.
#pragma once
#include "ff/bls12_381_tower_constants.hpp"
#include "ff/fp.hpp"

namespace pp::ff::bls12_381 {

struct tower {
  using fp = ff::fp;
  using params = ff::tower_params;
};

}  // namespace pp::ff::bls12_381
