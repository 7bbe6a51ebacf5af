// snarkjs JSON files for Groth16 over BLS12-381 (layouts: docs/design.md, "Formats"):
// verification_key.json, proof.json and public.json. Writers reproduce snarkjs's bytes (its CLI
// writes with bfj, space 1: JSON.stringify(x, null, 1) except that an empty array is "[\n]", and
// no trailing newline). Readers validate everything a verifier relies on.
#pragma once
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "ff/fr.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"

namespace pp::formats {

// Every reader returns invalid_argument naming the JSON path ("pi_b[1][0]: ...") for: malformed
// JSON, wrong shapes or types, non-decimal or out-of-range numbers (coordinates >= q, public
// values >= r), z not "1"/"0", points off the curve or outside the prime-order subgroup (cheap
// for a handful of points, and a verifier needs it), protocol other than "groth16" and curves
// other than "bls12381" (BN254's "bn128" is named). Unknown keys are ignored.

// nPublic must equal IC's length - 1. vk_alphabeta_12, when present, is shape- and range-checked
// but not stored (it is informational: `snarkjs groth16 verify` does not use it either).
result<groth16::verifying_key> read_snarkjs_vk_json(std::string_view text);
// All fields in snarkjs's order, vk_alphabeta_12 = e(alpha_1, beta_2) included. beta_g1 and
// delta_g1 are not part of this file, so a read after a write leaves them as they were (zero).
std::string write_snarkjs_vk_json(const groth16::verifying_key& vk);

result<groth16::proof> read_snarkjs_proof_json(std::string_view text);
std::string write_snarkjs_proof_json(const groth16::proof& proof);

// The public signals w[1..nPublic] (outputs, then public inputs) as decimal strings.
result<std::vector<ff::fr>> read_snarkjs_public_json(std::string_view text);
std::string write_snarkjs_public_json(std::span<const ff::fr> public_signals);

// File variants: not_found / unavailable from the file system, errors prefixed with the path.
result<groth16::verifying_key> read_snarkjs_vk_json_file(const std::filesystem::path& path);
result<groth16::proof> read_snarkjs_proof_json_file(const std::filesystem::path& path);
result<std::vector<ff::fr>> read_snarkjs_public_json_file(const std::filesystem::path& path);
status write_text_file(const std::filesystem::path& path, std::string_view text);

}  // namespace pp::formats
