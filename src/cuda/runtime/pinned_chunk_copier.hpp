// pinned_chunk_copier: host bytes to a device pointer through pinned chunks on one stream. A pageable
// cudaMemcpy moves ~7 GiB/s on the H200 host, pinned memory ~46 (docs/perf/vram-budgets.md): the
// host fills one chunk (the caller's fill: a memcpy on every core, or a copy that checks each value)
// while the DMA engine sends the chunk before out of another; a chunk is refilled once its last copy
// has completed (its event: nothing waits for a stream or the device). Its users: the key uploads
// (cuda_backend, 4 x 32 MiB of its own) and the evaluations' a, b, c (evaluation_staging, two chunks
// inside a lane's staging).
#pragma once
#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <vector>

#include "core/result.hpp"
#include "cuda/runtime/cuda_event.hpp"
#include "cuda/runtime/pinned_chunk_plan.hpp"

namespace pp::cuda {

class pinned_chunk_copier {
 public:
  // Fills `chunk` with the source's bytes [offset, offset + chunk.size()), checking them where the
  // caller checks: a status other than ok stops the copy there, that chunk not sent.
  using fill_fn = std::function<status(std::span<std::byte> chunk, uint64_t offset)>;

  // `chunks` chunks of chunk_bytes in pinned memory of its own (cudaHostAlloc), freed once the copies
  // out of it have completed. invalid_argument for fewer than two chunks or empty ones;
  // resource_exhausted when the pinned memory cannot be had.
  static result<pinned_chunk_copier> allocate(uint64_t chunk_bytes, uint32_t chunks);
  // The chunks of plan inside pinned memory the caller lends: it must outlive the copier, and nothing
  // else may write it while copies queued here are in flight (the copier's destruction waits for
  // them). invalid_argument unless plan is usable and fits in `pinned`.
  static result<pinned_chunk_copier> inside(std::span<std::byte> pinned, const pinned_chunk_plan& plan);

  pinned_chunk_copier() = default;  // no chunks: copy() is failed_precondition
  ~pinned_chunk_copier();
  pinned_chunk_copier(pinned_chunk_copier&& o) noexcept;
  pinned_chunk_copier& operator=(pinned_chunk_copier&& o) noexcept;
  pinned_chunk_copier(const pinned_chunk_copier&) = delete;
  pinned_chunk_copier& operator=(const pinned_chunk_copier&) = delete;

  // Queues the copy of `bytes` source bytes to d on stream, chunk by chunk in turn: waits for the
  // chunk's last copy to complete, fill()s it, queues its copy. Returns once the last chunk is queued
  // (the source may change then; d is written when the stream gets there), or with fill's first
  // failure (the chunks queued before it stay queued: later work on stream follows them). One
  // caller at a time.
  [[nodiscard]] status copy(void* d, uint64_t bytes, cudaStream_t stream, const fill_fn& fill);
  // copy() of [h, h + bytes), each chunk filled by a memcpy on every core.
  [[nodiscard]] status copy_to_device(void* d, const void* h, uint64_t bytes, cudaStream_t stream);

  [[nodiscard]] uint32_t chunks() const { return static_cast<uint32_t>(sent_.size()); }

 private:
  struct free_pinned {
    void operator()(std::byte* p) const;
  };
  static result<pinned_chunk_copier> over(std::byte* base, uint64_t chunk_bytes, uint32_t chunks);
  void wait_sent() const;

  std::unique_ptr<std::byte, free_pinned> owned_;  // the chunks' memory when allocate() took it
  std::byte* base_ = nullptr;                      // the first chunk; chunk i at base_ + i * chunk_bytes_
  uint64_t chunk_bytes_ = 0;
  std::vector<cuda_event> sent_;  // sent_[i]: recorded after the last copy out of chunk i
  uint64_t next_ = 0;             // the chunk the next fill goes into
};

}  // namespace pp::cuda
