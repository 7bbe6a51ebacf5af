// Tuning table of the GPU NTT (ntt_kernels.cuh): tile and pass shapes per architecture. Plain C++;
// ntt_plan.cpp turns these into a pass list. Measurements behind the values: docs/perf/ntt-h200.md.
#pragma once
#include <cstdint>

namespace pp::cuda {

struct ntt_tuning {
  // log2 of the elements one block transforms per pass (its shared-memory tile, 32 B each).
  // With 8 Fr per thread (2^11 = 64 KiB, 256 threads, two blocks per SM), H200 forward nr: 2^27
  // 44.3 ms at 11 against 46.5 at 10 and 47.1 at 12 (docs/perf/ntt-h200.md, 2026-11-29).
  int tile_log;
  // Passes that gather strided rows (all but the contiguous last one) read at least 2^this
  // consecutive elements per row (2 = 4 x 32 B = 128 B, one full cache line).
  int min_columns_log;
  // log2 of the Fr one thread holds, 3 or 2 (ntt_kernel_shape): its rounds run that many stages.
  int elements_log = 3;
  // Registers per thread the pass kernel is compiled for: 0 for the shape's default (T = 3: 128,
  // T = 2: 80), or 64 (T = 2 only: 8 blocks of 128 threads = 32 warps per SM, tiles up to 2^9).
  int max_registers = 0;
  // A stage loads its twiddles before its butterflies (all in flight together), else each just
  // before its butterfly (one Fr fewer live for T = 2). Only the 64-register kernel has the latter.
  bool twiddles_ahead = true;
};

// Hopper (sm_90, H200): four Fr per thread on 2^9 tiles (128 threads; uncapped, 78 registers give 6
// blocks = 24 warps per SM, the radix-8 kernel at 128 registers gets 16). 2^27 forward nr: 39.1 ms against 43.2
// for 8 Fr per thread on 2^11 tiles, in spite of a fourth pass (6+6+6+9); 2^24: 4.38 against 4.86.
// Rows of 2 (min_columns_log 1) and 4 gave the same at 2^27; 2 is 1% faster at 2^24 (3 passes, not 4).
// Capped at 64 registers (8 blocks = 32 warps per SM), each twiddle loaded just before its butterfly
// (60-72 bytes of spills): 2^27 forward nn out of place 38.56 ms against 39.22 at 78 registers (24
// warps) and 40.40 at 64 with twiddles ahead (112-148 bytes of spills), one call; 2^24 4.31 / 4.39 /
// 4.51 (docs/perf/ntt-h200.md, 2026-12-01).
inline constexpr ntt_tuning ntt_tuning_sm90{
    .tile_log = 9, .min_columns_log = 1, .elements_log = 2, .max_registers = 64, .twiddles_ahead = false};

// The pass kernel's shape by elements per thread 2^T and register cap R (0: the default): its
// __launch_bounds__ and largest tile.
// T = 3: 8 Fr (64 registers of data), up to 2^12 elements (128 KiB of shared memory, 512 threads).
// T = 2: 4 Fr, up to 2^10 elements (256 threads), at most 80 registers so that 3 blocks share an SM.
// T = 2, R = 64: up to 2^9 elements (128 threads), 8 blocks (32 warps) per SM.
template <int T, int R = 0>
struct ntt_kernel_shape;
template <>
struct ntt_kernel_shape<3> {
  static constexpr int max_tile_log = 12, max_threads = 512, min_blocks = 1;
};
template <>
struct ntt_kernel_shape<2> {
  static constexpr int max_tile_log = 10, max_threads = 256, min_blocks = 3;
};
template <>
struct ntt_kernel_shape<2, 64> {
  static constexpr int max_tile_log = 9, max_threads = 128, min_blocks = 8;
};
constexpr int ntt_max_tile_log(int elements_log, int max_registers = 0) {
  if (elements_log == 2) {
    return max_registers == 64 ? ntt_kernel_shape<2, 64>::max_tile_log : ntt_kernel_shape<2>::max_tile_log;
  }
  return ntt_kernel_shape<3>::max_tile_log;
}

// Dynamic shared memory of one pass block: its tile of 2^tile_log Fr, 32 bytes each.
constexpr uint64_t ntt_tile_bytes(int tile_log) { return uint64_t{32} << tile_log; }
// The most any pass kernel asks for (the 8-per-thread kernel's 2^12 tile, 128 KiB). Devices allow
// less per block on opt-in: 227 KiB on sm_90, 163 KiB on sm_80, 99 KiB on sm_86, sm_89 and sm_120
// (cudaDevAttrMaxSharedMemoryPerBlockOptin), so plans are made against the device's figure.
inline constexpr uint64_t ntt_max_tile_bytes = ntt_tile_bytes(ntt_kernel_shape<3>::max_tile_log);

}  // namespace pp::cuda
