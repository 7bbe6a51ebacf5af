// upload_key_staging: the pinned chunks through which a key's resident tables reach the device. A
// pageable cudaMemcpy moves ~7 GiB/s on the H200 host, pinned memory ~46 (docs/perf/vram-budgets.md):
// the host copies chunk i + 1 into one buffer on every core while the DMA engine moves chunk i out
// of another. The backend makes one at create() and its key uploads (serialized) share it.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <vector>

#include "core/result.hpp"
#include "cuda/cuda_event.hpp"

namespace pp::cuda {

// 4 x 32 MiB: a chunk leaves in ~0.7 ms at 46 GB/s, and four in flight keep the DMA engine busy
// while the host fills the next; 128 MiB pinned per backend.
inline constexpr uint64_t key_upload_chunk_bytes = uint64_t{32} << 20;
inline constexpr int key_upload_buffers = 4;

class upload_key_staging {
 public:
  // resource_exhausted when the pinned buffers cannot be had.
  static result<upload_key_staging> create(uint64_t chunk_bytes = key_upload_chunk_bytes,
                                           int buffers = key_upload_buffers);
  upload_key_staging() = default;
  ~upload_key_staging();
  upload_key_staging(upload_key_staging&& o) noexcept;
  upload_key_staging& operator=(upload_key_staging&& o) noexcept;
  upload_key_staging(const upload_key_staging&) = delete;
  upload_key_staging& operator=(const upload_key_staging&) = delete;

  // Enqueues the copy of [h, h + bytes) to d on stream, chunk by chunk through the buffers; returns
  // once the last chunk is enqueued (h may change then; d is written when the stream gets there).
  // A buffer is refilled only after its previous chunk has left (its event). One caller at a time.
  [[nodiscard]] status copy_to_device(void* d, const void* h, uint64_t bytes, cudaStream_t stream);

 private:
  void release();
  uint64_t chunk_bytes_ = 0;
  std::vector<void*> h_buffers_;
  std::vector<cuda_event> left_;  // recorded after each buffer's last chunk copy
  uint64_t next_ = 0;             // the buffer the next chunk goes through
};

}  // namespace pp::cuda
