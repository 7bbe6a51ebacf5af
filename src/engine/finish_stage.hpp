// finish_stage: the engine's last stage, run by the finalizer pool. For each task from the finish
// queue it runs backend.finish() on the device that started the partition (assembly and
// self-verification), builds its partition_result (proof, public inputs, stage timings, the
// backend's steps, device, attempts), records the backend's own spans in the trace
// (engine/backend_spans.hpp), gives the partition's memory and key lease back and completes the
// partition in the job_tracker. An error from finish() (or an exception, as a status) fails it.
#pragma once
#include <functional>
#include <string>

#include "core/status.hpp"
#include "core/trace_recorder.hpp"
#include "engine/engine_metrics.hpp"
#include "engine/engine_types.hpp"
#include "engine/job.hpp"
#include "engine/job_tracker.hpp"
#include "engine/partition_router.hpp"

namespace pp::engine {

class finish_stage {
 public:
  // Ends a partition (and so its job) with an error.
  using fail_fn = std::function<void(const partition_task&, status)>;

  // Everything referenced outlives the stage; `fail` is called from the finalizer threads.
  finish_stage(partition_router& router, job_tracker<partition_result>& tracker, trace_recorder& trace,
               engine_metrics& metrics, fail_fn fail);
  finish_stage(const finish_stage&) = delete;
  finish_stage& operator=(const finish_stage&) = delete;

  // Runs tasks from the finish queue until it is closed and drained; `track` names the calling
  // thread in the trace ("finish-0").
  void loop(const std::string& track);
  // One task, as loop() runs it.
  void run(partition_task task, const std::string& track);

 private:
  partition_router& router_;
  job_tracker<partition_result>& tracker_;
  trace_recorder& trace_;
  engine_metrics& metrics_;
  const fail_fn fail_;
};

}  // namespace pp::engine
