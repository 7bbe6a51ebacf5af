// The bit-reversal permutation that converts between the natural order and the order in which a
// decimation-in-frequency NTT leaves its output (and a decimation-in-time NTT wants its input).
#pragma once
#include <cstdint>
#include <span>

#include "core/status.hpp"
#include "ff/fr.hpp"

namespace pp::poly {

// The low log_n bits of i, reversed.
[[nodiscard]] constexpr uint64_t bit_reverse_index(uint64_t i, int log_n) {
  uint64_t r = 0;
  for (int b = 0; b < log_n; ++b, i >>= 1) r = (r << 1) | (i & 1);
  return r;
}

// Swaps a[i] and a[bit_reverse_index(i, log2 n)]; an involution. a.size() must be a power of two
// (or 0): otherwise invalid_argument.
status bit_reverse_permute(std::span<ff::fr> a);

}  // namespace pp::poly
