// evaluation_staging: the copies of an evaluation request's a, b, c (plain pageable memory handed
// over by the caller, src/c2) to the device through a lane's pinned staging, each value checked to be
// a reduced scalar on the way. The host fills one chunk (in parallel, checking as it copies) while
// the copy engine sends the chunk before, two chunks in turn: the check costs no pass of its own and
// the copy runs at the pinned rate. Used by run_evaluation_partition (partition_launch.hpp).
// Internal to the cuda layer.
#pragma once
#include <cuda_runtime_api.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/result.hpp"
#include "cuda/cuda_event.hpp"
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
  // stream the copies go to). Its two events are created here.
  static result<staged_copier> create(std::span<std::byte> pinned);

  // Queues h's values at d, then zeros up to `padded` values, on `stream`; returns once every value
  // has been read from h (the last chunks may still be in flight: later work on `stream` follows
  // them). invalid_argument "NAME[i] is not a reduced scalar ..." for the first value not below r
  // (the values queued before it stay queued: the caller drains the stream).
  status copy(ff::fr* d, std::span<const ff::fr> h, uint64_t padded, cudaStream_t stream, const char* name);

  [[nodiscard]] bool pinned() const { return chunk_values_ != 0; }

 private:
  std::array<std::span<ff::fr>, 2> chunks_;
  std::array<cuda_event, 2> sent_;  // sent_[i]: the copy out of chunks_[i] has completed
  std::array<bool, 2> queued_{false, false};
  uint64_t chunk_values_ = 0;
  unsigned next_ = 0;
};

// The first value of v not below r (not a reduced Montgomery value), or v.size(); in parallel.
uint64_t first_unreduced(std::span<const ff::fr> v);

}  // namespace pp::cuda
