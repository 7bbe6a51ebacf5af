// Split MSM (msm/split_msm.hpp); included only by the instantiation files (msm/instantiate.hpp). Classification is two parallel passes
// over blocks (count, then gather at prefix offsets) so the gathered order is deterministic.
#pragma once
#include "msm/split_msm.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <vector>

#include "msm/batch_add_impl.hpp"
#include "msm/length_check.hpp"
#include "msm/pippenger_impl.hpp"
#include "msm/thread_limit.hpp"

namespace pp::msm {
namespace split_msm_detail {

constexpr std::size_t block_size = std::size_t{1} << 14;

template <class Curve>
struct split_parts {
  std::vector<ec::affine<Curve>> one_points;    // scalar == 1
  std::vector<ec::affine<Curve>> other_points;  // scalar not in {0, 1}
  std::vector<canonical_scalar> other_scalars;  // canonical form, for pippenger_canonical
  uint64_t zeros = 0;
};

template <class Curve>
split_parts<Curve> classify(std::span<const ec::affine<Curve>> points, std::span<const typename Curve::scalar_field> scalars) {
  const std::size_t n = points.size();
  const std::size_t blocks = (n + block_size - 1) / block_size;
  std::vector<std::size_t> ones(blocks + 1, 0), others(blocks + 1, 0);
  const auto one = Curve::scalar_field::one();
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    const std::size_t lo = b * block_size, hi = std::min(n, lo + block_size);
    for (std::size_t i = lo; i < hi; ++i) {
      if (scalars[i] == one) {
        ++ones[b + 1];
      } else if (!scalars[i].is_zero()) {
        ++others[b + 1];
      }
    }
  });
  for (std::size_t b = 0; b < blocks; ++b) {  // exclusive prefix sums: block b starts at [b]
    ones[b + 1] += ones[b];
    others[b + 1] += others[b];
  }
  split_parts<Curve> parts;
  parts.one_points.resize(ones[blocks]);
  parts.other_points.resize(others[blocks]);
  parts.other_scalars.resize(others[blocks]);
  parts.zeros = n - ones[blocks] - others[blocks];
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    const std::size_t lo = b * block_size, hi = std::min(n, lo + block_size);
    std::size_t o1 = ones[b], o2 = others[b];
    for (std::size_t i = lo; i < hi; ++i) {
      if (scalars[i] == one) {
        parts.one_points[o1++] = points[i];
      } else if (!scalars[i].is_zero()) {
        parts.other_points[o2] = points[i];
        scalars[i].to_canonical(parts.other_scalars[o2].l);
        ++o2;
      }
    }
  });
  return parts;
}

}  // namespace split_msm_detail

template <class Curve>
ec::jacobian<Curve> split_msm(std::span<const ec::affine<Curve>> points,
                              std::span<const typename Curve::scalar_field> scalars, const msm_options& options,
                              split_stats* stats) {
  using namespace split_msm_detail;
  detail::check_lengths("split_msm", points.size(), scalars.size());
  const auto parts = detail::with_thread_limit(options.max_threads, [&] { return classify(points, scalars); });
  if (stats != nullptr) {
    *stats = split_stats{parts.zeros, parts.one_points.size(), parts.other_points.size()};
  }
  const auto ones = batch_sum<Curve>(parts.one_points, options);
  const auto others = pippenger_canonical<Curve>(parts.other_points, parts.other_scalars, options);
  return ec::add(ones, others);
}

}  // namespace pp::msm
