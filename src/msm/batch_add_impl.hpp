// Batch-affine summation (msm/batch_add.hpp); included only by the instantiation files (msm/instantiate.hpp).
// Affine addition (x3 = l^2 - x1 - x2, y3 = l (x1 - x3) - y1, l = (y2 - y1)/(x2 - x1), or
// l = 3 x1^2 / (2 y1) for doubling; Guide to ECC, Hankerson-Menezes-Vanstone, section 3.1.2):
// 3M per element for Montgomery's trick + 1M (l) + 1S (x3) + 1M (y3), plus a share of one inversion.
#pragma once
#include "msm/batch_add.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "ec/xyzz.hpp"
#include "ff/interleaved_batch_inverse.hpp"
#include "msm/flatten_products.hpp"
#include "msm/thread_limit.hpp"

namespace pp::msm {
namespace batch_add_detail {

// Below this many points a tree level no longer pays for its inversion: a level saves ~4M per pair
// against mixed XYZZ additions (8M + 2S vs 5M + 1S), so with Fermat's ~570M inversion it broke even
// near 2 * 570 / 4 ~ 290 points; safegcd's ~130M (docs/perf/cpu-prove-vs-snarkjs.md, "Safegcd
// inversion") moves that to ~65, but the levels below 256 points of a chunk of >= min_chunk_points
// are a few percent of its additions. The rest goes to XYZZ.
constexpr std::size_t min_level_points = 256;

// Points per parallel chunk: each chunk reduces its own tree, so it must be well above
// min_level_points for the batch levels to matter.
constexpr std::size_t min_chunk_points = 4096;

// Sums cur (no infinity points; destroyed) by batch-affine levels, then XYZZ mixed additions.
template <class Curve>
ec::xyzz<Curve> reduce_chunk_body(std::vector<ec::affine<Curve>>& cur) {
  using F = typename Curve::field;
  std::size_t m = cur.size();
  std::vector<F> den(m / 2), scratch(m / 2);
  while (m >= min_level_points) {
    const std::size_t pairs = m / 2;
    for (std::size_t i = 0; i < pairs; ++i) {
      const auto& a = cur[2 * i];
      const auto& b = cur[2 * i + 1];
      if (a.x != b.x) {
        den[i] = b.x - a.x;
      } else if (a.y == b.y) {
        den[i] = a.y.dbl();  // doubling; zero only for a 2-torsion point, whose double is infinity
      } else {
        den[i] = F::zero();  // P + (-P) = infinity; the batch inversion leaves zeros alone
      }
    }
    ff::interleaved_batch_inverse(den.data(), scratch.data(), static_cast<int64_t>(pairs));
    // Results overwrite the front of cur: slot out <= i is written after pair i (slots 2i, 2i+1) is read.
    std::size_t out = 0;
    for (std::size_t i = 0; i < pairs; ++i) {
      if (den[i].is_zero()) continue;
      const auto a = cur[2 * i];
      const auto b = cur[2 * i + 1];
      F lambda;
      if (a.x != b.x) {
        lambda = (b.y - a.y) * den[i];
      } else {
        const F x2 = a.x.sqr();
        lambda = (x2.dbl() + x2) * den[i];
      }
      const F x3 = lambda.sqr() - a.x - b.x;
      cur[out++] = ec::affine<Curve>{x3, lambda * (a.x - x3) - a.y};
    }
    if (m % 2 == 1) cur[out++] = cur[m - 1];
    m = out;
  }
  auto acc = ec::xyzz<Curve>::infinity();
  for (std::size_t i = 0; i < m; ++i) acc = ec::madd(acc, cur[i]);
  return acc;
}

template <class Curve>
[[gnu::flatten]] ec::xyzz<Curve> reduce_chunk_flattened(std::vector<ec::affine<Curve>>& cur) {
  return reduce_chunk_body<Curve>(cur);
}

// Flattened for G1 (msm/flatten_products.hpp): the field multiplications are inlined, as in
// msm/affine_buckets.hpp's apply_batch.
template <class Curve>
ec::xyzz<Curve> reduce_chunk(std::vector<ec::affine<Curve>>& cur) {
  if constexpr (detail::flatten_products<Curve>) {
    return reduce_chunk_flattened<Curve>(cur);
  } else {
    return reduce_chunk_body<Curve>(cur);
  }
}

}  // namespace batch_add_detail

template <class Curve>
ec::jacobian<Curve> batch_sum(std::span<const ec::affine<Curve>> points, const msm_options& options) {
  using namespace batch_add_detail;
  const std::size_t n = points.size();
  if (n == 0) return ec::jacobian<Curve>::infinity();
  return detail::with_thread_limit(options.max_threads, [&] {
    // A few chunks per thread so uneven chunks (many infinities, many cancellations) balance out.
    const auto threads = static_cast<std::size_t>(tbb::this_task_arena::max_concurrency());
    const std::size_t chunks = std::max<std::size_t>(1, std::min(4 * threads, n / min_chunk_points));
    const std::size_t chunk = (n + chunks - 1) / chunks;
    std::vector<ec::xyzz<Curve>> partial(chunks, ec::xyzz<Curve>::infinity());
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, chunks, 1), [&](const tbb::blocked_range<std::size_t>& r) {
      std::vector<ec::affine<Curve>> cur;
      for (std::size_t j = r.begin(); j < r.end(); ++j) {
        const std::size_t lo = j * chunk, hi = std::min(n, lo + chunk);
        cur.clear();
        for (std::size_t i = lo; i < hi; ++i) {
          if (!ec::is_infinity(points[i])) cur.push_back(points[i]);
        }
        partial[j] = reduce_chunk(cur);
      }
    });
    auto acc = ec::xyzz<Curve>::infinity();
    for (const auto& p : partial) acc = ec::add(acc, p);
    return ec::to_jacobian(acc);
  });
}

template <class Curve>
ec::jacobian<Curve> batch_sum(std::span<const ec::affine<Curve>> points) {
  return batch_sum(points, msm_options{});
}

}  // namespace pp::msm
