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
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/result.hpp"
#include "engine/deadline.hpp"
#include "engine/engine_config.hpp"
#include "engine/job.hpp"
#include "ff/fr.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::engine {

// ---- keys ----------------------------------------------------------------------------------------

// A snarkjs .zkey: the circuit is the one the key implies (formats::circuit_from_zkey).
struct zkey_file_source {
  std::filesystem::path zkey;
};
// A bellperson parameter file plus the circom .r1cs it was made for (density bits come from it).
struct bellperson_file_source {
  std::filesystem::path params;
  std::filesystem::path r1cs;
};
// A key and circuit already in memory (tests, synthetic benchmarks, a server that built them).
struct memory_key_source {
  std::shared_ptr<const groth16::proving_key> pk;
  std::shared_ptr<const r1cs::constraint_system> cs;
};
using key_source = std::variant<zkey_file_source, bellperson_file_source, memory_key_source>;

// ---- jobs ----------------------------------------------------------------------------------------

// One partition's witness (1 | public | aux, Montgomery form): a circom .wtns file, read by the
// witness pool, or a vector already in memory.
struct witness_source {
  std::variant<std::filesystem::path, std::shared_ptr<const std::vector<ff::fr>>> value;

  static witness_source file(std::filesystem::path path) { return {std::move(path)}; }
  static witness_source memory(std::vector<ff::fr> w) {
    return {std::make_shared<const std::vector<ff::fr>>(std::move(w))};
  }
};

struct submit_request {
  std::string key_id;
  std::vector<witness_source> witnesses;  // one per partition, in partition order (1..max_partitions)
  priority prio = priority::normal;
  // Non-empty: a resubmission with the same key returns the first job's id (and queues nothing) as
  // long as that job is retained (engine_config::max_retained_jobs); a different key_id or
  // partition count under the same idempotency key is already_exists.
  std::string idempotency_key;
};

// Time a partition spent in one stage: waiting in its queue, then running.
struct stage_timing {
  std::string stage;  // "witness", "device", "finish"
  std::chrono::nanoseconds queued{};
  std::chrono::nanoseconds elapsed{};
};

struct partition_result {
  groth16::proof proof;
  std::vector<ff::fr> public_inputs;  // x_1..x_nPublic (the constant 1 excluded), Montgomery form
  std::vector<stage_timing> stages;   // witness, device, finish
  std::vector<stage_timing> backend_steps;  // the prover's own steps (queued = 0)
  std::string device;  // the device whose start() produced it ("cpu0")
  uint32_t attempts = 1;  // > 1 when a device failed and the partition was retried elsewhere
};

struct job_result {
  job_id id = 0;
  job_state state = job_state::queued;  // terminal: succeeded, failed or cancelled
  // ok when succeeded. Failed: the first failing partition's error, with "job N partition P" context.
  // Cancelled: CANCELLED from cancel(), UNAVAILABLE when shutdown() ended the job.
  status error;
  std::vector<partition_result> partitions;  // in partition order; empty unless succeeded
};

// ---- status --------------------------------------------------------------------------------------

struct queue_status {
  std::string stage;  // "intake", "ready", "finish", "device:<name>"
  size_t depth = 0;
  size_t capacity = 0;
};

struct device_status {
  std::string name;  // "cpu0"
  std::string kind;  // "cpu", "cuda"
  bool healthy = true;
  std::string fault;  // why it left rotation (empty when healthy)
  uint32_t workers = 0;
  uint32_t running = 0;  // partitions inside backend.start() now
  uint32_t queued = 0;   // partitions waiting in its inbox
  uint64_t partitions_done = 0;
  uint64_t failures = 0;
  // GPUs: the union of kernel intervals (CUDA events) over the span of their partitions; other
  // devices: share of wall time since the engine started with >= 1 worker busy.
  double busy_fraction = 0;
  std::vector<std::string> recent_keys;  // affinity: keys it ran last, newest first
};

struct memory_status {
  uint64_t total = 0;  // the host budget: keys + partitions
  uint64_t keys_total = 0, keys_in_use = 0;
  uint64_t partitions_total = 0, partitions_in_use = 0, partitions_peak = 0;
  size_t waiters = 0;  // partitions waiting for memory
  uint64_t bytes_per_partition_hint = 0;  // largest estimate among registered keys seen so far
};

struct key_status {
  std::string id;
  bool resident = false;
  uint32_t in_use = 0;
  uint64_t bytes = 0;
};

struct engine_status {
  bool accepting = true;  // false once shutdown() began
  std::vector<queue_status> queues;
  std::vector<device_status> devices;
  size_t jobs_in_flight = 0;  // not yet terminal
  size_t jobs_retained = 0;   // awaitable (terminal ones included)
  uint64_t jobs_succeeded = 0, jobs_failed = 0, jobs_cancelled = 0;
  memory_status memory;
  std::vector<key_status> keys;
};

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

  // Keys. register_key: already_exists for a known id, invalid_argument for an empty id or a
  // memory source with a null key/circuit or a key that does not match its circuit. Files are read
  // lazily (first job or preload_key); a file source whose file is missing is not_found now.
  virtual pp::status register_key(const std::string& id, key_source source) = 0;
  // Loads the key into host memory now (evicting idle keys least recently used first if the key
  // budget is short). not_found, resource_exhausted (larger than the key budget), deadline_exceeded,
  // or the reader's error (data_loss, invalid_argument) with the file name.
  virtual pp::status preload_key(const std::string& id, deadline d = no_deadline()) = 0;
  // Drops the resident copy now. failed_precondition while jobs use it; not_found if unknown.
  virtual pp::status evict_key(const std::string& id) = 0;

  // Queues a job; returns its id at once (waits only while the intake queue is full, up to
  // engine_config::submit_wait). not_found (unknown key), invalid_argument (no witnesses, too many,
  // an in-memory witness of the wrong size once the circuit size is known, a file witness that does
  // not exist), already_exists (idempotency conflict), resource_exhausted (intake full, or one
  // partition needs more than the whole partition budget), unavailable (shutting down).
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
