// What every backend does the same way around its heavy work: check a prove request before it,
// and after it turn the five MSM sums and (r, s) into a proof and self-verify it (notes §4.5).
// Keeping this in one place is what makes CPU and GPU proofs identical for the same inputs.
#pragma once
#include <string_view>

#include "core/result.hpp"
#include "ec/jacobian.hpp"
#include "groth16/backend.hpp"

namespace pp::groth16 {

// Sums of w_i * point_i over each query, as the MSMs return them.
struct msm_sums {
  ec::g1_jacobian a, b1, l, h;
  ec::g2_jacobian b2;
};

// Key and circuit present, witness size (expected vs got), w[0] = 1, and the key fits the circuit.
status check_prove_request(const prove_request& req);

// pi_A = alpha + sum_A + r delta1; pi_B = beta2 + sum_B2 + s delta2; B1 = beta1 + sum_B1 + s delta1;
// pi_C = sum_L + sum_H + s pi_A + r B1 - r s delta1, in affine form. No verification.
proof assemble(const verifying_key& vk, const msm_sums& sums, const blinding& rs);

// assemble(), then, when options.self_verify, the proof is verified against pk.vk and an internal
// error (naming an unsatisfied constraint when the witness is the cause) replaces it on failure.
// Adds "assembly" and "self-verify" to timings.
result<prove_output> assemble_proof(const proving_key& pk, const r1cs::constraint_system& cs,
                                    std::span<const ff::fr> witness, const msm_sums& sums, const blinding& rs,
                                    const prove_options& options, prove_timings timings,
                                    std::string_view backend_name);

}  // namespace pp::groth16
