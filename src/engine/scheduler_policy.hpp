// scheduler_policy: which ready partition task runs next, and on which device. A pure function of
// what the scheduler sees, so every rule is tested without threads or devices:
//   1. priority first (CRITICAL > HIGH > NORMAL > LOW), FIFO (seq) within a priority;
//   2. then a device that already holds the task's key (a PoRep key is ~45 GiB to move);
//   3. then the least loaded device, then the lowest index.
// Unhealthy devices, and devices that do not prove the task's curve, are never chosen. A device is
// full at max_load, except for CRITICAL tasks: they go at the next decision point even when NORMAL
// work fills every queue.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ec/curve_id.hpp"
#include "engine/curves.hpp"
#include "engine/job.hpp"

namespace pp::engine {

struct task_view {
  priority prio = priority::normal;
  uint64_t seq = 0;  // submission order
  std::string_view key_id;
  ec::curve_id curve = ec::curve_id::bls12_381;  // its key's
};

struct device_view {
  bool healthy = true;
  uint32_t load = 0;      // tasks queued or running on it
  uint32_t max_load = 1;  // its queue depth
  std::span<const std::string> keys;  // keys resident on it
  curve_mask curves = curve_bit(ec::curve_id::bls12_381);  // the curves it proves
  [[nodiscard]] bool holds(std::string_view key) const;
};

struct placement {
  size_t task = 0;    // index into the tasks given
  size_t device = 0;  // index into the devices given
  friend bool operator==(const placement&, const placement&) = default;
};

// nullopt: nothing can be placed now (no tasks, no healthy device, or all full for this priority).
// Tasks are taken best first; a task that cannot be placed keeps every device of its curve from the
// tasks after it (so none overtakes it there), and leaves the devices that cannot run it to them.
[[nodiscard]] std::optional<placement> choose_placement(std::span<const task_view> tasks,
                                                        std::span<const device_view> devices);

}  // namespace pp::engine
