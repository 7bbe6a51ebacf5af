// BN254's point types: the storage form (ec/affine.hpp: what snarkjs's bn128 keys hold, 64 / 128
// bytes) and the register forms (ec/jacobian.hpp, ec/xyzz.hpp) on its G1 and G2.
#pragma once
#include "ec/bn254_curves.hpp"
#include "ec/xyzz.hpp"

namespace pp::ec::bn254 {

using g1_affine = affine<g1_curve>;
using g2_affine = affine<g2_curve>;
using g1_jacobian = jacobian<g1_curve>;
using g2_jacobian = jacobian<g2_curve>;
using g1_xyzz = xyzz<g1_curve>;
using g2_xyzz = xyzz<g2_curve>;
static_assert(sizeof(g1_affine) == 64, "G1 affine storage is two 32-byte Fp elements");
static_assert(sizeof(g2_affine) == 128, "G2 affine storage is two 64-byte Fp2 elements");
static_assert(sizeof(g1_jacobian) == 96 && sizeof(g2_jacobian) == 192);
static_assert(sizeof(g1_xyzz) == 128 && sizeof(g2_xyzz) == 256);

}  // namespace pp::ec::bn254
