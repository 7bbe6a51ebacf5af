// The glue between key files and the prover's inputs: the circuit a snarkjs zkey implies (its
// section-4 A and B matrices; snarkjs keys carry no C), the section-4 coefficients for a circuit
// (what `snarkjs groth16 setup` writes), and the density bitmaps a bellperson parameter file needs
// from its circuit.
#pragma once
#include <vector>

#include "core/result.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "groth16/keys.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::formats {

// A and B from the coefficients with the trailing input rows A[m + s][s] = 1 (s = 0..n_public)
// removed (the prover appends them itself); C has m empty rows, which the snarkjs basis never
// reads (it uses c = a o b). invalid_argument when the input rows are missing or an entry is
// out of range.
result<r1cs::constraint_system> circuit_from_zkey(const snarkjs_zkey& z);

// Section 4 for cs: per constraint its A then its B terms, then the input rows (snarkjs zkey_new.js).
std::vector<zkey_coefficient> zkey_coefficients(const r1cs::constraint_system& cs);

// Fills a bellperson key's all-clear density bitmaps from the circuit (bit i set iff variable i
// has a non-zero A resp. B column; every public variable and the constant are set in A through
// their input rows). invalid_argument when the key's point counts disagree: another circuit's key.
status fill_bellperson_density(groth16::proving_key& pk, const r1cs::constraint_system& cs);

}  // namespace pp::formats
