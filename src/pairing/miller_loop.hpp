// The Miller loop of the optimal ate pairing on BLS12-381: f_{|x|,Q}(P), conjugated because the
// seed x is negative. Several (P, Q) pairs share one accumulator, so the Fp12 squarings are paid
// once per product (eprint 2010/354 §3, "products of pairings"). Host code.
#pragma once
#include <span>

#include "ec/affine.hpp"
#include "ff/fp12.hpp"

namespace pp::pairing {

// One factor e(g1, g2) of a pairing product.
struct pairing_term {
  ec::g1_affine g1;
  ec::g2_affine g2;
};

// Miller loop of one pair; 1 when either point is infinity. Points must lie in G1 and G2.
[[nodiscard]] ff::fp12 miller_loop(const ec::g1_affine& p, const ec::g2_affine& q);

// Product of the Miller loops of all terms, with one shared accumulator; infinity terms contribute 1.
[[nodiscard]] ff::fp12 multi_miller_loop(std::span<const pairing_term> terms);

}  // namespace pp::pairing
