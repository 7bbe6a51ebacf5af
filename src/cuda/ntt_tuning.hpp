// Tuning table of the GPU NTT (ntt_kernels.cuh): tile and pass shapes per architecture. Plain C++;
// ntt_plan.cpp turns these into a pass list. Measurements behind the values: docs/perf/ntt-h200.md.
#pragma once

namespace pp::cuda {

struct ntt_tuning {
  // log2 of the elements one block transforms per pass (its shared-memory tile, 32 B each).
  // 2^11 = 64 KiB, 256 threads, two blocks per SM. H200, forward nr: 2^27 44.3 ms at 11 against
  // 46.5 at 10 and 47.1 at 12; 2^24 4.93 / 5.16 / 5.23 ms (docs/perf/ntt-h200.md, 2026-11-29).
  int tile_log;
  // Passes that gather strided rows (all but the contiguous last one) read at least 2^this
  // consecutive elements per row: 4 x 32 B = 128 B, one full cache line.
  int min_columns_log;
};

// Hopper (sm_90, H200). Elements per thread (8 = 2^3, one radix-8 register round per 3 stages) is
// fixed by the kernel, not tuned here.
inline constexpr ntt_tuning ntt_tuning_sm90{.tile_log = 11, .min_columns_log = 2};

inline constexpr int ntt_thread_elements_log = 3;  // 8 Fr per thread: 64 registers of data
inline constexpr int ntt_max_tile_log = 12;        // 128 KiB of shared memory per block, 512 threads

}  // namespace pp::cuda
