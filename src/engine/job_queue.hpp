// job_queue: the bounded queue of ready partition tasks between two stages. Pops the highest
// priority first, FIFO within a priority; push blocks when full (backpressure instead of OOM),
// except CRITICAL tasks, which are never held back by NORMAL work filling the queue.
#pragma once
#include <array>
#include <condition_variable>
#include <deque>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/mutex.hpp"
#include "core/result.hpp"
#include "core/thread_annotations.hpp"
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
  status push(partition_task task, deadline d) PP_EXCLUDES(mu_);
  // Waits for a task. deadline_exceeded when none came; unavailable once closed and drained.
  result<partition_task> pop(deadline d) PP_EXCLUDES(mu_);
  std::optional<partition_task> try_pop() PP_EXCLUDES(mu_);
  // Pops up to `max` tasks while the next one in pop order is of key `key_id`: the partitions a
  // device worker takes together with one it popped, exactly those it would pop next. While fewer
  // than `max` are taken and the queue is empty it waits until `d` for more (never behind another
  // key's task): a job's partitions reach the queue one by one, and the first would otherwise
  // start alone (immediate(): no wait).
  std::vector<partition_task> pop_same_key(const std::string& key_id, size_t max, deadline d = immediate())
      PP_EXCLUDES(mu_);

  // Up to `max` tasks in pop order, copied, for a scheduler_policy to choose from; take() then
  // removes the chosen one (nullopt if it was popped or cancelled meanwhile).
  [[nodiscard]] std::vector<partition_task> peek(size_t max) const PP_EXCLUDES(mu_);
  std::optional<partition_task> take(job_id job, uint32_t partition) PP_EXCLUDES(mu_);

  // Removes the job's queued tasks (in-flight ones see the job's cancel_token); returns how many.
  size_t cancel(job_id job) PP_EXCLUDES(mu_);
  // Wakes every waiter; later pushes fail, pops drain what is left.
  void close() PP_EXCLUDES(mu_);

  [[nodiscard]] size_t size() const PP_EXCLUDES(mu_);
  [[nodiscard]] size_t capacity() const { return capacity_; }

 private:
  size_t size_locked() const PP_REQUIRES(mu_);
  std::optional<partition_task> pop_locked() PP_REQUIRES(mu_);

  const size_t capacity_;
  mutable mutex mu_;
  std::condition_variable not_empty_;
  std::condition_variable not_full_;
  std::array<std::deque<partition_task>, priority_count> lanes_ PP_GUARDED_BY(mu_);  // index = priority
  bool closed_ PP_GUARDED_BY(mu_) = false;
};

// Pops each task (waiting while the queue is empty) and hands it to `run`, until the queue is closed
// and drained: the loop of a stage's threads.
template <class F>
void run_until_closed(job_queue& q, F&& run) {
  while (true) {
    auto t = q.pop(no_deadline());
    if (!t.ok()) return;
    run(std::move(t).value());
  }
}

}  // namespace pp::engine
