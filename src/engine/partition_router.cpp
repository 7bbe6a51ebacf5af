#include "engine/partition_router.hpp"

#include <string>

#include "engine/curves.hpp"
#include "engine/scheduler_policy.hpp"

namespace pp::engine {

partition_router::partition_router(capacities caps, std::vector<device_slot*> slots, hooks h)
    : slots_(std::move(slots)),
      hooks_(std::move(h)),
      intake_(caps.intake),
      ready_(caps.ready),
      finish_(caps.finish) {}

status partition_router::admit(partition_task task, std::unique_ptr<partition_work> w, deadline until) {
  // Parked before the push, so a cancel that comes in between finds the state (partition_store.hpp).
  w->enqueued = std::chrono::steady_clock::now();
  work_.put(task.job, task.partition, std::move(w));
  return intake_.push(std::move(task), until);
}

void partition_router::forward(job_queue& q, partition_task task, std::unique_ptr<partition_work> w,
                               const serve_fn* serve) {
  const job_id id = task.job;
  const uint32_t part = task.partition;
  const bool serve_critical = serve != nullptr && task.prio != priority::critical;
  w->enqueued = std::chrono::steady_clock::now();
  work_.put(id, part, std::move(w));
  while (true) {
    const status s = q.push(task, serve_critical ? deadline_in(stage_poll_interval) : no_deadline());
    if (s.ok()) break;
    if (s.code() != status_code::deadline_exceeded) {
      work_.erase_job(id);  // cancelled or shutting down: the job is (being) ended elsewhere
      return;
    }
    serve_critical_intake(*serve);
  }
  if (&q == &ready_) wake();
}

void partition_router::serve_critical_intake(const serve_fn& serve) {
  while (true) {
    const auto head = intake_.peek(1);
    if (head.empty() || head.front().prio != priority::critical) return;
    auto t = intake_.take(head.front().job, head.front().partition);
    if (!t) return;
    serve(std::move(*t));
  }
}

bool partition_router::place_one() {
  const auto tasks = ready_.peek(64);
  if (tasks.empty()) return false;
  std::vector<std::vector<std::string>> keys(slots_.size());
  std::vector<device_view> dv;
  curve_mask healthy = 0;  // the curves some healthy device proves
  for (size_t i = 0; i < slots_.size(); ++i) {
    dv.push_back(slots_[i]->view(keys[i]));
    if (dv.back().healthy) healthy |= dv.back().curves;
  }
  // A task no healthy device can run is failed rather than held forever; the rest are placed.
  std::vector<task_view> tv;
  std::vector<size_t> of_view;  // tv[i] is tasks[of_view[i]]
  for (size_t i = 0; i < tasks.size(); ++i) {
    const partition_task& t = tasks[i];
    if (has_curve(healthy, t.curve)) {
      tv.push_back({t.prio, t.seq, t.key_id, t.curve});
      of_view.push_back(i);
      continue;
    }
    if (auto taken = ready_.take(t.job, t.partition)) {
      hooks_.fail(*taken, unavailable("no healthy device left that proves " + ec::curve_text(t.curve) + " to run job " +
                                      std::to_string(t.job) + " partition " + std::to_string(t.partition)));
    }
  }
  const auto p = choose_placement(tv, dv);
  if (!p) return false;
  const partition_task& chosen = tasks[of_view[p->task]];
  auto taken = ready_.take(chosen.job, chosen.partition);
  if (!taken) return true;  // cancelled meanwhile: look again
  device_slot& slot = *slots_[p->device];
  slot.placed();
  const job_id id = taken->job;
  if (!slot.inbox().push(std::move(*taken), deadline_in(std::chrono::seconds(1))).ok()) {
    slot.unplaced();
    work_.erase_job(id);
    if (!closed_) {
      hooks_.cancel_job(id, internal_error("dispatcher could not queue job " + std::to_string(id) + " on " + slot.name()));
    }
  }
  return true;
}

void partition_router::run_placement() {
  mutex_lock lock(placement_mu_);
  while (!closed_) {
    if (place_one()) continue;
    lock.wait_for(placement_cv_, stage_poll_interval);
  }
}

void partition_router::purge(job_id id) {
  intake_.cancel(id);
  ready_.cancel(id);
  for (device_slot* s : slots_) {
    for (size_t n = s->inbox().cancel(id); n > 0; --n) s->unplaced();
  }
  finish_.cancel(id);
  work_.erase_job(id);
  wake();
}

void partition_router::close() {
  closed_ = true;
  intake_.close();
  ready_.close();
  finish_.close();
  for (device_slot* s : slots_) s->inbox().close();
  wake();
}

}  // namespace pp::engine
