// Window size and work split for the host Pippenger: a small cost model evaluated over every
// window width c and point-chunk count k, so the choice scales from 1 to many threads.
#pragma once
#include <cstdint>

#include "msm/booth.hpp"

namespace pp::msm {

// Above 16 bits the buckets of one task (2^15 XYZZ points: 6 MiB on G1, 12 MiB on G2) no longer fit
// any cache level and every bucket update misses; the model below ignores memory, so it is capped.
inline constexpr int max_auto_window_bits = 16;
inline constexpr int max_window_bits = 24;  // forced widths: digits are read from c + 1 <= 25 bits

struct msm_plan {
  int window_bits;  // c
  int windows;      // W = ceil(bits / c): 256 for whole scalars, glv<Curve>::digit_bits for GLV halves
  int chunks;       // k: points split into k chunks, each (window, chunk) pair one task
};

// From this width up the host Pippenger fills its buckets by batched affine additions
// (msm/affine_buckets.hpp); narrower windows have too few buckets to batch and use XYZZ buckets.
inline constexpr int min_affine_window_bits = 10;

// Affine additions per inversion: at most half the buckets, to keep in-batch conflicts rare.
// BM_PippengerG1 2^16, 1 thread, c = 13, CPU time on the loaded 2-core EPYC: batch 256 446 ms,
// 512 405 ms, 1024 392 ms, 2048 392 ms (XYZZ buckets: 477 ms).
inline constexpr int64_t max_affine_batch = 1024;
inline constexpr int64_t affine_batch(int c) {
  const int64_t half = (int64_t{1} << (c - 1)) / 2;
  return half < max_affine_batch ? half : max_affine_batch;
}

// Cost, in field multiplications, of one task: n/k bucket additions and the running-sum reduction
// of 2^(c-1) buckets. XYZZ buckets: mixed additions (madd-2008-s, 8M + 2S ~ 10M) and 2 add-2008-s
// (12M + 2S ~ 14M) per bucket. Affine buckets: ~5M + 1S plus a 1/batch share of an inversion per
// addition, priced at Fermat's ~570M, and one mixed plus one full XYZZ addition (~24M) per bucket.
// The inversion is safegcd's (~130M on the dev host), but the widths that price picks at 2^12..2^15
// measured no faster (BM_PippengerG1Width / G2Width, docs/perf/cpu-prove-vs-snarkjs.md, "Safegcd
// inversion"), so the model keeps 570. Over the whole MSM this is the classic N*W additions + W*2^(c-1) bucket
// terms (+ W*c doublings, negligible).
inline double msm_task_cost(int64_t n, int c, int k) {
  const double per_chunk = static_cast<double>((n + k - 1) / k);
  if (c >= min_affine_window_bits) {
    const double per_add = 5.5 + 570.0 / static_cast<double>(affine_batch(c));
    return per_chunk * per_add + static_cast<double>(int64_t{1} << c) * 12.0;
  }
  return per_chunk * 10.0 + static_cast<double>(int64_t{1} << c) * 14.0;
}

// W*k equal tasks on T threads finish after ceil(W*k / T) rounds; pick (c, k) minimising that
// makespan, preferring fewer chunks (less bucket memory, less merging) on ties. n counts bucket
// additions per window (2 per point under GLV), bits the digits to cover (W = ceil(bits / c)).
// forced_c > 0 fixes c (clamped to [1, max_window_bits]) and only chooses k.
inline msm_plan choose_msm_plan(int64_t n, int threads, int forced_c = 0, int bits = scalar_bits) {
  if (threads < 1) threads = 1;
  int c_lo = 1, c_hi = max_auto_window_bits;
  if (forced_c > 0) {
    c_lo = c_hi = forced_c > max_window_bits ? max_window_bits : forced_c;
  }
  const int max_chunks = 8 * threads;
  const auto windows = [bits](int c) { return (bits + c - 1) / c; };
  msm_plan best{c_lo, windows(c_lo), 1};
  double best_cost = -1;
  for (int c = c_lo; c <= c_hi; ++c) {
    const int w = windows(c);
    for (int k = 1; k <= max_chunks && k <= (n > 0 ? n : 1); ++k) {
      const int64_t rounds = (static_cast<int64_t>(w) * k + threads - 1) / threads;
      const double cost = static_cast<double>(rounds) * msm_task_cost(n, c, k);
      if (best_cost < 0 || cost < best_cost * 0.999) {
        best_cost = cost;
        best = msm_plan{c, w, k};
      }
    }
  }
  return best;
}

}  // namespace pp::msm
