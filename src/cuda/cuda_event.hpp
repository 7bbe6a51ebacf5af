// CUDA events for the engine's device memory (DESIGN.md §4): cuda_event wraps a cudaEvent_t (record,
// query, make another stream wait), and stream_completion calls back when the work enqueued on a
// stream so far has finished, without synchronizing the device. The engine wraps stream_completion
// in its completion_event interface (this layer sits below the engine and does not include it).
#pragma once
#include <cuda_runtime_api.h>

#include <functional>
#include <memory>
#include <vector>

#include "core/mutex.hpp"
#include "core/result.hpp"
#include "core/thread_annotations.hpp"

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
  // Blocks the calling host thread until the event has completed (tests and setup only).
  [[nodiscard]] status synchronize() const;
  // Milliseconds between two timing events that have completed.
  static result<float> elapsed_ms(const cuda_event& start, const cuda_event& stop);

  [[nodiscard]] cudaEvent_t get() const { return e_; }

 private:
  explicit cuda_event(cudaEvent_t e) : e_(e) {}
  cudaEvent_t e_ = nullptr;
};

// "The work enqueued on a stream before record() has finished", observed through a host function
// (cudaLaunchHostFunc) placed on the stream: no polling thread, no device synchronization.
// when_complete(fn) runs fn exactly once: at once on the caller's thread if the stream already got
// there, else on the CUDA runtime's callback thread. Callbacks must be short, must not block and
// must not call the CUDA API (CUDA forbids it there); releasing an arena reservation is the intent.
// If the stream faults before reaching the host function, CUDA does not run it: the callbacks never
// fire, and the engine must treat the device as failed (it never reuses that memory).
class stream_completion {
 public:
  static result<std::shared_ptr<stream_completion>> record(cudaStream_t stream);

  void when_complete(std::function<void()> fn) PP_EXCLUDES(mu_);
  [[nodiscard]] bool completed() const PP_EXCLUDES(mu_);

  stream_completion() = default;  // use record(); public for make_shared
  stream_completion(const stream_completion&) = delete;
  stream_completion& operator=(const stream_completion&) = delete;

 private:
  static void CUDART_CB on_host(void* self);
  void fire() PP_EXCLUDES(mu_);

  mutable mutex mu_;
  bool done_ PP_GUARDED_BY(mu_) = false;
  std::vector<std::function<void()>> callbacks_ PP_GUARDED_BY(mu_);
};

}  // namespace pp::cuda
