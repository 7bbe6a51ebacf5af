// scheduler_policy: one pass for the task (highest priority, then oldest), one for the device.
// Only the best task is considered: if it cannot be placed no lower one may be, since device
// capacity applies equally to all priorities below CRITICAL; that keeps the policy starvation-free.
#include "engine/scheduler_policy.hpp"

#include <algorithm>

namespace pp::engine {

bool device_view::holds(std::string_view key) const {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

std::optional<placement> choose_placement(std::span<const task_view> tasks, std::span<const device_view> devices) {
  if (tasks.empty()) return std::nullopt;
  size_t best = 0;
  for (size_t i = 1; i < tasks.size(); ++i) {
    const task_view& a = tasks[i];
    const task_view& b = tasks[best];
    if (a.prio > b.prio || (a.prio == b.prio && a.seq < b.seq)) best = i;
  }
  const task_view& t = tasks[best];
  const bool critical = t.prio == priority::critical;

  std::optional<size_t> chosen;
  for (size_t d = 0; d < devices.size(); ++d) {
    const device_view& dev = devices[d];
    if (!dev.healthy || (!critical && dev.load >= dev.max_load)) continue;
    if (!chosen) {
      chosen = d;
      continue;
    }
    const device_view& cur = devices[*chosen];
    const bool dev_aff = dev.holds(t.key_id), cur_aff = cur.holds(t.key_id);
    if (dev_aff != cur_aff) {
      if (dev_aff) chosen = d;
      continue;
    }
    if (dev.load < cur.load) chosen = d;
  }
  if (!chosen) return std::nullopt;
  return placement{best, *chosen};
}

}  // namespace pp::engine
