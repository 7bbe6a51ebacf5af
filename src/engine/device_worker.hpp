// device_worker: the device stage for one device. Each of the device's worker threads runs loop():
// it takes the next task from the device's inbox, with the tasks of the same key queued right
// behind it when the device starts partitions together (device_slot::partitions_together), runs the
// backend's start() or start_together() (trace span, busy meter, the failure-injection hook) and
// routes each outcome through the partition_router: on success to the finish queue; on a device
// fault it takes the device out of rotation and sends the partition back to the ready queue for
// another device, up to max_attempts; a request error (invalid_argument, failed_precondition) or
// the last attempt fails the partition. Partitions the backend will not take together are started
// one by one, and their key is taken fewer together from then on: one at a time where the backend
// takes none of it together, one fewer where that many did not fit (unless a request was bad; never
// more than another refusal on the device left).
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <map>
#include <string>
#include <vector>

#include "core/mutex.hpp"
#include "core/status.hpp"
#include "core/thread_annotations.hpp"
#include "core/trace_recorder.hpp"
#include "engine/device_slot.hpp"
#include "engine/engine_metrics.hpp"
#include "engine/job.hpp"
#include "engine/partition_router.hpp"
#include "engine/partition_work.hpp"

namespace pp::engine {

class device_worker {
 public:
  // The engine_config knobs of the same names (defined there).
  struct options {
    bool self_verify;
    uint32_t max_attempts;
    std::chrono::milliseconds together_wait{0};
  };
  // Ends a partition (and so its job) with an error.
  using fail_fn = std::function<void(const partition_task&, status)>;

  // Everything referenced outlives the worker; `fail` is called from the worker threads.
  device_worker(device_slot& slot, partition_router& router, trace_recorder& trace, engine_metrics& metrics,
                options opts, fail_fn fail);
  device_worker(const device_worker&) = delete;
  device_worker& operator=(const device_worker&) = delete;

  // Runs tasks from the device's inbox until it is closed and drained; `track` names the calling
  // thread in the trace ("cpu0/w1"). Wakes the router's placement after each task.
  void loop(const std::string& track);
  // One task (and those taken together with it), as loop() runs it.
  void run(partition_task task, const std::string& track);

 private:
  struct started_partition {
    partition_task task;
    std::unique_ptr<partition_work> work;
    std::chrono::nanoseconds queued{};
  };
  // How many partitions to take with t: what the slot and t's curve's backend take, less for a key
  // refused together before.
  size_t together_for(const partition_task& t) PP_EXCLUDES(mu_);
  // Each partition's start() outcome, in order.
  std::vector<result<groth16::pending_ptr>> start(const std::vector<started_partition>& group) PP_EXCLUDES(mu_);
  // Routes one started partition by its outcome.
  void settle(started_partition g, result<groth16::pending_ptr> p, std::chrono::nanoseconds ran);

  device_slot& slot_;
  partition_router& router_;
  trace_recorder& trace_;
  engine_metrics& metrics_;
  const options opts_;
  const fail_fn fail_;
  mutex mu_;  // the worker threads share key_caps_
  // The most partitions of a key taken together since the backend refused more.
  std::map<std::string, size_t> key_caps_ PP_GUARDED_BY(mu_);
};

}  // namespace pp::engine
