// Parallel geometric sequences: each chunk starts from c * s^start (one pow, ~64 squarings+muls)
// and then steps by one multiplication, so the work is ~n muls (fill) or ~2n muls (distribute).
#include "poly/powers.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstdint>

namespace pp::poly {
namespace {

using ff::fr;

// 4096 elements per chunk: the starting pow (~100 muls) stays below 3% of the chunk's work.
constexpr std::size_t chunk = 4096;

template <class Op>
void for_each_power(std::size_t n, const fr& s, const fr& c, Op op) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, chunk), [&](const tbb::blocked_range<std::size_t>& r) {
    fr p = c * s.pow(static_cast<uint64_t>(r.begin()));
    for (std::size_t i = r.begin(); i < r.end(); ++i) {
      op(i, p);
      p *= s;
    }
  });
}

}  // namespace

void fill_powers(std::span<fr> out, const fr& base, const fr& c) {
  for_each_power(out.size(), base, c, [&](std::size_t i, const fr& p) { out[i] = p; });
}

void distribute_powers(std::span<fr> a, const fr& s, const fr& c) {
  for_each_power(a.size(), s, c, [&](std::size_t i, const fr& p) { a[i] *= p; });
}

}  // namespace pp::poly
