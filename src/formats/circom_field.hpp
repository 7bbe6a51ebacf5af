// The field header circom and snarkjs put in .r1cs and .wtns files (u32 n8, prime as n8 LE bytes)
// and the field elements that follow it (n8 LE bytes, standard form). proofpipe accepts only
// BLS12-381's scalar field; other known primes are named so the error says how to fix the input.
#pragma once
#include <cstdint>
#include <string_view>

#include "core/result.hpp"
#include "ff/fr.hpp"
#include "formats/binfile.hpp"

namespace pp::formats {

// Reads n8 and the prime. ok only for n8 == 32 and prime == BLS12-381 r. Otherwise
// invalid_argument like "this .r1cs is for BN254 (prime 2188...617), proofpipe proves over
// BLS12-381; <fix>", or data_loss when the header is cut short.
status read_circom_field(byte_reader& rd, std::string_view kind, std::string_view fix);

// Writes n8 = 32 and BLS12-381 r.
void write_circom_field(binfile_writer& w);

// Standard-form little-endian value < r at the reader's position (32 bytes, already bounds-checked
// by the caller); false when it is >= r. The common values 0 and 1 skip the Montgomery conversion.
inline bool read_fr_unchecked(byte_reader& rd, ff::fr& out) {
  uint64_t v[4];
  std::memcpy(v, rd.bytes_unchecked(32), 32);
  if ((v[1] | v[2] | v[3]) == 0 && v[0] <= 1) {
    out = v[0] == 0 ? ff::fr::zero() : ff::fr::one();
    return true;
  }
  return ff::fr::from_canonical_checked(v, out);
}

inline void write_fr(binfile_writer& w, const ff::fr& x) {
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
