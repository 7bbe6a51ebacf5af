// device_health: whether a backend's GPU is still usable. A failed CUDA call (status internal) may
// leave the device's state broken for everything the backend queued, so the first such failure marks
// it unhealthy: the backend refuses later work (unavailable, naming that error) and the engine takes
// the device out of rotation. Failures of the request itself (invalid_argument, failed_precondition)
// leave it healthy. Plain C++.
#pragma once
#include <string>

#include "core/mutex.hpp"
#include "core/status.hpp"
#include "core/thread_annotations.hpp"

namespace pp::cuda {

class device_health {
 public:
  // Returns st; an internal st marks the device unhealthy and becomes last_error().
  status note(status st) PP_EXCLUDES(mu_) {
    if (!st.ok() && st.code() == status_code::internal) {
      mutex_lock lock(mu_);
      healthy_ = false;
      last_error_ = st.message();
    }
    return st;
  }
  [[nodiscard]] bool healthy() const PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    return healthy_;
  }
  [[nodiscard]] std::string last_error() const PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    return last_error_;
  }

 private:
  mutable mutex mu_;
  bool healthy_ PP_GUARDED_BY(mu_) = true;
  std::string last_error_ PP_GUARDED_BY(mu_);
};

}  // namespace pp::cuda
