// The optimal ate pairing e: G1 x G2 -> GT on BLS12-381 (Miller loop + final exponentiation), and
// products of pairings with one shared Miller accumulator and one final exponentiation, as a
// Groth16 verifier needs. Values equal @noble/curves' bls12_381.pairing (tests/pairing/oracle_test).
#pragma once
#include <span>

#include "pairing/final_exponentiation.hpp"
#include "pairing/g2_prepared.hpp"
#include "pairing/miller_loop.hpp"

namespace pp::pairing {

// e(P, Q); 1 when either is infinity. Points must lie in G1 and G2 (callers check subgroups).
[[nodiscard]] ff::fp12 pairing(const ec::g1_affine& p, const ec::g2_affine& q);

// prod_i e(P_i, Q_i) with one Miller accumulator and one final exponentiation; 1 for no terms.
[[nodiscard]] ff::fp12 multi_pairing(std::span<const pairing_term> terms);
[[nodiscard]] ff::fp12 multi_pairing(std::span<const prepared_term> terms);

// prod_i e(P_i, Q_i) == 1: the verifier's check (e.g. e(A, B) e(-alpha, beta) ... == 1).
[[nodiscard]] bool pairing_product_is_one(std::span<const pairing_term> terms);
[[nodiscard]] bool pairing_product_is_one(std::span<const prepared_term> terms);

}  // namespace pp::pairing
