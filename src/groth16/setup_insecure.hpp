// Insecure development setup: Groth16 keys from toxic waste (tau, alpha, beta, gamma, delta) that
// this process knows. Anyone holding the toxic waste can forge proofs, so these keys are for tests,
// benchmarks and demos only. Both key layouts (keys.hpp): snarkjs (odd-coset Lagrange H, 5^t
// roots, gamma = G2 generator) and bellman/bellperson (monomial H, 7^t roots, filtered A/B). Both curve
// families (setup_insecure.cpp instantiates them); BN254's circom keys use the snarkjs layout.
#pragma once
#include <cstdint>

#include "core/result.hpp"
#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"
#include "groth16/fixed_base_multiplier.hpp"
#include "groth16/keys.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::groth16 {

template <class Fr>
struct basic_toxic_waste_insecure {
  Fr tau, alpha, beta, gamma, delta;
};
using toxic_waste_insecure = basic_toxic_waste_insecure<ff::fr>;

// From std::random_device (each value 512 random bits reduced mod r).
template <class Fr = ff::fr>
basic_toxic_waste_insecure<Fr> random_toxic_waste_insecure();
// Deterministic, for tests: a splitmix64 stream from seed.
template <class Fr = ff::fr>
basic_toxic_waste_insecure<Fr> toxic_waste_from_seed_insecure(uint64_t seed);

// The proving key (with its verifying key) for cs in the given basis.
//  odd_coset_lagrange (snarkjs zkey_new.js, notes §4.4): n = 2^k >= m + n_public + 1, input rows
//    A[m + i][i] = 1; A, B1, B2 one point per variable (infinity kept); IC_i = (beta A_i + alpha B_i
//    + C_i)(tau) G1 (gamma is forced to 1, the G2 generator); L_i the same over delta;
//    H_j = L^(2n)_(2j+1)(tau) / delta G1 for j < n (true Lagrange points at the odd 2n-th roots).
//  monomial (bellman groth16/generator.rs): same input rows and domain rule, 7^t roots;
//    IC_i = (...)(tau) / gamma G1; H_i = tau^i Z(tau) / delta G1 for i < n - 1; A / B1 / B2 keep
//    only the variables with a non-zero column (a_density / b_density set).
// invalid_argument when tau lies in the domain (or, for snarkjs, the 2n-domain) or when alpha,
// beta, gamma or delta is zero.
// Scalars are formed on the host in parallel (oneTBB); points come from `points` (the second form
// uses a host_fixed_base_multiplier). Every multiplier gives the same key. Each scalar vector is
// freed once its points are made: peak host memory is about the key plus 4 x 32 bytes per variable.
template <class Family>
result<basic_proving_key<Family>> setup_insecure(const r1cs::basic_constraint_system<typename Family::fr>& cs,
                                                 h_basis basis,
                                                 const basic_toxic_waste_insecure<typename Family::fr>& tw,
                                                 basic_fixed_base_multiplier<Family>& points);
template <class Family = ec::bls12_381::family>
result<basic_proving_key<Family>> setup_insecure(const r1cs::basic_constraint_system<typename Family::fr>& cs,
                                                 h_basis basis,
                                                 const basic_toxic_waste_insecure<typename Family::fr>& tw);

// Host bytes setup_insecure holds at its peak for cs, from the sizes alone: per variable the key's
// A, B1 and IC/L points (3 x 96 B) and B2 (192 B) plus the four 32-byte scalar vectors it frees as it
// goes; per domain row (n = 2^k >= m + n_public + 1) an H point (96 B) and two 32-byte scalars.
// A header can declare 2^32 variables that no constraint uses: callers compare this with the
// memory they have before calling setup_insecure (`proofpipe setup` does).
template <class Family = ec::bls12_381::family>
uint64_t setup_insecure_peak_bytes(const r1cs::basic_constraint_system<typename Family::fr>& cs);

}  // namespace pp::groth16
