// lane_pool: which of a backend's lanes (or of a key's partition workspaces) are free. A worker
// takes one lane for a partition; a key eviction takes all of them (no partition may run while the
// device region is reset), and while it waits no new lane is handed out, so it cannot starve.
// Nobody waits for all lanes while holding one (lane_hold hands its lane back first), so two
// evictions cannot deadlock. Plain C++ (tested on the host).
#pragma once
#include <condition_variable>
#include <cstdint>
#include <vector>

#include "core/mutex.hpp"
#include "core/thread_annotations.hpp"

namespace pp::cuda {

class lane_pool {
 public:
  explicit lane_pool(uint32_t lanes) : lanes_(lanes), busy_(lanes, false) {}

  [[nodiscard]] uint32_t size() const { return lanes_; }

  // Blocks until a lane is free (and no exclusive holder waits or runs); returns its index.
  uint32_t acquire() PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    for (;;) {
      if (!exclusive_) {
        for (uint32_t i = 0; i < busy_.size(); ++i) {
          if (!busy_[i]) {
            busy_[i] = true;
            return i;
          }
        }
      }
      lock.wait(cv_);
    }
  }
  void release(uint32_t i) PP_EXCLUDES(mu_) {
    {
      mutex_lock lock(mu_);
      busy_[i] = false;
    }
    cv_.notify_all();
  }

  // Every lane at once: waits for the running ones to end, handing out none meanwhile. The caller
  // must hold no lane.
  void acquire_all() PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    lock.wait(cv_, [&]() PP_REQUIRES(mu_) { return !exclusive_; });
    exclusive_ = true;
    lock.wait(cv_, [&]() PP_REQUIRES(mu_) {
      for (bool b : busy_) {
        if (b) return false;
      }
      return true;
    });
  }
  void release_all() PP_EXCLUDES(mu_) {
    {
      mutex_lock lock(mu_);
      exclusive_ = false;
    }
    cv_.notify_all();
  }

 private:
  const uint32_t lanes_;
  mutex mu_;
  std::condition_variable cv_;
  std::vector<bool> busy_ PP_GUARDED_BY(mu_);  // one flag per lane; its size never changes
  bool exclusive_ PP_GUARDED_BY(mu_) = false;
};

// One lane of a pool, held from construction (acquire) to destruction (release), so every path out
// of a partition gives it back. A holder about to wait for every lane (a key eviction) hands its lane
// back first and takes one again after: not necessarily the same one.
class lane_hold {
 public:
  explicit lane_hold(lane_pool& pool) : pool_(pool), id_(pool.acquire()) {}
  ~lane_hold() {
    if (held_) pool_.release(id_);
  }
  lane_hold(const lane_hold&) = delete;
  lane_hold& operator=(const lane_hold&) = delete;

  [[nodiscard]] uint32_t id() const { return id_; }
  void hand_back() {
    pool_.release(id_);
    held_ = false;
  }
  void take_again() {
    id_ = pool_.acquire();
    held_ = true;
  }

 private:
  lane_pool& pool_;
  uint32_t id_;
  bool held_ = true;
};

}  // namespace pp::cuda
