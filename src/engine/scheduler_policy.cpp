// scheduler_policy: tasks in order (highest priority, then oldest), one pass over the devices each.
// A task that cannot be placed holds the devices of its curve: no lower task may take them, since
// device capacity applies equally to all priorities below CRITICAL; that keeps the policy
// starvation-free. Lower tasks may still take devices it cannot run on (a BN254 task waiting for
// the CPU leaves the GPUs to BLS12-381 tasks).
#include "engine/scheduler_policy.hpp"

#include <algorithm>
#include <vector>

namespace pp::engine {

bool device_view::holds(std::string_view key) const {
  return std::find(keys.begin(), keys.end(), key) != keys.end();
}

std::optional<placement> choose_placement(std::span<const task_view> tasks, std::span<const device_view> devices) {
  std::vector<size_t> order(tasks.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) {
    const task_view& a = tasks[x];
    const task_view& b = tasks[y];
    return a.prio > b.prio || (a.prio == b.prio && a.seq < b.seq);
  });
  curve_mask reserved = 0;  // curves of better tasks that could not be placed: their devices stay theirs
  for (const size_t i : order) {
    const task_view& t = tasks[i];
    const bool critical = t.prio == priority::critical;
    std::optional<size_t> chosen;
    for (size_t d = 0; d < devices.size(); ++d) {
      const device_view& dev = devices[d];
      if (!dev.healthy || !has_curve(dev.curves, t.curve) || (dev.curves & reserved) != 0) continue;
      if (!critical && dev.load >= dev.max_load) continue;
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
    if (chosen) return placement{i, *chosen};
    reserved |= curve_bit(t.curve);
  }
  return std::nullopt;
}

}  // namespace pp::engine
