// Groth16 verification (eprint 2016/260 §3.2): e(A, B) == e(alpha, beta) e(vk_x, gamma) e(C, delta)
// with vk_x = IC_0 + sum_i x_i IC_i, checked as one multi-pairing with one final exponentiation:
// e(A, B) e(-alpha, beta) e(-vk_x, gamma) e(-C, delta) == 1. For both curve families (the family
// comes from the key).
#pragma once
#include <span>

#include "core/status.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"

namespace pp::groth16 {

// public_inputs are x_1..x_nPublic (the constant 1 excluded), Montgomery form; range checks against
// r belong to whoever parsed them. Returns ok, invalid_argument("proof does not verify"), or
// invalid_argument naming the problem: wrong number of public inputs, a proof point not on the
// curve or not in the prime-order subgroup.
template <class Family>
status verify(const basic_verifying_key<Family>& vk, std::span<const typename Family::fr> public_inputs,
              const basic_proof<Family>& pi);

// The same check without the point validation, for proofs this process just made from trusted
// keys (the prover's self-check).
template <class Family>
status verify_unchecked(const basic_verifying_key<Family>& vk, std::span<const typename Family::fr> public_inputs,
                        const basic_proof<Family>& pi);

}  // namespace pp::groth16
