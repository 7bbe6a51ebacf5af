// busy_meter: the busy fraction of one device: the share of wall time during which at least one of its
// workers was inside the device stage (pp_device_busy_fraction, docs/engine.md "Observability"). Workers call
// begin()/end() around their device work; the clock is injected so tests drive time by hand.
#pragma once
#include <cstdint>
#include <functional>

#include "core/mutex.hpp"
#include "core/thread_annotations.hpp"

namespace pp::engine {

class busy_meter {
 public:
  using clock_fn = std::function<int64_t()>;  // monotonic nanoseconds

  explicit busy_meter(clock_fn clock) : clock_(std::move(clock)), origin_(clock_()) {}

  void begin() PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    if (active_++ == 0) since_ = clock_();
  }
  void end() PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    if (active_ == 0) return;
    if (--active_ == 0) busy_ += clock_() - since_;
  }
  // Busy nanoseconds so far (an open interval counts up to now).
  [[nodiscard]] int64_t busy_ns() const PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    return busy_ + (active_ > 0 ? clock_() - since_ : 0);
  }
  // busy_ns / wall time since construction, in [0, 1]; 0 before any time has passed.
  [[nodiscard]] double fraction() const {
    const int64_t busy = busy_ns();
    const int64_t wall = clock_() - origin_;
    if (wall <= 0) return 0;
    const double f = static_cast<double>(busy) / static_cast<double>(wall);
    return f > 1 ? 1 : f;
  }

 private:
  const clock_fn clock_;
  const int64_t origin_;
  mutable mutex mu_;
  uint32_t active_ PP_GUARDED_BY(mu_) = 0;
  int64_t since_ PP_GUARDED_BY(mu_) = 0;
  int64_t busy_ PP_GUARDED_BY(mu_) = 0;
};

}  // namespace pp::engine
