// Tuning table of the GPU MSM (msm_kernels.cuh): Pippenger window width by input size, and the
// per-thread work of each kernel. Plain C++; msm_plan.cpp turns these into sizes and a workspace
// layout. Measurements behind the values: docs/perf/msm-h200.md.
#pragma once
#include <cstdint>

namespace pp::cuda {

struct msm_tuning {
  // Sorted (bucket, point) entries one thread folds into XYZZ sums (mixed additions), or a little
  // more where that fills whole waves (accumulate_chunk_for, msm_plan.hpp). Every thread does the
  // same number of additions whatever the bucket sizes; runs cut by a chunk border go to a carry
  // list reduced in further passes of carry_chunk entries (full additions).
  uint32_t accumulate_chunk;
  uint32_t carry_chunk;
  // log2 of the buckets one thread reduces by running sums before the pairwise combine tree.
  int reduce_segment_log;
  // Points whose scalar is 1 that one thread sums before the pairwise tree (split MSM), counting
  // half the points as ones: the threads come in whole waves (ones_threads_for, msm_plan.hpp) and
  // share the ones the device counts.
  uint32_t ones_chunk;
  int block_threads;
  // Most points one Pippenger pass takes; longer MSMs run as consecutive chunks of this many points
  // on one workspace (sized for one chunk): the plain MSM's chunks merge their buckets and reduce
  // them once, the split MSM's chunk sums are added on the device. Over Fp (G1) and Fp2 (G2).
  // Values and measurements at msm_tuning_sm90.
  uint64_t max_chunk_points_g1;
  uint64_t max_chunk_points_g2;
  // The split MSM of at most this many chunks selects over all its points first (index lists of
  // 8 bytes a point in its workspace) and runs Pippenger on the selected ones only; with more chunks
  // (small chunks under a tight VRAM budget) each chunk selects its own and the workspace stays one
  // chunk's. H200, 2^27 witness split (2026-12-01): 204.0 -> 128.3 ms (G1, 4 chunks of 2^25).
  uint64_t split_select_all_max_chunks;
  // The cost model's price, in mixed additions, of one bucket in a later chunk's bucket merge (a
  // full addition) and in the reduction (running sums and the combine tree, msm_window_table's
  // note): what a streamed split MSM's carried width trades against its points' additions
  // (make_msm_carried_pass).
  double bucket_merge_madds;
  double bucket_reduce_madds;
};

// Hopper (sm_90, H200).
inline constexpr msm_tuning msm_tuning_sm90{
    .accumulate_chunk = 256,
    .carry_chunk = 16,
    .reduce_segment_log = 6,
    .ones_chunk = 64,
    .block_threads = 128,
    // A chunk's workspace is ~16 B x W per point (sort keys and values, double-buffered), its
    // buckets W x 2^(c-1) XYZZ and the carry slots 3 x 2 x W / 256 XYZZ per point. The figures
    // below were measured with a bucket reduction per chunk (~16 ms for G1, ~54 ms for G2 at c = 20
    // on the H200), which the plain MSM now pays once (docs/perf/msm-h200.md, "Chunked MSMs").
    // H200 (2026-11-29), G1 2^26, chunk 2^24 / 2^25 / 2^26: random 477.3 / 449.1 / 432.3 ms,
    // witness split 133.6 / 102.1 / 86.5 ms, workspace 5.5 / 9.7 / 18.1 GiB; G1 2^27 at 2^25:
    // 898.7 / 204.0 ms. G2 2^25, chunk 2^24 / 2^25: random 797.1 / 743.3 ms, witness split
    // 206.2 / 151.8 ms, workspace 8.9 / 15.3 GiB. Kept 2^25 (G1) and 2^24 (G2): both under
    // ~10 GiB (the split G1 one, 10.1 GiB, sets the prover's shared MSM workspace), +4% over one
    // pass on G1 random scalars. The table's widths from 2^20 on (c >= 16, W <= 16) keep
    // W x 2^25 <= 2^29 < 2^31; a forced narrow width shortens the chunks (msm_plan.cpp).
    .max_chunk_points_g1 = uint64_t{1} << 25,
    .max_chunk_points_g2 = uint64_t{1} << 24,
    .split_select_all_max_chunks = 4,
    .bucket_merge_madds = 1.4,
    .bucket_reduce_madds = 2.8,
};

// Window width c (signed digits: 2^(c-1) buckets per window, ceil(256 / c) windows) by
// ceil(log2 n). Cost model N*ceil(256/c) madds + 2.8*ceil(256/c)*2^(c-1) madd-equivalents for the
// bucket reduction (workload notes §8a). H200 sweep, G1 2^24 random scalars (2026-11-29):
// c = 16/18/19/20/21/22 -> 133.7/128.8/124.9/119.3/127.9/134.8 ms; G2 2^24: 16/18/20 ->
// 443.1/425.9/422.3 ms; G1 2^26: 20/22 -> 432.8/428.6 ms (kept 20: 2.2 GiB less workspace).
// Entries below 2^20 come from the model only (docs/perf/msm-h200.md).
inline constexpr int msm_window_table[] = {
    2, 2, 2, 3, 3, 4, 4, 5, 5, 6,        // log n 0..9
    7, 8, 8, 9, 10, 11, 12, 13, 14, 15,  // 10..19
    16, 16, 18, 19, 20, 20, 20, 20, 21,  // 20..28
};
// Widest c a caller may force; the table stops at 21. Wider windows pay off only over precomputed
// bases, whose buckets are one group's windows (make_msm_precomputation's model).
inline constexpr int msm_max_window_bits = 24;

// Points one thread of precompute_msm_bases doubles and turns affine with one inversion (safegcd,
// 67 products on the H200): each costs 1/16 of it, beside its 2M + 5S doublings (m c of them a copy).
// H200 (2026-12-02), 2 copies of H's 2^27 points (92 doublings each): XYZZ doublings and 8-point
// batches 9.27 s, Jacobian and 16 points 7.23 s, 6.91 s with safegcd instead of a Fermat inversion;
// G1 2^24 x 12 copies 2.17 -> 1.52 -> 1.26 s, G2 3.40 -> 3.16 s (docs/perf/msm-h200.md, "Precomputed bases").
inline constexpr int msm_precompute_batch = 16;

constexpr int msm_window_bits(uint64_t n) {
  int log_n = 0;
  while (log_n < 63 && (uint64_t{1} << log_n) < n) ++log_n;
  constexpr int last = sizeof(msm_window_table) / sizeof(msm_window_table[0]) - 1;
  return msm_window_table[log_n < last ? log_n : last];
}

}  // namespace pp::cuda
