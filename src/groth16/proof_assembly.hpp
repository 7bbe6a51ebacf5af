// What every backend does the same way around its heavy work: check a prove request before it,
// and after it turn the five MSM sums and (r, s) into a proof and self-verify it (notes §4.5).
// Keeping this in one place is what makes CPU and GPU proofs identical for the same inputs. Both
// curve families (proof_assembly.cpp instantiates them).
#pragma once
#include <string_view>

#include "core/result.hpp"
#include "ec/jacobian.hpp"
#include "groth16/backend.hpp"

namespace pp::groth16 {

// Sums of w_i * point_i over each query, as the MSMs return them.
template <class Family>
struct basic_msm_sums {
  ec::jacobian<typename Family::g1_curve> a, b1, l, h;
  ec::jacobian<typename Family::g2_curve> b2;
};
using msm_sums = basic_msm_sums<ec::bls12_381::family>;

// Key and circuit present, witness size (expected vs got), w[0] = 1, and the key fits the circuit.
template <class Family>
status check_prove_request(const basic_prove_request<Family>& req);

// pi_A = alpha + sum_A + r delta1; pi_B = beta2 + sum_B2 + s delta2; B1 = beta1 + sum_B1 + s delta1;
// pi_C = sum_L + sum_H + s pi_A + r B1 - r s delta1, in affine form. No verification.
template <class Family>
basic_proof<Family> assemble(const basic_verifying_key<Family>& vk, const basic_msm_sums<Family>& sums,
                             const basic_blinding<Family>& rs);

// assemble(), then, when options.self_verify, the proof is verified against pk.vk and an internal
// error (naming an unsatisfied constraint when the witness is the cause) replaces it on failure.
// Adds "assembly" and "self-verify" to timings.
template <class Family>
result<basic_prove_output<Family>> assemble_proof(const basic_proving_key<Family>& pk,
                                                  const r1cs::basic_constraint_system<typename Family::fr>& cs,
                                                  std::span<const typename Family::fr> witness,
                                                  const basic_msm_sums<Family>& sums, const basic_blinding<Family>& rs,
                                                  const prove_options& options, prove_timings timings,
                                                  std::string_view backend_name);

}  // namespace pp::groth16
