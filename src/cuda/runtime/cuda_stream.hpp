// cuda_stream: a cudaStream_t owned by value, beside cuda_event (cuda_event.hpp). The backend's lanes
// (a copy and a compute stream each), the kernels' warm-up and the fixed-base slots own theirs this
// way, so every path out of a constructor or a failed setup destroys what was created. It converts
// to cudaStream_t wherever a call takes one (sppark's stream_t does the same).
#pragma once
#include <cuda_runtime_api.h>

#include "core/result.hpp"

namespace pp::cuda {

// Move-only. Destroying it does not wait: work queued on it completes first (cudaStreamDestroy), so
// whoever frees memory that work uses synchronizes before.
class cuda_stream {
 public:
  cuda_stream() = default;  // no stream: converts to nullptr (the legacy default stream)
  ~cuda_stream();
  cuda_stream(cuda_stream&& o) noexcept : s_(o.s_) { o.s_ = nullptr; }
  cuda_stream& operator=(cuda_stream&& o) noexcept;
  cuda_stream(const cuda_stream&) = delete;
  cuda_stream& operator=(const cuda_stream&) = delete;

  // A stream on the current device that does not synchronize with the legacy default stream
  // (cudaStreamNonBlocking); priority: as cudaStreamCreateWithPriority (0 is the default, lower
  // numbers run first).
  static result<cuda_stream> create(int priority = 0);

  [[nodiscard]] cudaStream_t get() const { return s_; }
  operator cudaStream_t() const { return s_; }  // NOLINT(google-explicit-constructor): used as the handle

 private:
  explicit cuda_stream(cudaStream_t s) : s_(s) {}
  cudaStream_t s_ = nullptr;
};

}  // namespace pp::cuda
