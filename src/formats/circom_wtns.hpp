// circom/snarkjs .wtns (version 2) reader and writer (layout: docs/design.md, "Formats"):
// the full witness 1 | public | aux as standard-form LE values. Whether it fits a circuit is
// r1cs::check_witness's job; this layer checks only the file. Error codes as in circom_r1cs.hpp.
#pragma once
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "core/result.hpp"
#include "ff/fr.hpp"
#include "formats/circom_r1cs.hpp"

namespace pp::formats {

result<std::vector<ff::fr>> read_circom_wtns(std::span<const uint8_t> bytes, const circom_limits& limits = {});
result<std::vector<ff::fr>> read_circom_wtns_file(const std::filesystem::path& path, const circom_limits& limits = {});

// Sections 1 (header) then 2 (values), as snarkjs writes them. invalid_argument past 2^32 - 1 values.
result<std::vector<uint8_t>> write_circom_wtns(std::span<const ff::fr> w);
status write_circom_wtns_file(std::span<const ff::fr> w, const std::filesystem::path& path);

}  // namespace pp::formats
