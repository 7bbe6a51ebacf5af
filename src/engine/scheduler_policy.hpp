// scheduler_policy: which ready partition task runs next, and on which device. A pure function of
// what the scheduler sees, so every rule is tested without threads or devices:
//   1. priority first (CRITICAL > HIGH > NORMAL > LOW), FIFO (seq) within a priority;
//   2. then a device that already holds the task's key (a PoRep key is ~45 GiB to move);
//   3. then the least loaded device, then the lowest index.
// Unhealthy devices are never chosen. A device is full at max_load, except for CRITICAL tasks: they
// go at the next decision point even when NORMAL work fills every queue.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "engine/job.hpp"

namespace pp::engine {

struct task_view {
  priority prio = priority::normal;
  uint64_t seq = 0;  // submission order
  std::string_view key_id;
};

struct device_view {
  bool healthy = true;
  uint32_t load = 0;      // tasks queued or running on it
  uint32_t max_load = 1;  // its queue depth
  std::span<const std::string> keys;  // keys resident on it
  [[nodiscard]] bool holds(std::string_view key) const;
};

struct placement {
  size_t task = 0;    // index into the tasks given
  size_t device = 0;  // index into the devices given
  friend bool operator==(const placement&, const placement&) = default;
};

// nullopt: nothing can be placed now (no tasks, no healthy device, or all full for this priority).
[[nodiscard]] std::optional<placement> choose_placement(std::span<const task_view> tasks,
                                                        std::span<const device_view> devices);

}  // namespace pp::engine
