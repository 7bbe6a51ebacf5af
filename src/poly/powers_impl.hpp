// Parallel geometric sequences: each chunk starts from c * s^start (one pow, ~64 squarings+muls)
// and then steps by one multiplication, so the work is ~n muls (fill) or ~2n muls (distribute).
// Included only by the instantiation files (poly/<curve>_instances.cpp).
#pragma once
#include "poly/powers.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <cstdint>

namespace pp::poly {
namespace detail {

// 4096 elements per chunk: the starting pow (~100 muls) stays below 3% of the chunk's work.
constexpr std::size_t chunk = 4096;

template <class Fr, class Op>
void for_each_power(std::size_t n, const Fr& s, const Fr& c, Op op) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, chunk), [&](const tbb::blocked_range<std::size_t>& r) {
    Fr p = c * s.pow(static_cast<uint64_t>(r.begin()));
    for (std::size_t i = r.begin(); i < r.end(); ++i) {
      op(i, p);
      p *= s;
    }
  });
}

}  // namespace detail

template <class Fr>
void fill_powers(std::span<std::type_identity_t<Fr>> out, const Fr& base, const Fr& c) {
  detail::for_each_power(out.size(), base, c, [&](std::size_t i, const Fr& p) { out[i] = p; });
}

template <class Fr>
void distribute_powers(std::span<std::type_identity_t<Fr>> a, const Fr& s, const Fr& c) {
  detail::for_each_power(a.size(), s, c, [&](std::size_t i, const Fr& p) { a[i] *= p; });
}

}  // namespace pp::poly
