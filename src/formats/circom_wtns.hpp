// circom/snarkjs .wtns (version 2) reader and writer (layout: docs/design.md, "Formats"):
// the full witness 1 | public | aux as standard-form LE values, over the scalar field of either
// curve (the header's prime says which). Whether it fits a circuit is r1cs::check_witness's job;
// this layer checks only the file. Error codes as in circom_r1cs.hpp.
#pragma once
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "core/result.hpp"
#include "ec/curve_id.hpp"
#include "formats/circom_r1cs.hpp"

namespace pp::formats {

// Fr is ff::fr (BLS12-381) or ff::bn254::fr; a file for the other curve is invalid_argument naming
// both ("this .wtns is for BN254 (prime ...), expected BLS12-381; ...").
template <class Fr = ff::fr>
result<std::vector<Fr>> read_circom_wtns(std::span<const uint8_t> bytes, const circom_limits& limits = {});
template <class Fr = ff::fr>
result<std::vector<Fr>> read_circom_wtns_file(const std::filesystem::path& path, const circom_limits& limits = {});

// The curve a witness is for, from the header section alone (what a caller dispatches on before
// reading the values). Errors as the readers' for the file table and the header.
result<ec::curve_id> read_circom_wtns_curve(std::span<const uint8_t> bytes);
result<ec::curve_id> read_circom_wtns_curve_file(const std::filesystem::path& path);

// Sections 1 (header) then 2 (values), as snarkjs writes them, the prime the values' field's.
// invalid_argument past 2^32 - 1 values.
result<std::vector<uint8_t>> write_circom_wtns(std::span<const ff::fr> w);
result<std::vector<uint8_t>> write_circom_wtns(std::span<const ff::bn254::fr> w);
status write_circom_wtns_file(std::span<const ff::fr> w, const std::filesystem::path& path);
status write_circom_wtns_file(std::span<const ff::bn254::fr> w, const std::filesystem::path& path);

}  // namespace pp::formats
