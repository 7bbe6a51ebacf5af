// witness_stage: the engine's first stage, run by the witness pool. For each task from the intake
// queue it leases the key (loading it on first use), reserves the partition's host memory, reads
// and checks the witness (a .wtns by path through witness_file, or the caller's vector), then
// forwards the partition to the ready queue; while that queue is full the thread serves CRITICAL
// tasks from the intake (partition_router::forward). Waits for a key or for memory give up when the
// job is cancelled or the stage stops. A thrown exception fails the partition
// (engine/contain_exceptions.hpp).
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>

#include "core/result.hpp"
#include "core/trace_recorder.hpp"
#include "engine/engine_metrics.hpp"
#include "engine/engine_types.hpp"
#include "engine/job.hpp"
#include "engine/job_tracker.hpp"
#include "engine/key_records.hpp"
#include "engine/key_store.hpp"
#include "engine/memory_budget.hpp"
#include "engine/partition_router.hpp"

namespace pp::engine {

class witness_stage {
 public:
  // Ends a partition (and so its job) with an error.
  using fail_fn = std::function<void(const partition_task&, status)>;

  // Everything referenced outlives the stage; `partitions` is the budget the partitions' memory is
  // reserved from; `fail` is called from the witness threads.
  witness_stage(partition_router& router, job_tracker<partition_result>& tracker, key_store& keys,
                key_records& records, memory_budget& partitions, trace_recorder& trace, engine_metrics& metrics,
                fail_fn fail);
  witness_stage(const witness_stage&) = delete;
  witness_stage& operator=(const witness_stage&) = delete;

  // Runs tasks from the intake until it is closed and drained; `track` names the calling thread in
  // the trace ("witness-0").
  void loop(const std::string& track);
  // One task, as loop() runs it.
  void run(partition_task task, const std::string& track);
  // Waits for a key, for memory or on a witness file's read end at their next poll (cancelled).
  void stop() { stopping_ = true; }

 private:
  void run_uncontained(partition_task& t, const std::string& track);
  result<key_lease> lease_key(const std::string& id, const cancel_token& cancel);
  result<memory_reservation> reserve(uint64_t bytes, const cancel_token& cancel);

  partition_router& router_;
  job_tracker<partition_result>& tracker_;
  key_store& keys_;
  key_records& records_;
  memory_budget& partitions_;
  trace_recorder& trace_;
  engine_metrics& metrics_;
  const fail_fn fail_;
  std::atomic<bool> stopping_{false};
};

}  // namespace pp::engine
