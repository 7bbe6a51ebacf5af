// partition_router: moves partition tasks between the engine's stages. It owns the intake, ready and
// finish queues and parks each partition's state (partition_work) while its task is queued; it
// places ready tasks on the devices' inboxes (scheduler_policy), forwards with backpressure while a
// blocked witness thread still serves CRITICAL tasks, and purges a job from every queue at once.
// The stages themselves (witness, device, finish) run outside it and call in. Thread-safe.
#pragma once
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <vector>

#include "core/mutex.hpp"
#include "core/status.hpp"
#include "engine/deadline.hpp"
#include "engine/device_slot.hpp"
#include "engine/job.hpp"
#include "engine/job_queue.hpp"
#include "engine/partition_store.hpp"
#include "engine/partition_work.hpp"

namespace pp::engine {

// How often a blocked stage looks at its job's cancel flag and the stop flag.
inline constexpr auto stage_poll_interval = std::chrono::milliseconds(20);

class partition_router {
 public:
  // engine_config's intake_capacity, ready_capacity and finish_capacity.
  struct capacities {
    size_t intake, ready, finish;
  };
  // What the router asks of its owner when a partition cannot move on.
  struct hooks {
    // No healthy device that proves its curve is left to run the partition: fail it (and so its job).
    std::function<void(const partition_task&, status)> fail;
    // The task could not be queued on the device chosen for it: end its job with this error.
    std::function<void(job_id, status)> cancel_job;
  };
  // Runs a CRITICAL task's witness stage on the calling (witness) thread; see forward().
  using serve_fn = std::function<void(partition_task)>;

  // `slots` outlive the router; their inboxes are the device stage's queues.
  partition_router(capacities caps, std::vector<device_slot*> slots, hooks h);
  partition_router(const partition_router&) = delete;
  partition_router& operator=(const partition_router&) = delete;

  [[nodiscard]] job_queue& intake() { return intake_; }
  [[nodiscard]] job_queue& ready() { return ready_; }
  [[nodiscard]] job_queue& finish() { return finish_; }
  [[nodiscard]] const job_queue& intake() const { return intake_; }
  [[nodiscard]] const job_queue& ready() const { return ready_; }
  [[nodiscard]] const job_queue& finish() const { return finish_; }

  // A new partition: parks its state, then queues it on the intake, waiting for room until `until`.
  // On an error the state stays parked for purge() (the caller ends the job).
  [[nodiscard]] status admit(partition_task task, std::unique_ptr<partition_work> w, deadline until);

  // Parks the state, then queues the task on `q` (one of this router's queues), blocking while the
  // queue is full: backpressure. With `serve` (a witness thread) and a task that is not CRITICAL,
  // the wait is broken every stage_poll_interval to run `serve` on CRITICAL tasks at the head of the
  // intake (their push never waits), so a CRITICAL job reaches a device at the next partition
  // boundary even when NORMAL work fills every queue. A task whose job was cancelled, or a closed
  // queue, drops the job's parked state (the job is ended elsewhere).
  void forward(job_queue& q, partition_task task, std::unique_ptr<partition_work> w, const serve_fn* serve = nullptr);

  // The state parked for the task; null when its job was purged meanwhile (skip the task).
  [[nodiscard]] std::unique_ptr<partition_work> claim(const partition_task& task) {
    return work_.claim(task.job, task.partition);
  }

  // Places one ready task on a device that proves its curve (scheduler_policy: priority, key
  // affinity, load); false when nothing can move now. Fails every ready task it sees whose curve no
  // healthy device proves any more (hooks.fail).
  bool place_one();
  // Runs place_one() until close(), sleeping until wake() or stage_poll_interval when idle.
  void run_placement();
  // A device worker ended a partition or the ready queue changed: placement looks again.
  void wake() { placement_cv_.notify_all(); }

  // Removes the job's queued tasks from every queue (device inboxes included, their load released)
  // and frees its parked state.
  void purge(job_id id);

  // Closes every queue (pushes fail, pops drain) and ends run_placement().
  void close();

  // Parked partitions (tests).
  [[nodiscard]] size_t parked() const { return work_.size(); }

 private:
  void serve_critical_intake(const serve_fn& serve);

  const std::vector<device_slot*> slots_;
  const hooks hooks_;
  job_queue intake_;
  job_queue ready_;
  job_queue finish_;
  partition_store<partition_work> work_;
  std::atomic<bool> closed_{false};
  // Guards no data: only the placement thread sleeps on placement_cv_, and a notify that comes while
  // it is not waiting costs at most one stage_poll_interval.
  mutex placement_mu_;
  std::condition_variable placement_cv_;
};

}  // namespace pp::engine
