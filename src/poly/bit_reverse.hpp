// The bit-reversal permutation that converts between the natural order and the order in which a
// decimation-in-frequency NTT leaves its output (and a decimation-in-time NTT wants its input).
// Parallel: each index pair (i, rev(i)) with i < rev(i) is swapped by exactly one task, so the
// chunks write disjoint pairs and need no synchronisation. Any element type (both curves' Fr).
#pragma once
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <bit>
#include <cstdint>
#include <ranges>
#include <span>
#include <string>
#include <utility>

#include "core/status.hpp"

namespace pp::poly {

// The low log_n bits of i, reversed.
[[nodiscard]] constexpr uint64_t bit_reverse_index(uint64_t i, int log_n) {
  uint64_t r = 0;
  for (int b = 0; b < log_n; ++b, i >>= 1) r = (r << 1) | (i & 1);
  return r;
}

// Swaps a[i] and a[bit_reverse_index(i, log2 n)]; an involution. a.size() must be a power of two
// (or 0): otherwise invalid_argument.
template <class T>
status bit_reverse_permute(std::span<T> a) {
  const uint64_t n = a.size();
  if (n == 0) return ok_status();
  if (!std::has_single_bit(n)) {
    return invalid_argument("bit_reverse_permute: size must be a power of two, got " + std::to_string(n));
  }
  const int log_n = std::countr_zero(n);
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, n, 1 << 14), [&](const tbb::blocked_range<uint64_t>& r) {
    for (uint64_t i = r.begin(); i < r.end(); ++i) {
      // The bit loop (log_n steps) is cheap next to the scattered 32-byte loads and stores.
      const uint64_t j = bit_reverse_index(i, log_n);
      if (i < j) std::swap(a[i], a[j]);
    }
  });
  return ok_status();
}

// The same on a vector or any other contiguous range.
template <std::ranges::contiguous_range R>
  requires(!std::is_const_v<std::remove_reference_t<std::ranges::range_reference_t<R>>>)
status bit_reverse_permute(R&& a) {
  return bit_reverse_permute(std::span(a));
}

}  // namespace pp::poly
