// Host Pippenger (msm/pippenger.hpp); included only by the instantiation files (msm/instantiate.hpp).
// Cost: N*W bucket additions + W*2^c bucket-reduction additions (12M + 2S) + W*c doublings,
// W = ceil(256 / c); c and the chunk count come from msm/window.hpp. Bucket additions are batched
// affine ones (~5M + 1S, msm/affine_buckets.hpp) for c >= 10, XYZZ mixed ones (8M + 2S) below.
// G1, and BN254's G2, split scalars by GLV (msm/glv.hpp): 2N points over W = ceil(129 / c) windows
// (127 on BN254), the same N*W bucket additions but half the windows' reductions and doublings.
#pragma once
#include "msm/pippenger.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

#include "ec/xyzz.hpp"
#include "msm/affine_buckets.hpp"
#include "msm/glv.hpp"
#include "msm/glv_bls12_381.hpp"
#include "msm/glv_bn254.hpp"
#include "msm/length_check.hpp"
#include "msm/thread_limit.hpp"
#include "msm/window.hpp"

namespace pp::msm {
namespace pippenger_detail {

// Elements per task of the per-point and per-scalar passes (a field multiplication or a GLV split
// each, tens of ns on the host): tasks of ~0.1 ms, long against TBB's scheduling, and enough of
// them at the sizes the split MSM hands Pippenger to keep every core busy.
constexpr std::size_t per_element_grain = 4096;

// Sum over b of (b + 1) * buckets[b] by the running-sum trick: scanning from the top bucket,
// running = sum of buckets >= b, and adding running once per step weights bucket b by b + 1.
// 2 additions per bucket instead of a scalar multiplication per bucket.
template <class Curve>
ec::xyzz<Curve> reduce_buckets(const std::vector<ec::xyzz<Curve>>& buckets) {
  auto running = ec::xyzz<Curve>::infinity();
  auto sum = ec::xyzz<Curve>::infinity();
  for (std::size_t b = buckets.size(); b-- > 0;) {
    running = ec::add(running, buckets[b]);
    sum = ec::add(sum, running);
  }
  return sum;
}

// The bucket loops' view of the input: visit(i, w, c, f) calls f(d, p) for each term of point i in
// window w with signed digit d != 0 (p is added to bucket |d| - 1, negated when d < 0).
template <class Curve>
struct whole_scalars {
  std::span<const ec::affine<Curve>> points;
  std::span<const canonical_scalar> scalars;
  static constexpr int bits = scalar_bits;
  static constexpr int terms_per_point = 1;

  template <class F>
  void visit(int64_t i, int w, int c, F&& f) const {
    const int32_t d = booth_digit(scalars[i], w, c);
    if (d != 0) f(d, points[i]);
  }
};

// GLV (msm/glv.hpp): scalars hold the halves from glv<Curve>::split, endo_x[i] = beta * points[i].x.
// The second term's point is phi(P) = (beta x, y); each term enters negated where its half says so.
template <class Curve>
struct glv_scalars {
  using split = glv<Curve>;
  std::span<const ec::affine<Curve>> points;
  std::span<const canonical_scalar> scalars;
  std::span<const typename Curve::field> endo_x;
  static constexpr int bits = split::digit_bits;
  static constexpr int terms_per_point = 2;

  template <class F>
  void visit(int64_t i, int w, int c, F&& f) const {
    const canonical_scalar& k = scalars[i];
    const glv_half h1 = split::half(k, 0);
    const int32_t d1 = glv_digit(h1.lo, h1.hi, w, c);
    if (d1 != 0) f(h1.negative ? -d1 : d1, points[i]);
    const glv_half h2 = split::half(k, 1);
    const int32_t d2 = glv_digit(h2.lo, h2.hi, w, c);
    if (d2 != 0) f(h2.negative ? -d2 : d2, ec::affine<Curve>{endo_x[i], points[i].y});
  }
};

// The MSM proper; runs inside the caller's arena and uses all of its threads.
template <class Curve, class Terms>
ec::jacobian<Curve> pippenger_in_arena(const Terms& in, const msm_options& options) {
  using bucket = ec::xyzz<Curve>;
  const auto n = static_cast<int64_t>(in.points.size());
  if (n == 0) return ec::jacobian<Curve>::infinity();
  const int threads = tbb::this_task_arena::max_concurrency();
  const msm_plan plan = choose_msm_plan(n * Terms::terms_per_point, threads, options.window_bits, Terms::bits);
  const int c = plan.window_bits, n_windows = plan.windows, k = plan.chunks;
  const int64_t chunk = (n + k - 1) / k;
  const std::size_t n_buckets = std::size_t{1} << (c - 1);

  std::vector<bucket> partial(static_cast<std::size_t>(n_windows) * k);
  const auto task_range = [&](int task) {
    const int64_t lo = std::min(n, (task % k) * chunk);
    return std::pair<int64_t, int64_t>{lo, std::min(n, lo + chunk)};
  };
  if (c >= min_affine_window_bits) {
    // One affine bucket set per thread, reused by every task that thread runs.
    const auto batch = static_cast<std::size_t>(affine_batch(c));
    tbb::enumerable_thread_specific<detail::affine_buckets<Curve>> tls(
        [&] { return detail::affine_buckets<Curve>(n_buckets, batch, options.avx512_ifma); });
    tbb::parallel_for(tbb::blocked_range<int>(0, n_windows * k, 1), [&](const tbb::blocked_range<int>& r) {
      auto& buckets = tls.local();
      for (int task = r.begin(); task < r.end(); ++task) {
        const int w = task / k;
        const auto [lo, hi] = task_range(task);
        buckets.clear();
        for (int64_t i = lo; i < hi; ++i) {
          in.visit(i, w, c, [&](int32_t d, const ec::affine<Curve>& p) {
            if (ec::is_infinity(p)) return;
            if (d > 0) {
              buckets.add(static_cast<uint32_t>(d - 1), p);
            } else {
              buckets.add(static_cast<uint32_t>(-d - 1), ec::neg(p));
            }
          });
        }
        buckets.flush();
        partial[task] = buckets.weighted_sum();
      }
    });
  } else {
    // One XYZZ bucket array per thread, reused by every task that thread runs.
    tbb::enumerable_thread_specific<std::vector<bucket>> tls_buckets(
        [&] { return std::vector<bucket>(n_buckets); });
    tbb::parallel_for(tbb::blocked_range<int>(0, n_windows * k, 1), [&](const tbb::blocked_range<int>& r) {
      auto& buckets = tls_buckets.local();
      for (int task = r.begin(); task < r.end(); ++task) {
        const int w = task / k;
        const auto [lo, hi] = task_range(task);
        std::fill(buckets.begin(), buckets.end(), bucket::infinity());
        for (int64_t i = lo; i < hi; ++i) {
          in.visit(i, w, c, [&](int32_t d, const ec::affine<Curve>& p) {
            if (d > 0) {
              buckets[d - 1] = ec::madd(buckets[d - 1], p);
            } else {
              buckets[-d - 1] = ec::madd(buckets[-d - 1], ec::neg(p));
            }
          });
        }
        partial[task] = reduce_buckets(buckets);
      }
    });
  }

  // Horner over windows, top first: acc = 2^c acc + S_w. Jacobian doubling (2M + 5S) is the
  // cheapest doubling on hand; W*c ~ 256 of them, negligible next to the buckets.
  auto acc = ec::jacobian<Curve>::infinity();
  for (int w = n_windows - 1; w >= 0; --w) {
    for (int i = 0; i < c; ++i) acc = ec::dbl(acc);
    auto window_sum = bucket::infinity();
    for (int j = 0; j < k; ++j) window_sum = ec::add(window_sum, partial[static_cast<std::size_t>(w) * k + j]);
    acc = ec::add(acc, ec::to_jacobian(window_sum));
  }
  return acc;
}

// Through GLV: scalars already split (glv<Curve>::split); computes beta * x of every point (an Fp
// product per coordinate limb set: 1M on G1, 2M on G2).
template <class Curve>
ec::jacobian<Curve> pippenger_glv(std::span<const ec::affine<Curve>> points, std::span<const canonical_scalar> split,
                                  const msm_options& options) {
  using field = typename Curve::field;
  std::vector<field> endo_x(points.size());
  const auto beta = fp_from_limbs(glv<Curve>::beta());  // in Fp, also for G2
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, points.size(), per_element_grain),
                    [&](const tbb::blocked_range<std::size_t>& r) {
                      for (std::size_t i = r.begin(); i < r.end(); ++i) endo_x[i] = points[i].x * beta;
                    });
  return pippenger_in_arena<Curve>(glv_scalars<Curve>{points, split, endo_x}, options);
}

template <class Curve>
bool uses_glv(std::size_t n, const msm_options& options) {
  return glv<Curve>::available && options.glv && static_cast<int64_t>(n) <= glv_max_points;
}

}  // namespace pippenger_detail

template <class Curve>
ec::jacobian<Curve> pippenger_canonical(std::span<const ec::affine<Curve>> points,
                                        std::span<const canonical_scalar> scalars, const msm_options& options) {
  using namespace pippenger_detail;
  detail::check_lengths("pippenger_canonical", points.size(), scalars.size());
  if (points.empty()) return ec::jacobian<Curve>::infinity();
  return detail::with_thread_limit(options.max_threads, [&] {
    if constexpr (glv<Curve>::available) {
      if (!uses_glv<Curve>(scalars.size(), options)) {
        return pippenger_in_arena<Curve>(whole_scalars<Curve>{points, scalars}, options);
      }
      std::vector<canonical_scalar> split(scalars.size());
      tbb::parallel_for(tbb::blocked_range<std::size_t>(0, scalars.size(), per_element_grain),
                        [&](const tbb::blocked_range<std::size_t>& r) {
                          for (std::size_t i = r.begin(); i < r.end(); ++i) split[i] = glv<Curve>::split(scalars[i]);
                        });
      return pippenger_glv<Curve>(points, split, options);
    } else {
      return pippenger_in_arena<Curve>(whole_scalars<Curve>{points, scalars}, options);
    }
  });
}

template <class Curve>
ec::jacobian<Curve> pippenger(std::span<const ec::affine<Curve>> points,
                              std::span<const typename Curve::scalar_field> scalars, const msm_options& options) {
  using namespace pippenger_detail;
  detail::check_lengths("pippenger", points.size(), scalars.size());
  if (points.empty()) return ec::jacobian<Curve>::infinity();
  return detail::with_thread_limit(options.max_threads, [&] {
    std::vector<canonical_scalar> canon(scalars.size());
    const bool use_glv = uses_glv<Curve>(scalars.size(), options);
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, scalars.size(), per_element_grain),
                      [&](const tbb::blocked_range<std::size_t>& r) {
                        for (std::size_t i = r.begin(); i < r.end(); ++i) {
                          scalars[i].to_canonical(canon[i].l);
                          if constexpr (glv<Curve>::available) {
                            if (use_glv) canon[i] = glv<Curve>::split(canon[i]);
                          }
                        }
                      });
    if constexpr (glv<Curve>::available) {
      if (use_glv) return pippenger_glv<Curve>(points, canon, options);
    }
    return pippenger_in_arena<Curve>(whole_scalars<Curve>{points, canon}, options);
  });
}

}  // namespace pp::msm
