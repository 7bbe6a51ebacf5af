// cuda_event (cuda_event.hpp).
#include "cuda/runtime/cuda_event.hpp"

#include <utility>

#include "core/cuda_try.hpp"

namespace pp::cuda {

cuda_event::~cuda_event() {
  if (e_ != nullptr) cudaEventDestroy(e_);
}

cuda_event& cuda_event::operator=(cuda_event&& o) noexcept {
  if (this != &o) {
    if (e_ != nullptr) cudaEventDestroy(e_);
    e_ = std::exchange(o.e_, nullptr);
  }
  return *this;
}

result<cuda_event> cuda_event::create(bool timing) {
  cudaEvent_t e = nullptr;
  PP_CUDA_TRY(cudaEventCreateWithFlags(&e, timing ? cudaEventDefault : cudaEventDisableTiming));
  return cuda_event(e);
}

status cuda_event::record(cudaStream_t stream) {
  if (e_ == nullptr) return failed_precondition("cuda_event::record on an event that was not created");
  PP_CUDA_TRY(cudaEventRecord(e_, stream));
  return ok_status();
}

result<bool> cuda_event::query() const {
  if (e_ == nullptr) return failed_precondition("cuda_event::query on an event that was not created");
  const cudaError_t err = cudaEventQuery(e_);
  if (err == cudaSuccess) return true;
  if (err == cudaErrorNotReady) return false;
  return cuda_status(err, "cudaEventQuery(e_)", __FILE__, __LINE__);
}

status cuda_event::wait_on(cudaStream_t stream) const {
  if (e_ == nullptr) return failed_precondition("cuda_event::wait_on on an event that was not created");
  PP_CUDA_TRY(cudaStreamWaitEvent(stream, e_, 0));
  return ok_status();
}

status cuda_event::synchronize() const {
  if (e_ == nullptr) return failed_precondition("cuda_event::synchronize on an event that was not created");
  PP_CUDA_TRY(cudaEventSynchronize(e_));
  return ok_status();
}

result<float> cuda_event::elapsed_ms(const cuda_event& start, const cuda_event& stop) {
  float ms = 0;
  PP_CUDA_TRY(cudaEventElapsedTime(&ms, start.e_, stop.e_));
  return ms;
}

}  // namespace pp::cuda
