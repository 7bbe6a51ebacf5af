// Bucket sums of sorted (bucket, point) entries by batch-affine additions: the first stage-2 pass
// of the GPU MSM when msm_run.cuh picks it (msm_tuning::affine_lanes). Thread t folds entries
// [t S C, (t + 1) S C) as S lanes of C consecutive entries each, in lock step: every step, each lane
// adds its next point into its run's affine sum, and the S slopes share one field inversion
// (Montgomery's trick; ff/safegcd_inverse.hpp). Per addition 6 products plus 1/S of an inversion
// (~67 Fp products on the H200) against the mixed XYZZ addition's 10 (docs/perf/msm-h200.md,
// session 13). Same output contract as segmented_sum_kernel: runs wholly inside the thread's
// entries go to buckets[key], the run cut by its front to slot 2t and by its back to slot 2t + 1;
// runs cut between two lanes of the thread are joined by the thread after the loop.
#pragma once
#include <cstdint>

#include "cuda/msm_kernels.cuh"

namespace pp::cuda::msm_detail {

// Per-lane state bits.
inline constexpr uint8_t lane_acc_infinity = 1;   // the run's sum so far is infinity
inline constexpr uint8_t lane_in_head = 2;        // the current run began before the lane's entries
inline constexpr uint8_t lane_head_done = 4;      // that first run ended inside the lane: in head[s]
inline constexpr uint8_t lane_head_infinity = 8;  // head[s] is infinity
inline constexpr uint8_t lane_ended = 16;         // no more entries (end of range or the sentinel)

// What a lane does with the current step's entry.
enum class lane_step : uint8_t { none, add, dbl };

template <class Curve, int S>
__global__ void __launch_bounds__(128) affine_segmented_sum_kernel(
    const uint32_t* __restrict__ keys, const uint32_t* __restrict__ vals, const affine_t<Curve>* __restrict__ points,
    uint64_t m, uint32_t sentinel, uint32_t lane_entries, uint64_t threads, xyzz_t<Curve>* __restrict__ buckets,
    uint32_t* __restrict__ slot_keys, uint8_t* __restrict__ slot_flags, xyzz_t<Curve>* __restrict__ slot_vals) {
  using A = affine_t<Curve>;
  using X = xyzz_t<Curve>;
  using F = typename Curve::field;
  const uint64_t t = global_thread();
  if (t >= threads) return;
  slot_flags[2 * t] = 0;
  slot_flags[2 * t + 1] = 0;
  const uint64_t lo = t * uint64_t(S) * lane_entries;
  if (lo >= m) return;

  A acc[S];
  A head[S];
  F prefix[S];
  uint32_t cur[S];
  uint8_t state[S];
  lane_step step[S];

  auto entry_point = [&](uint64_t i) {
    const uint32_t v = vals[i];
    const A p = points[v & ~sign_bit];
    return (v & sign_bit) ? ec::neg(p) : p;
  };
  auto to_bucket = [](const A& a, bool infinity) { return infinity ? X::infinity() : ec::to_xyzz(a); };

#pragma unroll 1
  for (int s = 0; s < S; ++s) {
    const uint64_t lane_lo = lo + uint64_t(s) * lane_entries;
    state[s] = lane_ended;
    if (lane_lo >= m) continue;
    const uint32_t k = keys[lane_lo];
    if (k == sentinel) continue;
    cur[s] = k;
    const A p = entry_point(lane_lo);
    acc[s] = p;
    state[s] = (ec::is_infinity(p) ? lane_acc_infinity : 0) |
               ((lane_lo > 0 && keys[lane_lo - 1] == k) ? lane_in_head : 0);
  }

  for (uint32_t j = 1; j < lane_entries; ++j) {
    // Forward: each lane reads its entry, ends its run on a new key, and otherwise queues its
    // addition's denominator into the running product.
    F run = F::one();
#pragma unroll 1
    for (int s = 0; s < S; ++s) {
      step[s] = lane_step::none;
      if (state[s] & lane_ended) continue;
      const uint64_t i = lo + uint64_t(s) * lane_entries + j;
      const uint32_t k = i < m ? keys[i] : sentinel;
      if (k != cur[s]) {
        const bool infinity = state[s] & lane_acc_infinity;
        if (state[s] & lane_in_head) {
          head[s] = acc[s];
          state[s] = (state[s] & ~lane_in_head) | lane_head_done | (infinity ? lane_head_infinity : 0);
        } else {
          buckets[cur[s]] = to_bucket(acc[s], infinity);
        }
        if (k == sentinel) {
          state[s] |= lane_ended | lane_acc_infinity;  // the run was written: nothing left to flush
          continue;
        }
        cur[s] = k;
        const A p = entry_point(i);
        acc[s] = p;
        state[s] = (state[s] & ~lane_acc_infinity) | (ec::is_infinity(p) ? lane_acc_infinity : 0);
        continue;
      }
      const A p = entry_point(i);
      if (ec::is_infinity(p)) continue;
      if (state[s] & lane_acc_infinity) {
        acc[s] = p;
        state[s] &= ~lane_acc_infinity;
        continue;
      }
      F den;
      if (p.x != acc[s].x) {
        den = p.x - acc[s].x;
        step[s] = lane_step::add;
      } else if (p.y == acc[s].y && !p.y.is_zero()) {
        den = acc[s].y.dbl();
        step[s] = lane_step::dbl;
      } else {  // p = -acc
        state[s] |= lane_acc_infinity;
        continue;
      }
      prefix[s] = run;
      run *= den;
    }
    // One inversion for the step, then backward through the lanes: 1/den_s = inv * prefix_s.
    F inv = run.inverse();
#pragma unroll 1
    for (int s = S - 1; s >= 0; --s) {
      if (step[s] == lane_step::none) continue;
      const A p = entry_point(lo + uint64_t(s) * lane_entries + j);
      const A a = acc[s];
      F num, den;
      if (step[s] == lane_step::add) {
        den = p.x - a.x;
        num = p.y - a.y;
      } else {
        den = a.y.dbl();
        const F x2 = a.x.sqr();
        num = x2.dbl() + x2;
      }
      const F lambda = num * (inv * prefix[s]);
      inv *= den;
      const F x3 = lambda.sqr() - a.x - p.x;
      acc[s].y = lambda * (a.x - x3) - a.y;
      acc[s].x = x3;
    }
  }

  // Join the runs that cross lane borders, in lane order. open: the run reaching the current lane
  // from the ones before it (front: it began before this thread's entries).
  bool open = false, open_front = false;
  uint32_t open_key = 0;
  X open_acc = X::infinity();
  auto finish_open = [&]() {
    if (open_front) {
      slot_keys[2 * t] = open_key;
      slot_vals[2 * t] = open_acc;
      slot_flags[2 * t] = 1;
    } else {
      buckets[open_key] = open_acc;
    }
    open = false;
  };
#pragma unroll 1
  for (int s = 0; s < S; ++s) {
    const uint64_t lane_lo = lo + uint64_t(s) * lane_entries;
    if (lane_lo >= m) break;
    const uint64_t lane_hi = lane_lo + lane_entries < m ? lane_lo + lane_entries : m;
    const uint8_t st = state[s];
    if (st & lane_head_done) {  // the head joins the open run and ends it
      const X h = to_bucket(head[s], st & lane_head_infinity);
      if (!open) {
        open_front = true;  // only lane 0 has a head with nothing open: the run began in thread t - 1
        open_key = keys[lane_lo];
        open_acc = h;
      } else {
        open_acc = ec::add(open_acc, h);
      }
      finish_open();
    }
    if ((st & lane_ended) && !(st & lane_in_head)) {
      if (keys[lane_lo] == sentinel) break;
      continue;  // the lane's last run met the sentinel and was written
    }
    const X last = to_bucket(acc[s], st & lane_acc_infinity);
    const bool back = lane_hi < m && keys[lane_hi] == cur[s];
    if (st & lane_in_head) {  // the whole lane is one run that began before it
      if (!open) {
        open_front = true;
        open_key = cur[s];
        open_acc = last;
      } else {
        open_acc = ec::add(open_acc, last);
      }
      open = true;
    } else if (back) {
      open = true;
      open_front = false;
      open_key = cur[s];
      open_acc = last;
    } else {
      buckets[cur[s]] = last;
    }
    if (open && !back) finish_open();
    if (st & lane_ended) break;
  }
  if (open) {  // cut by the thread's back (and its front too when open_front)
    const uint64_t slot = 2 * t + (open_front ? 0 : 1);
    slot_keys[slot] = open_key;
    slot_vals[slot] = open_acc;
    slot_flags[slot] = 1;
  }
}

}  // namespace pp::cuda::msm_detail
