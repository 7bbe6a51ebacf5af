// bellperson (Filecoin) Groth16 parameters: read and write its big-endian layout, mapped to a
// groth16::proving_key in the monomial basis. Layout (bellperson src/groth16/params.rs,
// Parameters::write / read, and VerifyingKey::write): vk = alpha_g1, beta_g1, beta_g2, gamma_g2,
// delta_g1, delta_g2 (zcash uncompressed points, 96 / 192 B), u32 BE ic count + ic points; then h,
// l, a, b_g1 (G1) and b_g2 (G2), each a u32 BE count followed by its points. bellperson's reader
// rejects points at infinity in those five vectors, so A/B are filtered (zero columns dropped).
#pragma once
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

#include "core/result.hpp"
#include "groth16/keys.hpp"

namespace pp::formats {

// Where a read's time went (wall seconds), for benchmarks.
struct bellperson_read_stats {
  double layout_s = 0;    // the counts, checked against the bytes left
  double allocate_s = 0;  // the point vectors sized, their pages faulted in on every core
  double decode_s = 0;    // the points decoded (parallel)
  uint64_t points = 0;
};

struct bellperson_read_options {
  // true: every point on the curve and in the prime-order subgroup (bellperson's `checked`).
  // false: flags and coordinates < p only (bellperson's into_affine_unchecked), for keys this
  // machine wrote or verified before: the subgroup checks dominate the read time of a large key.
  bool checked = true;
  bellperson_read_stats* stats = nullptr;  // filled when set
};

// The key comes back with basis monomial, n_vars = |ic| + |l|, domain_size = |h| + 1 (bellperson's
// H query has n - 1 points; anything else is rejected), a / b_g1 / b_g2 filtered, and a_density /
// b_density set to all-clear bitmaps of n_vars bits. The file does not say which variables the
// filtered points belong to: the prover fills those bits from the circuit (bit i set iff variable
// i has a non-zero A, resp. B, column; inputs first, then aux, as bellperson's density tracker),
// and must find |a| resp. |b_g1| bits set.
// Errors: data_loss for truncation or trailing bytes (with the offset), invalid_argument for bad
// points (vector, index, offset and the decoder's reason) and inconsistent counts; the error is the
// one a front-to-back read would meet first, though every vector is sized and decoded at once.
result<groth16::proving_key> read_bellperson_params(std::span<const uint8_t> bytes,
                                                    const bellperson_read_options& options = {});
result<groth16::proving_key> read_bellperson_params_file(const std::filesystem::path& path,
                                                         const bellperson_read_options& options = {});

// Writes the key in the same layout. The basis must be monomial. A key without density bitmaps
// (one point per variable) has its points at infinity dropped from a / b_g1 / b_g2, as bellperson's
// generator does; points at infinity in h or l are invalid_argument (bellperson cannot read them).
result<std::vector<uint8_t>> write_bellperson_params(const groth16::proving_key& pk);
status write_bellperson_params_file(const groth16::proving_key& pk, const std::filesystem::path& path);

}  // namespace pp::formats
