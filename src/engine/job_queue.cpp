// job_queue: one deque per priority under one mutex; two condition variables so pushers and
// poppers wake only each other.
#include "engine/job_queue.hpp"

#include <algorithm>

namespace pp::engine {

size_t job_queue::size_locked() const {
  size_t n = 0;
  for (const auto& lane : lanes_) n += lane.size();
  return n;
}

size_t job_queue::size() const {
  mutex_lock lock(mu_);
  return size_locked();
}

status job_queue::push(partition_task task, deadline d) {
  mutex_lock lock(mu_);
  const bool critical = task.prio == priority::critical;
  const bool room = wait_until(not_full_, lock, d, [&]() PP_REQUIRES(mu_) {
    return closed_ || critical || size_locked() < capacity_ || task.cancel.cancelled();
  });
  if (closed_) return unavailable("job queue: closed");
  if (task.cancel.cancelled()) return cancelled("job queue: job " + std::to_string(task.job) + " was cancelled");
  if (!room) return deadline_exceeded("job queue: full (" + std::to_string(capacity_) + " tasks)");
  lanes_[static_cast<size_t>(task.prio)].push_back(std::move(task));
  not_empty_.notify_one();
  return ok_status();
}

std::optional<partition_task> job_queue::pop_locked() {
  for (size_t p = priority_count; p-- > 0;) {
    if (!lanes_[p].empty()) {
      partition_task t = std::move(lanes_[p].front());
      lanes_[p].pop_front();
      not_full_.notify_one();
      return t;
    }
  }
  return std::nullopt;
}

result<partition_task> job_queue::pop(deadline d) {
  mutex_lock lock(mu_);
  wait_until(not_empty_, lock, d, [&]() PP_REQUIRES(mu_) { return closed_ || size_locked() > 0; });
  if (auto t = pop_locked()) return std::move(*t);
  if (closed_) return unavailable("job queue: closed");
  return deadline_exceeded("job queue: no task arrived");
}

std::optional<partition_task> job_queue::try_pop() {
  mutex_lock lock(mu_);
  return pop_locked();
}

std::vector<partition_task> job_queue::pop_same_key(const std::string& key_id, size_t max, deadline d) {
  mutex_lock lock(mu_);
  std::vector<partition_task> out;
  bool waited = false;
  while (out.size() < max) {
    const auto next = std::find_if(lanes_.rbegin(), lanes_.rend(), [](const auto& lane) { return !lane.empty(); });
    if (next != lanes_.rend()) {
      if (next->front().key_id != key_id) break;
      out.push_back(std::move(next->front()));
      next->pop_front();
      not_full_.notify_one();
      continue;
    }
    waited = true;
    if (closed_ || !wait_until(not_empty_, lock, d, [&]() PP_REQUIRES(mu_) { return closed_ || size_locked() > 0; })) {
      break;
    }
  }
  // A push's notify_one may have woken this wait for a task left here (another key's, or one past
  // max): pass it on to a pop() that would otherwise sleep through it.
  if (waited && size_locked() > 0) not_empty_.notify_one();
  return out;
}

std::vector<partition_task> job_queue::peek(size_t max) const {
  mutex_lock lock(mu_);
  std::vector<partition_task> out;
  for (size_t p = priority_count; p-- > 0 && out.size() < max;) {
    for (const auto& t : lanes_[p]) {
      if (out.size() == max) break;
      out.push_back(t);
    }
  }
  return out;
}

std::optional<partition_task> job_queue::take(job_id job, uint32_t partition) {
  mutex_lock lock(mu_);
  for (auto& lane : lanes_) {
    auto it = std::find_if(lane.begin(), lane.end(),
                           [&](const partition_task& t) { return t.job == job && t.partition == partition; });
    if (it != lane.end()) {
      partition_task t = std::move(*it);
      lane.erase(it);
      not_full_.notify_one();
      return t;
    }
  }
  return std::nullopt;
}

size_t job_queue::cancel(job_id job) {
  mutex_lock lock(mu_);
  size_t removed = 0;
  for (auto& lane : lanes_) {
    removed += std::erase_if(lane, [&](const partition_task& t) { return t.job == job; });
  }
  // Pushers of this job blocked on a full queue re-check their cancel flag; others get the room.
  not_full_.notify_all();
  return removed;
}

void job_queue::close() {
  mutex_lock lock(mu_);
  closed_ = true;
  not_empty_.notify_all();
  not_full_.notify_all();
}

}  // namespace pp::engine
