// device_worker: the device stage for one device. Each of the device's worker threads runs loop():
// it takes the next task from the device's inbox, runs the backend's start() (trace span, busy
// meter, the failure-injection hook) and routes the outcome through the partition_router: on success
// to the finish queue; on a device fault it takes the device out of rotation and sends the
// partition back to the ready queue for another device, up to max_attempts; a request error
// (invalid_argument, failed_precondition) or the last attempt fails the partition.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "core/status.hpp"
#include "core/trace_recorder.hpp"
#include "engine/device_slot.hpp"
#include "engine/engine_metrics.hpp"
#include "engine/job.hpp"
#include "engine/partition_router.hpp"

namespace pp::engine {

class device_worker {
 public:
  // The engine_config knobs of the same names (defined there).
  struct options {
    bool self_verify;
    uint32_t max_attempts;
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
  // One task, as loop() runs it.
  void run(partition_task task, const std::string& track);

 private:
  device_slot& slot_;
  partition_router& router_;
  trace_recorder& trace_;
  engine_metrics& metrics_;
  const options opts_;
  const fail_fn fail_;
};

}  // namespace pp::engine
