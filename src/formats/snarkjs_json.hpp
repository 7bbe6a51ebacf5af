// snarkjs JSON files for Groth16 over BLS12-381 ("bls12381") or BN254 ("bn128") (layouts:
// docs/design.md, "Formats"): verification_key.json, proof.json and public.json. Writers reproduce
// snarkjs's bytes (its CLI writes with bfj, space 1: JSON.stringify(x, null, 1) except that an empty
// array is "[\n]", and no trailing newline). Readers validate everything a verifier relies on.
// Templates over the curve family (the scalar field for public.json); the defaults are BLS12-381's.
#pragma once
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "ec/curve_id.hpp"
#include "ff/fr.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"

namespace pp::formats {

// Every reader returns invalid_argument naming the JSON path ("pi_b[1][0]: ...") for: malformed
// JSON, wrong shapes or types, non-decimal or out-of-range numbers (coordinates >= q, public
// values >= r), z not "1"/"0", points off the curve or outside the prime-order subgroup (cheap
// for a handful of points, and a verifier needs it), protocol other than "groth16", a curve other
// than Family's (the other supported one is named: "this proof is for BN254 (bn128), expected
// BLS12-381 (bls12381)"; "bn254" is read as "bn128"). Unknown keys are ignored.

// The curve a verification key or proof is for, from its "protocol" and "curve" alone: what a
// caller dispatches on before reading the points. `file` names the document in messages.
result<ec::curve_id> read_snarkjs_json_curve(std::string_view text, std::string_view file = "snarkjs JSON");
result<ec::curve_id> read_snarkjs_json_curve_file(const std::filesystem::path& path);

// nPublic must equal IC's length - 1. vk_alphabeta_12, when present, is shape- and range-checked
// but not stored (it is informational: `snarkjs groth16 verify` does not use it either).
template <class Family = ec::bls12_381::family>
result<groth16::basic_verifying_key<Family>> read_snarkjs_vk_json(std::string_view text);
// All fields in snarkjs's order, vk_alphabeta_12 = e(alpha_1, beta_2) (Family's pairing) included.
// beta_g1 and delta_g1 are not part of this file, so a read after a write leaves them as they were
// (zero).
template <class Family>
std::string write_snarkjs_vk_json(const groth16::basic_verifying_key<Family>& vk);

template <class Family = ec::bls12_381::family>
result<groth16::basic_proof<Family>> read_snarkjs_proof_json(std::string_view text);
template <class Family>
std::string write_snarkjs_proof_json(const groth16::basic_proof<Family>& proof);

// The public signals w[1..nPublic] (outputs, then public inputs) as decimal strings; the file does
// not name its curve, values >= Fr's modulus are refused.
template <class Fr = ff::fr>
result<std::vector<Fr>> read_snarkjs_public_json(std::string_view text);
std::string write_snarkjs_public_json(std::span<const ff::fr> public_signals);
std::string write_snarkjs_public_json(std::span<const ff::bn254::fr> public_signals);

// File variants: not_found / unavailable from the file system, errors prefixed with the path.
template <class Family = ec::bls12_381::family>
result<groth16::basic_verifying_key<Family>> read_snarkjs_vk_json_file(const std::filesystem::path& path);
template <class Family = ec::bls12_381::family>
result<groth16::basic_proof<Family>> read_snarkjs_proof_json_file(const std::filesystem::path& path);
template <class Fr = ff::fr>
result<std::vector<Fr>> read_snarkjs_public_json_file(const std::filesystem::path& path);
status write_text_file(const std::filesystem::path& path, std::string_view text);

}  // namespace pp::formats
