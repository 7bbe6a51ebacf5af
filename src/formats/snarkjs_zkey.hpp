// snarkjs Groth16 .zkey (version 1) reader and writer (layout: docs/design.md, "Formats").
// A zkey becomes a groth16::proving_key in the odd_coset_lagrange basis plus its section-4
// coefficients (the A and B matrices, input rows included), from which the prover computes
// a = A w and b = B w; c = a o b, since snarkjs keys carry no C matrix. Over either curve family
// (BLS12-381: 96 / 192-byte points; BN254, snarkjs's "bn128": 64 / 128), the header's q and r say
// which; the unqualified names are BLS12-381's.
#pragma once
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "core/result.hpp"
#include "ec/curve_id.hpp"
#include "ff/fr.hpp"
#include "groth16/keys.hpp"

namespace pp::formats {

// One section-4 entry: value * w[signal] adds to row `constraint` of matrix A (0) or B (1).
template <class Fr>
struct basic_zkey_coefficient {
  uint32_t matrix = 0;      // 0 = A, 1 = B
  uint32_t constraint = 0;  // < domain_size
  uint32_t signal = 0;      // < n_vars
  Fr value;                 // the coefficient v as an ordinary Fr (file stores v R^2 mod r)
  friend bool operator==(const basic_zkey_coefficient& x, const basic_zkey_coefficient& y) {
    return x.matrix == y.matrix && x.constraint == y.constraint && x.signal == y.signal && x.value == y.value;
  }
};

template <class Family>
struct basic_snarkjs_zkey {
  using family = Family;
  groth16::basic_proving_key<Family> pk;  // basis odd_coset_lagrange; a/b_g1/b_g2 hold one point per variable
  std::vector<basic_zkey_coefficient<typename Family::fr>> coefficients;  // file order (snarkjs sorts by constraint)
  // Section 10 (circuit hash + MPC contributions) verbatim, so a rewrite keeps it; empty when the
  // file has none. The writer then emits a zero hash and no contributions, which `snarkjs zkey
  // export verificationkey` and `snarkjs groth16 prove` accept (neither reads section 10).
  std::vector<uint8_t> contributions;
};

using zkey_coefficient = basic_zkey_coefficient<ff::fr>;
using snarkjs_zkey = basic_snarkjs_zkey<ec::bls12_381::family>;
namespace bn254 {
using zkey_coefficient = basic_zkey_coefficient<ff::bn254::fr>;
using snarkjs_zkey = basic_snarkjs_zkey<ec::bn254::family>;
}  // namespace bn254

// How much the reader checks each point beyond "coordinates < q" (always checked).
enum class zkey_point_check {
  range_only,
  // Default: y^2 = x^3 + b, a few field multiplications per point. Off-curve points would make
  // the MSMs compute garbage, and this catches corruption cheaply.
  on_curve,
  // Also the prime-order subgroup (~70 group operations per point, ~100x on_curve: minutes for a
  // PoRep-sized key). Not the default because a proving key is trusted by whoever proves with it,
  // and the prover verifies each proof before returning it, so a bad key cannot yield a bad proof.
  subgroup,
};

struct zkey_read_options {
  zkey_point_check check = zkey_point_check::on_curve;
};

// Errors: invalid_argument for a file that is not a Groth16 zkey of Family (wrong magic, version,
// protocol, curve - a key for the other supported curve is named: "this .zkey is for BN254 (bn128),
// expected BLS12-381"), for inconsistent headers, out-of-range values and bad points (with section,
// index and file offset); data_loss for missing, truncated or oversized sections. Sections may
// appear in any order. Sizes are checked against the file before any allocation.
template <class Family = ec::bls12_381::family>
result<basic_snarkjs_zkey<Family>> read_snarkjs_zkey(std::span<const uint8_t> bytes,
                                                     const zkey_read_options& options = {});
template <class Family = ec::bls12_381::family>
result<basic_snarkjs_zkey<Family>> read_snarkjs_zkey_file(const std::filesystem::path& path,
                                                          const zkey_read_options& options = {});
// nVars from the Groth16 header alone (the section table and a few pages of the file), for sizing
// what a key implies (a witness bound) without loading it; either curve; errors as
// read_snarkjs_zkey_file's.
result<uint32_t> read_snarkjs_zkey_num_variables_file(const std::filesystem::path& path);
// The curve a key is for, from its q and r (the section table and the Groth16 header's first bytes):
// what a caller dispatches on before reading the key.
result<ec::curve_id> read_snarkjs_zkey_curve(std::span<const uint8_t> bytes);
result<ec::curve_id> read_snarkjs_zkey_curve_file(const std::filesystem::path& path);

// Sections 1..10 in id order (as `snarkjs zkey contribute` writes them), q and r Family's.
// invalid_argument when the key is not snarkjs-shaped: basis must be odd_coset_lagrange, no density
// bitmaps, vector sizes consistent with n_vars / n_public / domain_size, coefficients within range.
template <class Family>
result<std::vector<uint8_t>> write_snarkjs_zkey(const basic_snarkjs_zkey<Family>& zkey);
template <class Family>
status write_snarkjs_zkey_file(const basic_snarkjs_zkey<Family>& zkey, const std::filesystem::path& path);

}  // namespace pp::formats
