// cuda_event: a cudaEvent_t owned by value (record, query, make another stream wait, time). The CUDA
// backend orders its lanes' copy and compute streams and times their steps with these; nothing
// waits for a whole stream or the device after setup.
#pragma once
#include <cuda_runtime_api.h>


#include "core/result.hpp"

namespace pp::cuda {

// A cudaEvent_t owned by value (move-only). Created once at setup; recorded any number of times.
class cuda_event {
 public:
  cuda_event() = default;
  ~cuda_event();
  cuda_event(cuda_event&& o) noexcept : e_(o.e_) { o.e_ = nullptr; }
  cuda_event& operator=(cuda_event&& o) noexcept;
  cuda_event(const cuda_event&) = delete;
  cuda_event& operator=(const cuda_event&) = delete;

  // timing = false creates it with cudaEventDisableTiming (cheaper record and query).
  static result<cuda_event> create(bool timing = false);

  [[nodiscard]] status record(cudaStream_t stream);
  // true when the work captured by the last record() has completed (or nothing was recorded).
  [[nodiscard]] result<bool> query() const;
  // Later work on `stream` waits for this event (device-side; the host does not block).
  [[nodiscard]] status wait_on(cudaStream_t stream) const;
  // Blocks the calling host thread until the event has completed (a lane waits for its last event
  // this way: no stream or device synchronization).
  [[nodiscard]] status synchronize() const;
  // Milliseconds between two timing events that have completed.
  static result<float> elapsed_ms(const cuda_event& start, const cuda_event& stop);

  [[nodiscard]] cudaEvent_t get() const { return e_; }

 private:
  explicit cuda_event(cudaEvent_t e) : e_(e) {}
  cudaEvent_t e_ = nullptr;
};

}  // namespace pp::cuda
