// Plan of one GPU MSM: window width, kernel grid sizes and the workspace layout (byte offsets into
// the caller's device buffer). Plain C++: the CUB temp-storage sizes are passed in (msm_workspace.hpp
// models them, plan_gpu_msm puts the two together).
#pragma once
#include <cstdint>

#include "core/result.hpp"
#include "cuda/plan/msm_tuning.hpp"

namespace pp::cuda {

// Device slots a streamed MSM's chunks rotate through (msm_device.hpp, msm_point_stream): the least,
// two, double-buffer; each further one lets the copies run a chunk further ahead of the kernels,
// where the VRAM plan has room for it (key_layout.cpp, add_point_slots).
inline constexpr int msm_min_point_slots = 2;
inline constexpr int msm_max_point_slots = 4;

// Precomputed bases (msm_precompute.hpp): the MSM's points argument holds `groups` copies of its
// points, copy g (g * stride points after the first) being 2^(g * group_windows * c) P. Digit v of
// a scalar (of W = ceil(256 / c)) then adds copy v / group_windows into window v % group_windows,
// so the buckets and their reductions are group_windows windows' instead of W's: a wider c pays
// off. The additions stay W per point. groups = 1: no copies (the plain MSM).
struct msm_precomputation {
  uint32_t groups = 1;
  int window_bits = 0;    // c the copies were made for (0 when groups = 1)
  int group_windows = 0;  // windows of buckets; groups * group_windows >= W
  uint64_t stride = 0;    // points between two copies, >= the MSM's n
};

// What a caller may choose of one GPU MSM (msm_device.hpp).
struct msm_config {
  int window_bits = 0;            // 0 = the tuning table's width for one chunk (msm_tuning.hpp)
  uint64_t max_chunk_points = 0;  // 0 = the tuning's limit for the curve (msm_tuning.hpp)
  // Precomputed copies of the points (msm_precompute.hpp): msm's d_points holds them, made by
  // precompute_msm_bases for this precomputation; its width is the MSM's. msm only: the split and
  // streamed MSMs refuse them.
  msm_precomputation precomputed{};
  // The points stream from host memory (msm_streamed, split_msm_streamed, msm_streamed_vectors set
  // it): a split MSM's chunks then select their own points, so its index lists cover one chunk and
  // never all its points (no select_all), and its workspace is that much smaller.
  bool streamed = false;
};

// OK when pre has at least 2 copies that cover every digit of its width and n points (stride >= n)
// with point indices below 2^31.
status check_msm_precomputation(const msm_precomputation& pre, uint64_t n);

// The precomputation of `groups` copies (clamped to [1, W]) for MSMs of up to n points: c is
// window_bits, or with 0 the cheapest width by the cost model (n * W additions plus
// tuning.bucket_reduce_madds for each of group_windows * 2^(c-1) buckets) from the table's width
// for n up to msm_max_window_bits; then group_windows = ceil(W / groups) and groups shrinks to
// ceil(W / group_windows) (1: none, the default msm_precomputation). stride = n. Fails on n = 0,
// n >= 2^31 or a width outside [0, msm_max_window_bits], or when the copies' point indices reach
// 2^31 (groups * n).
result<msm_precomputation> make_msm_precomputation(uint64_t n, uint32_t groups, int window_bits = 0,
                                                   const msm_tuning& tuning = msm_tuning_sm90);

// Counts that depend only on n, c and the tuning (no CUB sizes). An MSM of more points than the
// chunk limit runs as `chunks` consecutive Pippenger passes over n points each (the last over
// last_n), one workspace and one window width for all (the plain MSM's chunks merge their buckets
// and reduce them once); the counts below are those of one chunk.
struct msm_shape {
  uint64_t total = 0;                 // points of the whole MSM
  uint64_t chunks = 1;                // passes; n = min(total, chunk limit), all but the last full
  uint64_t last_n = 0;                // points of the last pass (n when total divides evenly)
  uint64_t n = 0;                     // points per pass
  bool split = false;
  int window_bits = 0;                // c
  int digits = 0;                     // signed digits of a scalar: D = ceil(256 / c)
  int windows = 0;                    // windows of buckets: W = D, or group_windows when precomputed
  uint64_t group_stride = 0;          // precomputed: points between two copies (msm_precomputation)
  uint32_t buckets_per_window = 0;    // B = 2^(c-1)
  uint64_t entries = 0;               // M = D * n sorted (bucket, point) pairs
  int key_bits = 0;                   // bits of a key: bucket id w*B + b, or the sentinel W*B
  uint64_t accumulate_threads = 0;    // ceil(M / accumulate_chunk)
  uint64_t slots = 0;                 // carry slots: 2 per accumulate thread
  uint32_t segment_len = 0;           // buckets per reduction thread (power of two, <= B)
  uint32_t segments_per_window = 0;   // B / segment_len
  uint64_t ones_partials = 0;         // split: ceil(select_n / ones_chunk)
  // Split with total < 2^31 (CUB's int item count) in at most tuning.split_select_all_max_chunks
  // chunks: the index lists cover all total points at once and Pippenger runs only over the points
  // whose scalar is neither 0 nor 1, in passes of at most n (msm_run.cuh, run_split_selected);
  // otherwise, and in streamed MSMs (msm_config::streamed), each chunk selects its own.
  bool select_all = false;
  uint64_t select_n = 0;              // split: points the index lists cover (total or n)
  bool forced_width = false;          // window_bits came from the caller, not the table
};

// Byte offsets (256-aligned) of every array in the workspace.
struct msm_layout {
  // The sort's double buffers as two pairs, [keys, vals] and [keys_alt, vals_alt], each pair_bytes
  // long: the pair the sort leaves unused holds a later chunk's buckets of a chunked plain MSM
  // (msm_run.cuh, add_bucket_sums), so there each pair is at least one bucket array.
  uint64_t keys, vals, keys_alt, vals_alt, pair_bytes, sort_temp;
  uint64_t buckets;
  uint64_t slot_keys, slot_flags, slot_vals;
  uint64_t carry_keys[2], carry_vals[2];
  uint64_t counts;  // 4 x uint32: carry counts [0], [1]; split: ones [2], others [3]
  uint64_t select_temp;
  uint64_t seg_t[2], seg_s[2];
  uint64_t result;        // the MSM's sum
  uint64_t chunk_result;  // split: the sum of a later chunk or pass, before it is added to result
  uint64_t idx_ones, idx_others, ones_partials[2];  // split only
  uint64_t total;
};

struct msm_plan {
  msm_shape shape;
  msm_layout layout;
  uint64_t sort_temp_bytes = 0;
  uint64_t select_temp_bytes = 0;
};

// Shape of an MSM of n points run in chunks of at most max_chunk_points (>= 1) points.
// window_bits = 0 takes the tuning table's width for one chunk; a forced width also shortens the
// chunks to keep W * (points per chunk) < 2^31 (32-bit sort keys). Fails on n >= 2^32, a chunk
// limit of 0, c outside [1, msm_max_window_bits] or, with the table's width, W * chunk >= 2^31.
// With precomputed copies (pre.groups > 1) the width is pre's (window_bits must be 0 or equal),
// the split MSM is refused, and pre must pass check_msm_precomputation for n. streamed: the chunks
// select their own points (msm_config::streamed), never select_all.
result<msm_shape> make_msm_shape(uint64_t n, int window_bits, bool split, uint64_t max_chunk_points,
                                 const msm_precomputation& pre = {}, const msm_tuning& tuning = msm_tuning_sm90,
                                 bool streamed = false);

// The shape of one pass over len <= s.n points with s's window width (the last, shorter chunk);
// every count fits the layout made for s.
msm_shape make_msm_chunk_shape(const msm_shape& s, uint64_t len, const msm_tuning& tuning = msm_tuning_sm90);

// The shape of one Pippenger pass of the selected split MSM over len <= s.n points: the table's width
// for len when that pass fits s's layout (entries, buckets, carry slots, reduction segments), else
// s's width (a forced width is always kept). CUB's temp sizes are the caller's to check.
msm_shape make_msm_selected_pass(const msm_shape& s, uint64_t len, const msm_tuning& tuning = msm_tuning_sm90);

// True when every count of pass fits the layout made for s.
bool msm_pass_fits(const msm_shape& s, const msm_shape& pass);

// The shape of the passes of a streamed split MSM whose chunks carry their buckets (msm_run.cuh,
// run_streamed_selected): every chunk's selected points (at most max_len, total_len in all over the
// plan's chunks) at one width, their bucket sums added into one set of buckets that is reduced
// once. Of the widths from the table's for max_len to the table's for total_len (a forced width:
// that one only) whose pass over max_len points fits plan's layout (msm_pass_fits) and whose bucket
// array (bucket_bytes a bucket) fits the sort pair a later chunk sums into (layout.pair_bytes), the
// cheapest by the cost model: total_len x W additions, a merge of every bucket per later chunk and
// one reduction (tuning.bucket_merge_madds, bucket_reduce_madds a bucket). window_bits 0 when none
// fits; bucket_capacity bounds the array too (a vector's state, msm_vector_layout). CUB's temp sizes
// are the caller's to check.
msm_shape make_msm_carried_pass(const msm_plan& plan, uint64_t bucket_bytes, uint64_t total_len, uint64_t max_len,
                                const msm_tuning& tuning = msm_tuning_sm90, uint64_t bucket_capacity = UINT64_MAX);

// The buckets in one area of running sums a reduction of shape s works in (T or S: one bucket per
// segment of every window). The workspace's layout, reductions_fit_together and msm_run.cuh's
// reduce_together size the areas with it, so the check and the layouts cannot drift apart.
[[nodiscard]] uint64_t running_sum_buckets(const msm_shape& s);

// Whether passes a and b reduce their buckets alike (windows, width, segments): reductions of both
// can share one launch a kernel (msm_run.cuh, reduce_vectors).
bool same_reduction(const msm_shape& a, const msm_shape& b);

// Whether `vectors` (2 to 65535) bucket reductions of shape `reduce` can run together on plan's
// workspace (msm_run.cuh, reduce_together): each vector's two areas of running sums (T and S of
// windows x segments buckets, bucket_bytes each) fit, one for every vector in the workspace's bucket
// array, one in the vector's own buckets (bucket_capacity bytes: the least of the vectors' states).
bool reductions_fit_together(const msm_plan& plan, const msm_shape& reduce, uint64_t vectors, uint64_t bucket_bytes,
                             uint64_t bucket_capacity);

// Entries each thread of a pass's accumulation (segmented_sum_kernel) folds, on a device that runs
// wave_threads of its threads at once (its SMs x resident blocks; 0: unknown). Every thread folds
// about the same number, so a last wave of a few blocks costs a good part of a wave while most SMs
// idle: a streamed split chunk's 410 blocks where an H100 holds 396 ran 0.77x as fast per entry as a
// pass of seven waves. tuning.accumulate_chunk, or, where the last wave is at most a quarter full,
// more (less than twice it) so that the threads fill the whole waves before it; a fuller last wave
// costs about its share (G1 2^26 random, 33.6 waves, ran 1.5% slower in 33), so it is kept
// (docs/perf/msm-h200.md, "Whole waves"). Never more threads than ceil(entries / accumulate_chunk),
// which the layout's carry slots (msm_shape::slots) are sized for.
uint32_t accumulate_chunk_for(uint64_t entries, uint64_t wave_threads, const msm_tuning& tuning = msm_tuning_sm90);

// Threads of a split MSM's scalar-1 sum (gather_sum_kernel) over at most n points, of which the
// device counts the scalar-1 ones and gives each thread an even share: whole waves of wave_threads
// (0: unknown) for about half of n (a witness's share of ones) at tuning.ones_chunk points a
// thread, at least one wave, never more than the layout's partial sums (msm_shape::ones_partials,
// ceil(n / ones_chunk)).
uint64_t ones_threads_for(uint64_t n, uint64_t wave_threads, const msm_tuning& tuning = msm_tuning_sm90);

// What one scalar vector of a streamed MSM over several vectors keeps between the chunks
// (msm_device.hpp, msm_streamed_vectors): for a packed vector one chunk of its scalars (scalar_bytes
// each; 0: none), the sum of its scalar-1 points, its result, then its buckets (the plan's array in
// `total`: a carried pass's array is at most that, msm_pass_fits; a split MSM may be given less,
// from `buckets` on), 256-aligned at these offsets.
struct msm_vector_layout {
  uint64_t scalars = 0, ones = 0, result = 0, buckets = 0, total = 0;
};
msm_vector_layout make_msm_vector_layout(const msm_plan& plan, uint64_t bucket_bytes, uint64_t scalar_bytes = 0);

// Lays out the workspace for a shape (sized for one chunk of n points), given the curve's bucket
// (XYZZ) size and CUB's temp sizes (the larger of the full and the last chunk's).
msm_plan make_msm_plan(const msm_shape& shape, uint64_t bucket_bytes, uint64_t sort_temp_bytes,
                       uint64_t select_temp_bytes);

}  // namespace pp::cuda
