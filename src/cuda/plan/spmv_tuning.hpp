// Tuning of the GPU SpMV and witness expansion (spmv_kernels.cuh). Plain C++.
// Measurements behind the values: docs/perf/spmv-h200.md.
#pragma once
#include <cstdint>

namespace pp::cuda {

struct spmv_tuning {
  // Threads per block of the row kernel (one thread per row, three matrices along grid.y).
  // H200, synthetic PoRep-like, median of 7: 2^24 rows 2.97 / 3.15 / 3.27 ms and 2^20 rows
  // 0.156 / 0.170 / 0.178 ms at 128 / 256 / 512 (docs/perf/spmv-h200.md, 2026-11-29).
  int block_threads;
  int expand_block_threads;  // witness expansion: one thread per variable / per listed value
  // Row chunks of the streamed matrices (a device too small to keep them, cuda/plan/key_layout.hpp): ~18
  // chunks for PoRep's 4.5 GiB at 2^27, each copy long enough that launch gaps do not matter, and
  // the two slots a small part of a 16 GiB budget.
  uint64_t stream_chunk_bytes;
  // Wider row chunks a streaming plan takes where its lane holds their two slots anyway (plan_key):
  // half as many copies and SpMV launches. At 2^27 under 16 GiB, 512 MiB rows took the transforms
  // from 283.5 to 268.2 ms a partition, but as the only chunking they would raise the least budget
  // from 14.99 to 15.49 GiB (docs/perf/vram-budgets.md, "The k vectors' bucket reductions in one launch").
  uint64_t wide_stream_chunk_bytes;
};

inline constexpr spmv_tuning spmv_tuning_sm90{
    .block_threads = 128, .expand_block_threads = 256, .stream_chunk_bytes = uint64_t{256} << 20,
    .wide_stream_chunk_bytes = uint64_t{512} << 20};

}  // namespace pp::cuda
