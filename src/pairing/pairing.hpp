// The optimal ate pairing e: G1 x G2 -> GT (Miller loop + final exponentiation) of any curve family
// (BLS12-381, BN254), and products of pairings with one shared Miller accumulator and one final
// exponentiation, as a Groth16 verifier needs. The family comes from the argument types. Values equal
// @noble/curves' bls12_381.pairing and bn254.pairing (tests/pairing/oracle_test.cpp).
#pragma once
#include "pairing/final_exponentiation.hpp"
#include "pairing/g2_prepared.hpp"
#include "pairing/miller_loop.hpp"

namespace pp::pairing {

// e(P, Q); 1 when either is infinity. Points must lie in G1 and G2 (callers check subgroups).
template <g1_curve_of_family C1>
[[nodiscard]] gt_field<typename C1::family> pairing(const ec::affine<C1>& p,
                                                    const ec::affine<typename C1::family::g2_curve>& q) {
  return final_exponentiation(miller_loop(p, q));
}

// prod_i e(P_i, Q_i) over pairing terms or prepared terms, with one Miller accumulator and one final
// exponentiation; 1 for no terms.
template <term_range R>
[[nodiscard]] auto multi_pairing(R&& terms) {
  return final_exponentiation(multi_miller_loop(terms));
}

// prod_i e(P_i, Q_i) == 1: the verifier's check (e.g. e(A, B) e(-alpha, beta) ... == 1).
template <term_range R>
[[nodiscard]] bool pairing_product_is_one(R&& terms) {
  return multi_pairing(terms).is_one();
}

// BN254's names for the term types (the plain ones are BLS12-381's).
namespace bn254 {
using pairing_term = pairing_term_t<ec::bn254::family>;
using prepared_term = prepared_term_t<ec::bn254::family>;
using g2_prepared = g2_prepared_t<ec::bn254::family>;
}  // namespace bn254

}  // namespace pp::pairing
