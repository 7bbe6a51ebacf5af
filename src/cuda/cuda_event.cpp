// cuda_event and stream_completion (cuda_event.hpp).
#include "cuda/cuda_event.hpp"

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

result<std::shared_ptr<stream_completion>> stream_completion::record(cudaStream_t stream) {
  auto self = std::make_shared<stream_completion>();
  // The host function owns one reference until it runs.
  auto* ref = new std::shared_ptr<stream_completion>(self);
  const cudaError_t err = cudaLaunchHostFunc(stream, &stream_completion::on_host, ref);
  if (err != cudaSuccess) {
    delete ref;
    return cuda_status(err, "cudaLaunchHostFunc(stream, on_host, ref)", __FILE__, __LINE__);
  }
  return self;
}

void CUDART_CB stream_completion::on_host(void* p) {
  auto* ref = static_cast<std::shared_ptr<stream_completion>*>(p);
  (*ref)->fire();
  delete ref;
}

void stream_completion::fire() {
  std::vector<std::function<void()>> run;
  {
    mutex_lock lock(mu_);
    if (done_) return;
    done_ = true;
    run.swap(callbacks_);
  }
  for (auto& fn : run) fn();  // outside the lock: callbacks take the arena's lock
}

void stream_completion::when_complete(std::function<void()> fn) {
  {
    mutex_lock lock(mu_);
    if (!done_) {
      callbacks_.push_back(std::move(fn));
      return;
    }
  }
  fn();
}

bool stream_completion::completed() const {
  mutex_lock lock(mu_);
  return done_;
}

}  // namespace pp::cuda
