// engine: the in-process proving engine (docs/engine.md), the library the daemon and `proofpipe
// bench` drive. A job is a proof request of P partitions (one witness each); its partitions flow
// through bounded stages and are re-joined in order:
//
//   submit -> [intake queue] -> witness pool (reserve host memory, lease the key, load + check the
//   witness) -> [ready queue] -> dispatcher (priority, then key affinity, then load) -> [device
//   inbox] -> device workers (backend.start) -> [finish queue] -> finalizer pool (backend.finish:
//   assembly + self-verification) -> job_tracker (one terminal state per job) -> await().
//
// Every call returns a pp::status / pp::result; nothing throws across this API. All methods are
// thread-safe. Knobs: engine_config.hpp.
#pragma once
#include <filesystem>
#include <memory>
#include <string>

#include "core/result.hpp"
#include "engine/deadline.hpp"
#include "engine/engine_config.hpp"
#include "engine/engine_types.hpp"
#include "engine/job.hpp"

namespace pp::engine {

struct shutdown_options {
  // true: no new submissions; queued and in-flight jobs run to the end (until `until`, after which
  // the rest are ended as below). false: every unfinished job ends at once as cancelled with an
  // UNAVAILABLE error, so an awaiting client is told, never left hanging.
  bool drain = true;
  deadline until = no_deadline();
};

// ---- the engine ----------------------------------------------------------------------------------

class engine {
 public:
  // Validates the config, sizes the host budget (config or cgroup/MemTotal), builds the devices and
  // starts every pool. invalid_argument naming the bad knob; resource_exhausted when the budget is
  // too small to hold anything.
  static result<std::unique_ptr<engine>> create(engine_config config);

  // Ends as shutdown({.drain = false}) if not shut down already, then joins every thread.
  virtual ~engine() = default;
  engine(const engine&) = delete;
  engine& operator=(const engine&) = delete;

  // Keys, BLS12-381's or BN254's (engine_types.hpp). register_key: already_exists for a known id,
  // invalid_argument for an empty id or a memory source with a null key/circuit or a key that does
  // not match its circuit. Files are read lazily (first job or preload_key), but for a zkey's header,
  // which names its curve; a file source whose file is missing is not_found now.
  virtual pp::status register_key(const std::string& id, key_source source) = 0;
  // Loads the key into host memory now (evicting idle keys least recently used first if the key
  // budget is short). not_found, resource_exhausted (larger than the key budget), deadline_exceeded,
  // or the reader's error (data_loss, invalid_argument) with the file name.
  virtual pp::status preload_key(const std::string& id, deadline d = no_deadline()) = 0;
  // Drops the resident copy now. failed_precondition while jobs use it; not_found if unknown.
  virtual pp::status evict_key(const std::string& id) = 0;

  // Queues a job; returns its id at once (waits only while the intake queue is full, up to
  // engine_config::submit_wait). not_found (unknown key), failed_precondition (no device proves the
  // key's curve), invalid_argument (no witnesses, too many, an in-memory
  // witness of the other curve or of the wrong size once the circuit size is known, a file witness
  // that does not exist; a .wtns of the other curve fails the job, naming both), already_exists
  // (idempotency conflict), resource_exhausted (intake full, or one partition needs more than the
  // whole partition budget), unavailable (shutting down).
  virtual result<job_id> submit(submit_request request) = 0;

  // Waits until the job ends or the deadline passes. A terminal job's outcome, including failed and
  // cancelled ones, is a job_result (the call itself succeeded); deadline_exceeded while still
  // running; not_found for an unknown (or no longer retained) job.
  virtual result<job_result> await(job_id id, deadline d = no_deadline()) = 0;

  // Cancels at any stage: queued partitions are dropped, running ones stop at their next step and
  // their results are discarded; memory and key leases come back. failed_precondition once ended.
  virtual pp::status cancel(job_id id) = 0;

  // Drops a terminal job's result (and its idempotency key) before retention would.
  virtual pp::status forget(job_id id) = 0;

  [[nodiscard]] virtual engine_status status() const = 0;
  // Prometheus text format 0.0.4 (names in docs/engine.md): pp_queue_depth{stage},
  // pp_stage_seconds{stage} (histogram), pp_device_busy_fraction{device}, pp_device_healthy,
  // pp_host_memory_bytes{pool,kind}, pp_jobs_total{state}, pp_partitions_total{result},
  // pp_partition_retries_total, pp_jobs_in_flight.
  [[nodiscard]] virtual std::string metrics_text() const = 0;
  // Chrome Trace Event JSON (Perfetto): every stage of every partition on every worker track.
  [[nodiscard]] virtual pp::status write_trace(const std::filesystem::path& path) const = 0;

  // Stops taking jobs and ends every job (see shutdown_options); joins the pools. Idempotent.
  virtual pp::status shutdown(shutdown_options options = {}) = 0;

  // Test hook: the next `count` partitions that start on `device` fail as a device fault (the
  // device leaves rotation, the partition is retried on another). not_found for an unknown device.
  virtual pp::status inject_device_failure(const std::string& device, uint32_t count = 1) = 0;

 protected:
  engine() = default;
};

}  // namespace pp::engine
