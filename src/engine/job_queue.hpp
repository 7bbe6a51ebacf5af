// job_queue: the bounded queue of ready partition tasks between two stages. Pops the highest
// priority first, FIFO within a priority; push blocks when full (backpressure instead of OOM),
// except CRITICAL tasks, which are never held back by NORMAL work filling the queue.
#pragma once
#include <array>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <optional>
#include <vector>

#include "core/result.hpp"
#include "engine/deadline.hpp"
#include "engine/job.hpp"

namespace pp::engine {

class job_queue {
 public:
  explicit job_queue(size_t capacity) : capacity_(capacity) {}
  job_queue(const job_queue&) = delete;
  job_queue& operator=(const job_queue&) = delete;

  // Waits while the queue is full. deadline_exceeded when still full at the deadline; unavailable
  // once closed; cancelled (task not queued) if the task's job was cancelled.
  status push(partition_task task, deadline d);
  // Waits for a task. deadline_exceeded when none came; unavailable once closed and drained.
  result<partition_task> pop(deadline d);
  std::optional<partition_task> try_pop();

  // Up to `max` tasks in pop order, copied, for a scheduler_policy to choose from; take() then
  // removes the chosen one (nullopt if it was popped or cancelled meanwhile).
  [[nodiscard]] std::vector<partition_task> peek(size_t max) const;
  std::optional<partition_task> take(job_id job, uint32_t partition);

  // Removes the job's queued tasks (in-flight ones see the job's cancel_token); returns how many.
  size_t cancel(job_id job);
  // Wakes every waiter; later pushes fail, pops drain what is left.
  void close();

  [[nodiscard]] size_t size() const;
  [[nodiscard]] size_t capacity() const { return capacity_; }

 private:
  size_t size_locked() const;
  std::optional<partition_task> pop_locked();

  const size_t capacity_;
  mutable std::mutex mu_;
  std::condition_variable not_empty_;
  std::condition_variable not_full_;
  std::array<std::deque<partition_task>, priority_count> lanes_;  // index = priority
  bool closed_ = false;
};

}  // namespace pp::engine
