// completion_event: "the device work recorded before this point has finished". The device arena
// releases a reservation when its event fires, never by synchronizing the device (DESIGN.md §4).
// The CUDA backend wraps a cudaEvent (or a cudaLaunchHostFunc on the stream); tests use
// manual_event and fire it by hand.
#pragma once
#include <functional>
#include <vector>

#include "core/mutex.hpp"
#include "core/thread_annotations.hpp"

namespace pp::engine {

class completion_event {
 public:
  virtual ~completion_event() = default;
  // Calls fn exactly once when the work has finished: on the caller's thread right away if it
  // already has, otherwise on whatever thread observes completion. fn must be short and must not
  // block (it runs where a CUDA host callback would).
  virtual void when_complete(std::function<void()> fn) = 0;
};

// An event completed by calling complete(); thread-safe. For tests and for host-only work.
class manual_event final : public completion_event {
 public:
  void when_complete(std::function<void()> fn) override PP_EXCLUDES(mu_) {
    {
      mutex_lock lock(mu_);
      if (!done_) {
        callbacks_.push_back(std::move(fn));
        return;
      }
    }
    fn();
  }
  // Runs the waiting callbacks outside the lock (they take the arena's lock); later calls do nothing.
  void complete() PP_EXCLUDES(mu_) {
    std::vector<std::function<void()>> run;
    {
      mutex_lock lock(mu_);
      if (done_) return;
      done_ = true;
      run.swap(callbacks_);
    }
    for (auto& fn : run) fn();
  }
  [[nodiscard]] bool completed() const PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    return done_;
  }

 private:
  mutable mutex mu_;
  bool done_ PP_GUARDED_BY(mu_) = false;
  std::vector<std::function<void()>> callbacks_ PP_GUARDED_BY(mu_);
};

}  // namespace pp::engine
