// Plan of one GPU MSM: window width, kernel grid sizes and the workspace layout (byte offsets into
// the caller's device buffer). Plain C++: the CUB temp-storage sizes are queried by the .cu side
// (msm_run.cuh) and passed in.
#pragma once
#include <cstdint>

#include "core/result.hpp"
#include "cuda/msm_tuning.hpp"

namespace pp::cuda {

// Counts that depend only on n, c and the tuning (no CUB sizes).
struct msm_shape {
  uint64_t n = 0;
  bool split = false;
  int window_bits = 0;                // c
  int windows = 0;                    // W = ceil(256 / c)
  uint32_t buckets_per_window = 0;    // B = 2^(c-1)
  uint64_t entries = 0;               // M = W * n sorted (bucket, point) pairs
  int key_bits = 0;                   // bits of a key: bucket id w*B + b, or the sentinel W*B
  uint64_t accumulate_threads = 0;    // ceil(M / accumulate_chunk)
  uint64_t slots = 0;                 // carry slots: 2 per accumulate thread
  uint32_t segment_len = 0;           // buckets per reduction thread (power of two, <= B)
  uint32_t segments_per_window = 0;   // B / segment_len
  uint64_t ones_partials = 0;         // split: ceil(n / ones_chunk)
};

// Byte offsets (256-aligned) of every array in the workspace.
struct msm_layout {
  uint64_t keys, keys_alt, vals, vals_alt, sort_temp;
  uint64_t buckets;
  uint64_t slot_keys, slot_flags, slot_vals;
  uint64_t carry_keys[2], carry_vals[2];
  uint64_t counts;  // 4 x uint32: carry counts [0], [1]; split: ones [2], others [3]
  uint64_t select_temp;
  uint64_t seg_t[2], seg_s[2];
  uint64_t result;
  uint64_t idx_ones, idx_others, ones_partials[2];  // split only
  uint64_t total;
};

struct msm_plan {
  msm_shape shape;
  msm_layout layout;
  uint64_t sort_temp_bytes = 0;
  uint64_t select_temp_bytes = 0;
};

// window_bits = 0 takes the tuning table's width for n. Fails on n >= 2^31, c outside
// [1, msm_max_window_bits] or W * n >= 2^31.
result<msm_shape> make_msm_shape(uint64_t n, int window_bits, bool split, const msm_tuning& tuning = msm_tuning_sm90);

// Lays out the workspace for a shape, given the curve's bucket (XYZZ) size and CUB's temp sizes.
msm_plan make_msm_plan(const msm_shape& shape, uint64_t bucket_bytes, uint64_t sort_temp_bytes,
                       uint64_t select_temp_bytes);

}  // namespace pp::cuda
