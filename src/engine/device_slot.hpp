// device_slot: the engine's book-keeping for one device: its inbox (a priority job_queue), health,
// load (queued + running) for the scheduler, recently used keys (affinity), counters, the busy
// meter, how many partitions a worker takes together, and the failure-injection test hook.
// Thread-safe; the device itself is owned here.
#pragma once
#include <atomic>
#include <cstdint>
#include <deque>
#include <string>
#include <vector>

#include "core/mutex.hpp"
#include "core/thread_annotations.hpp"
#include "engine/busy_meter.hpp"
#include "engine/curves.hpp"
#include "devices/device.hpp"
#include "engine/job_queue.hpp"
#include "engine/scheduler_policy.hpp"

namespace pp::engine {

class device_slot {
 public:
  // partitions_together: what engine_config asks for; a worker takes at most as many as the device's
  // backends start together (groth16::basic_backend::partitions_together), so the inbox holds that
  // many per worker beyond queue_depth.
  device_slot(devices::device_ptr dev, uint32_t workers, size_t queue_depth, busy_meter::clock_fn clock,
              uint32_t partitions_together = 1);
  device_slot(const device_slot&) = delete;
  device_slot& operator=(const device_slot&) = delete;

  [[nodiscard]] devices::device& dev() { return *device_; }
  [[nodiscard]] const std::string& name() const { return name_; }
  [[nodiscard]] std::string kind() const { return std::string(device_->kind()); }
  [[nodiscard]] uint32_t workers() const { return workers_; }
  // The most partitions of one key a worker starts together on this device (1: one at a time).
  [[nodiscard]] uint32_t partitions_together() const { return together_; }
  [[nodiscard]] curve_mask curves() const { return curves_; }  // what the device proves
  [[nodiscard]] job_queue& inbox() { return inbox_; }
  [[nodiscard]] busy_meter& meter() { return meter_; }

  // The scheduler's view; `keys_out` backs the returned view's key span and must outlive it.
  [[nodiscard]] device_view view(std::vector<std::string>& keys_out) const PP_EXCLUDES(mu_);

  // The dispatcher placed a task here (load + 1) / a worker ended one (load - 1).
  void placed() PP_EXCLUDES(mu_);
  void started() PP_EXCLUDES(mu_);  // queued -> running
  void ended(bool ok, const std::string& key_id) PP_EXCLUDES(mu_);  // running -> done; ok: count it and note the key
  void unplaced() PP_EXCLUDES(mu_);  // a queued task left without running (cancelled or re-routed)

  [[nodiscard]] bool healthy() const PP_EXCLUDES(mu_);
  // Takes the device out of rotation; the first reason sticks.
  void mark_faulty(std::string reason) PP_EXCLUDES(mu_);
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
  [[nodiscard]] snapshot read() const PP_EXCLUDES(mu_);

  static constexpr size_t recent_keys_kept = 4;

 private:
  const devices::device_ptr device_;
  const std::string name_;
  const uint32_t workers_;
  const uint32_t together_;
  const curve_mask curves_;
  const size_t queue_depth_;
  job_queue inbox_;
  busy_meter meter_;
  std::atomic<uint32_t> injected_{0};
  mutable mutex mu_;
  bool healthy_ PP_GUARDED_BY(mu_) = true;
  std::string fault_ PP_GUARDED_BY(mu_);
  uint32_t queued_ PP_GUARDED_BY(mu_) = 0;
  uint32_t running_ PP_GUARDED_BY(mu_) = 0;
  uint64_t done_ PP_GUARDED_BY(mu_) = 0;
  uint64_t failures_ PP_GUARDED_BY(mu_) = 0;
  std::deque<std::string> recent_ PP_GUARDED_BY(mu_);  // newest first
};

}  // namespace pp::engine
