// Groth16 fixtures the groth16 and CUDA tests share: a synthetic circuit with an insecure key, and
// what a groth16::evaluation_request points into (a, b, c and the density words, as bellperson hands
// them to supraseal-c2's prover). pp::groth16_test_support, tests only.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "ff/fr.hpp"
#include "groth16/evaluation_prover.hpp"
#include "groth16/keys.hpp"
#include "groth16/setup_insecure.hpp"
#include "r1cs/constraint_system.hpp"
#include "r1cs/synthetic.hpp"

namespace pp::test {

// A synthetic circuit and an insecure key for it.
struct keyed_circuit {
  r1cs::synthetic_circuit circuit;
  groth16::proving_key pk;
};

// The synthetic circuit sp and its key in `basis`, the toxic waste from toxic_seed; null after a
// failed expectation.
std::unique_ptr<keyed_circuit> make_keyed_circuit(const r1cs::synthetic_params& sp, groth16::h_basis basis,
                                                  uint64_t toxic_seed);

// Bits [from, from + count) of d, LSB first: bellperson's DensityTracker words.
std::vector<uint64_t> density_words(const groth16::density_bitmap& d, uint64_t from, uint64_t count);

// A, B and C times the witness over the circuit's rows, unpadded, and the key's density words for
// the aux variables of A and the inputs and aux variables of B: what an evaluation_request points at.
struct evaluations {
  std::vector<ff::fr> a, b, c;
  std::vector<uint64_t> a_aux, b_inputs, b_aux;

  // The request for pk (monomial basis), the circuit's witness w = 1 | inputs | aux and (r, s).
  [[nodiscard]] groth16::evaluation_request request(const groth16::proving_key& pk, const r1cs::constraint_system& cs,
                                                    std::span<const ff::fr> w, const groth16::blinding& rs) const;
};

// The evaluations of cs and w for pk (monomial basis); empty after a failed expectation.
evaluations make_evaluations(const r1cs::constraint_system& cs, std::span<const ff::fr> w,
                             const groth16::proving_key& pk);

}  // namespace pp::test
