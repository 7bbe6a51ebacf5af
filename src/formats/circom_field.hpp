// The field header circom and snarkjs put in .r1cs and .wtns files (u32 n8, prime as n8 LE bytes)
// and the field elements that follow it (n8 LE bytes, standard form). The prime says which curve
// the file is for: BLS12-381's r (circom -p bls12381) or BN254's (-p bn128, circom's default); other
// known primes are named so the error says how to fix the input.
#pragma once
#include <cstdint>
#include <cstring>
#include <string_view>

#include "core/result.hpp"
#include "ec/curve_id.hpp"
#include "formats/binfile.hpp"

namespace pp::formats {

// Reads n8 and the prime: the curve whose scalar field it is (n8 must be 32). Otherwise
// invalid_argument like "this .r1cs is for Goldilocks (prime 1844...321), proofpipe proves over
// BLS12-381 and BN254; <fix_prefix>bls12381 or -p bn128", or data_loss when the header is cut short.
// `fix_prefix` ends where circom's -p value goes ("recompile the circuit with circom -p ").
result<ec::curve_id> read_circom_curve(byte_reader& rd, std::string_view kind, std::string_view fix_prefix);

// read_circom_curve, and the curve must be `expected`: a file for the other one is invalid_argument
// "this .wtns is for BN254 (prime 2188...617), expected BLS12-381; <fix_prefix>bls12381".
status read_circom_field(byte_reader& rd, ec::curve_id expected, std::string_view kind, std::string_view fix_prefix);

// Writes n8 = 32 and Fr's modulus.
template <class Fr>
void write_circom_field(binfile_writer& w) {
  static_assert(Fr::n_bytes == 32, "circom files of both curves have n8 = 32");
  w.u32(32);
  w.bytes(Fr::params::modulus, 32);
}

// Standard-form little-endian value < r at the reader's position (32 bytes, already bounds-checked
// by the caller); false when it is >= r. The common values 0 and 1 skip the Montgomery conversion.
template <class Fr>
inline bool read_fr_unchecked(byte_reader& rd, Fr& out) {
  static_assert(Fr::n_bytes == 32);
  uint64_t v[4];
  std::memcpy(v, rd.bytes_unchecked(32), 32);
  if ((v[1] | v[2] | v[3]) == 0 && v[0] <= 1) {
    out = v[0] == 0 ? Fr::zero() : Fr::one();
    return true;
  }
  return Fr::from_canonical_checked(v, out);
}

template <class Fr>
inline void write_fr(binfile_writer& w, const Fr& x) {
  static_assert(Fr::n_bytes == 32);
  uint64_t v[4];
  if (x.is_zero()) {
    v[0] = v[1] = v[2] = v[3] = 0;
  } else if (x.is_one()) {
    v[0] = 1, v[1] = v[2] = v[3] = 0;
  } else {
    x.to_canonical(v);
  }
  w.bytes(v, 32);
}

}  // namespace pp::formats
