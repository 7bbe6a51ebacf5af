// The 192-byte bellperson / bellman Groth16 proof: A (48 B compressed G1) | B (96 B compressed G2)
// | C (48 B compressed G1), zcash encodings (bellperson src/groth16/proof.rs, Proof::write / read).
#pragma once
#include <array>
#include <cstdint>
#include <span>

#include "core/result.hpp"
#include "groth16/proof.hpp"

namespace pp::formats {

inline constexpr std::size_t bellperson_proof_size = 192;

// Full checks: exactly 192 bytes, valid flags, coordinates < p, on the curve, in the subgroup, and
// no point at infinity (bellperson rejects those too). invalid_argument naming A, B or C.
result<groth16::proof> read_bellperson_proof(std::span<const uint8_t> bytes);
std::array<uint8_t, bellperson_proof_size> write_bellperson_proof(const groth16::proof& proof);

}  // namespace pp::formats
