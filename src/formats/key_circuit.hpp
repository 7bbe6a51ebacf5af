// The glue between key files and the prover's inputs: the circuit a snarkjs zkey implies (its
// section-4 A and B matrices; snarkjs keys carry no C), the section-4 coefficients for a circuit
// (what `snarkjs groth16 setup` writes), and the density bitmaps a bellperson parameter file needs
// from its circuit. The zkey glue is over the curve family; bellperson is BLS12-381 only.
#pragma once
#include <filesystem>
#include <vector>

#include "core/result.hpp"
#include "formats/bellperson_params.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "groth16/keys.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::formats {

// A and B from the coefficients with the trailing input rows A[m + s][s] = 1 (s = 0..n_public)
// removed (the prover appends them itself); C has m empty rows, which the snarkjs basis never
// reads (it uses c = a o b). invalid_argument when the input rows are missing or an entry is
// out of range.
template <class Family>
result<r1cs::basic_constraint_system<typename Family::fr>> circuit_from_zkey(const basic_snarkjs_zkey<Family>& z);

// Section 4 for cs: per constraint its A then its B terms, then the input rows (snarkjs zkey_new.js).
template <class Fr>
std::vector<basic_zkey_coefficient<Fr>> zkey_coefficients(const r1cs::basic_constraint_system<Fr>& cs);

// Fills a bellperson key's all-clear density bitmaps from the circuit (bit i set iff variable i
// has a non-zero A resp. B column; every public variable and the constant are set in A through
// their input rows). invalid_argument when the key's point counts disagree: another circuit's key.
status fill_bellperson_density(groth16::proving_key& pk, const r1cs::constraint_system& cs);

// A key's files: a snarkjs zkey (its circuit the one it implies, or `r1cs` when given), or bellperson
// parameters with the circom r1cs they were made for (required: they carry no matrices).
struct key_files {
  std::filesystem::path key{};
  std::filesystem::path r1cs{};
  bool bellperson = false;
};
struct key_and_circuit {
  groth16::proving_key pk;
  r1cs::constraint_system cs;
};
// The key and its circuit from their files, bellperson densities filled from the circuit, checked to
// match (groth16::check_key_matches_circuit): what the engine loads and `proofpipe plan` and
// `proofpipe doctor` plan. The readers' errors, with the file named.
result<key_and_circuit> read_key_files(const key_files& f, const zkey_read_options& zkey = {},
                                       const bellperson_read_options& params = {});

}  // namespace pp::formats
