// The ec layer in one include: BLS12-381 G1/G2 curves, affine / Jacobian / XYZZ points and their
// formulas, scalar multiplication, subgroup checks. Encodings (host only) are in ec/encoding.hpp.
#pragma once
#include "ec/affine.hpp"
#include "ec/bls12_381_curves.hpp"
#include "ec/jacobian.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/subgroup.hpp"
#include "ec/xyzz.hpp"
