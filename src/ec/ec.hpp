// The ec layer in one include: the BLS12-381 and BN254 G1/G2 curves and their families, affine /
// Jacobian / XYZZ points and their formulas, scalar multiplication, subgroup checks. Encodings (host
// only) are in ec/encoding.hpp (zcash, BLS12-381) and ec/lem_encoding.hpp (snarkjs, any curve).
#pragma once
#include "ec/affine.hpp"
#include "ec/bls12_381_curves.hpp"
#include "ec/bn254_points.hpp"
#include "ec/jacobian.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/subgroup.hpp"
#include "ec/xyzz.hpp"
