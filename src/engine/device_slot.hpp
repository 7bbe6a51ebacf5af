// device_slot: the engine's book-keeping for one device: its inbox (a priority job_queue), health,
// load (queued + running) for the scheduler, recently used keys (affinity), counters, the busy
// meter, and the failure-injection test hook. Thread-safe; the device itself is owned here.
#pragma once
#include <atomic>
#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "engine/busy_meter.hpp"
#include "engine/device.hpp"
#include "engine/job_queue.hpp"
#include "engine/scheduler_policy.hpp"

namespace pp::engine {

class device_slot {
 public:
  device_slot(device_ptr dev, uint32_t workers, size_t queue_depth, busy_meter::clock_fn clock);
  device_slot(const device_slot&) = delete;
  device_slot& operator=(const device_slot&) = delete;

  [[nodiscard]] device& dev() { return *device_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] std::string kind() const { return std::string(device_->kind()); }
  [[nodiscard]] uint32_t workers() const { return workers_; }
  [[nodiscard]] job_queue& inbox() { return inbox_; }
  [[nodiscard]] busy_meter& meter() { return meter_; }

  // The scheduler's view; `keys_out` backs the returned view's key span and must outlive it.
  [[nodiscard]] device_view view(std::vector<std::string>& keys_out) const;

  // The dispatcher placed a task here (load + 1) / a worker ended one (load - 1).
  void placed();
  void started();  // queued -> running
  void ended(bool ok, const std::string& key_id);  // running -> done; ok: count it and note the key
  void unplaced();  // a queued task left without running (cancelled or re-routed)

  [[nodiscard]] bool healthy() const;
  // Takes the device out of rotation; the first reason sticks.
  void mark_faulty(std::string reason);
  // Consumes one injected failure if any is pending.
  bool take_injected_failure();
  void inject_failures(uint32_t n) { injected_.fetch_add(n); }

  struct snapshot {
    bool healthy = true;
    std::string fault;
    uint32_t running = 0, queued = 0;
    uint64_t done = 0, failures = 0;
    std::vector<std::string> recent_keys;
  };
  [[nodiscard]] snapshot read() const;

  static constexpr size_t recent_keys_kept = 4;

 private:
  const device_ptr device_;
  const std::string name_;
  const uint32_t workers_;
  const size_t queue_depth_;
  job_queue inbox_;
  busy_meter meter_;
  std::atomic<uint32_t> injected_{0};
  mutable std::mutex mu_;
  bool healthy_ = true;
  std::string fault_;
  uint32_t queued_ = 0, running_ = 0;
  uint64_t done_ = 0, failures_ = 0;
  std::deque<std::string> recent_;  // newest first
};

}  // namespace pp::engine
