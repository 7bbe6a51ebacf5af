// evaluation_staging: the copies of an evaluation request's a, b, c (plain pageable memory handed
// over by the caller, src/c2) to the device through a lane's pinned staging, each value checked to be
// a reduced scalar on the way. Two chunks of a pinned_chunk_copier inside the staging: the host fills
// one (in parallel, checking as it copies: groth16::first_unreduced) while the copy engine sends the
// other, so the check costs no pass of its own and the copy runs at the pinned rate. Used by
// run_evaluation_partition (partition_launch.hpp). Internal to the cuda layer.
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <span>

#include "core/result.hpp"
#include "cuda/runtime/pinned_chunk_copier.hpp"
#include "ff/fr.hpp"

namespace pp::cuda {

class staged_copier {
 public:
  // Least bytes of each of the two chunks; a smaller staging span copies from the caller's memory
  // directly (checked first, in one parallel pass).
  static constexpr uint64_t min_chunk_bytes = uint64_t{1} << 20;
  // Most bytes of each chunk: small enough that the first chunk's fill, which nothing overlaps, is
  // short (16 MiB at ~10 GB/s: ~2 ms), large enough that the per-chunk event wait is negligible.
  static constexpr uint64_t max_chunk_bytes = uint64_t{16} << 20;

  // pinned: the free part of the lane's pinned staging (not touched by copies already queued on the
  // stream the copies go to, nor by anything else while the copier lives).
  static result<staged_copier> create(std::span<std::byte> pinned);

  // Queues h's values at d, then zeros up to `padded` values, on `stream`; returns once every value
  // has been read from h (the last chunks may still be in flight: later work on `stream` follows
  // them). invalid_argument "NAME[i] is not a reduced scalar ..." for the first value not below r
  // (the values queued before it stay queued: the caller drains the stream).
  status copy(ff::fr* d, std::span<const ff::fr> h, uint64_t padded, cudaStream_t stream, const char* name);

  [[nodiscard]] bool pinned() const { return chunks_.chunks() != 0; }

 private:
  pinned_chunk_copier chunks_;  // none when the staging is too small to stage
};

}  // namespace pp::cuda
