// Parallel bit-reversal permutation: each index pair (i, rev(i)) with i < rev(i) is swapped by
// exactly one task, so the chunks write disjoint pairs and need no synchronisation.
#include "poly/bit_reverse.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <bit>
#include <string>
#include <utility>

namespace pp::poly {

status bit_reverse_permute(std::span<ff::fr> a) {
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

}  // namespace pp::poly
