// circom .r1cs (version 1) reader and writer (layout: docs/design.md, "Formats").
// Wires map one to one onto the witness layout: 0 = constant 1, outputs and public inputs are the
// public variables, private inputs and internal wires the aux variables. Errors: data_loss for
// truncated/inconsistent structure, invalid_argument for wrong content (magic, version, curve, wire
// ids, values >= r), resource_exhausted past the caller's limits, unimplemented for PLONK custom gates.
// Over the scalar field of either curve: ff::fr (BLS12-381, circom -p bls12381) or ff::bn254::fr
// (circom's default bn128); the header's prime must be the one asked for.
#pragma once
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <vector>

#include "core/result.hpp"
#include "ec/curve_id.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::formats {

struct circom_limits {
  uint64_t max_wires = uint64_t{1} << 32;        // the u32 wire ids allow no more
  uint64_t max_constraints = uint64_t{1} << 32;
  uint64_t max_terms = uint64_t{1} << 36;        // non-zeros over A, B and C together
};

template <class Fr>
struct basic_circom_r1cs {
  uint32_t n_pub_out = 0;
  uint32_t n_pub_in = 0;
  uint32_t n_prv_in = 0;
  uint64_t n_labels = 0;
  r1cs::basic_constraint_system<Fr> cs;  // num_public = n_pub_out + n_pub_in
  std::optional<std::vector<uint64_t>> wire_labels;  // section 3: label id of every wire
  // Ids of sections 1, 2 (and 3) in file order; circom writes {2, 1, 3}. The writer follows it.
  std::vector<uint32_t> section_order{2, 1, 3};

  friend bool operator==(const basic_circom_r1cs&, const basic_circom_r1cs&) = default;
};

using circom_r1cs = basic_circom_r1cs<ff::fr>;
namespace bn254 {
using circom_r1cs = basic_circom_r1cs<ff::bn254::fr>;
}  // namespace bn254

// Wraps a constraint system the way circom would describe it: every public variable a public input,
// every aux variable internal, label i for wire i.
template <class Fr>
basic_circom_r1cs<Fr> make_circom_r1cs(r1cs::basic_constraint_system<Fr> cs);

// A file for the other curve than Fr's is invalid_argument naming both.
template <class Fr = ff::fr>
result<basic_circom_r1cs<Fr>> read_circom_r1cs(std::span<const uint8_t> bytes, const circom_limits& limits = {});
// Errors carry the path as context.
template <class Fr = ff::fr>
result<basic_circom_r1cs<Fr>> read_circom_r1cs_file(const std::filesystem::path& path,
                                                    const circom_limits& limits = {});
// nWires from the header section alone (the section table and a few pages of the file), for sizing
// what a circuit implies (a witness bound) without loading it; either curve. Errors carry the path
// as context.
result<uint32_t> read_circom_r1cs_num_wires_file(const std::filesystem::path& path);
// The curve a circuit is for, from the header section alone (what a caller dispatches on before
// reading the constraints). Errors carry the path as context.
result<ec::curve_id> read_circom_r1cs_curve(std::span<const uint8_t> bytes);
result<ec::curve_id> read_circom_r1cs_curve_file(const std::filesystem::path& path);

// invalid_argument when the fields disagree (counts, label count, section order) or exceed u32 fields.
template <class Fr>
result<std::vector<uint8_t>> write_circom_r1cs(const basic_circom_r1cs<Fr>& r);
template <class Fr>
status write_circom_r1cs_file(const basic_circom_r1cs<Fr>& r, const std::filesystem::path& path);

}  // namespace pp::formats
