// engine_types: the engine's vocabulary, what callers hand it (key and witness sources, submit
// requests) and what it hands back (partition and job results, status). Its own header so the
// components in src/engine use these without including the facade that wires them (engine.hpp).
#pragma once
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "core/status.hpp"
#include "ec/curve_id.hpp"
#include "engine/job.hpp"
#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"
#include "groth16/keys.hpp"
#include "groth16/proof.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::engine {

// ---- keys ----------------------------------------------------------------------------------------

// Keys and witnesses are BLS12-381's or BN254's; the unqualified names are BLS12-381's, BN254's live
// in `bn254` (docs/design.md, "Curve families").

// A snarkjs .zkey of either curve (its header says which): the circuit is the one the key implies
// (formats::circuit_from_zkey).
struct zkey_file_source {
  std::filesystem::path zkey;
};
// A bellperson parameter file plus the circom .r1cs it was made for (density bits come from it);
// BLS12-381 only.
struct bellperson_file_source {
  std::filesystem::path params;
  std::filesystem::path r1cs;
};
// A key and circuit already in memory (tests, synthetic benchmarks, a server that built them).
template <class Family>
struct basic_memory_key_source {
  std::shared_ptr<const groth16::basic_proving_key<Family>> pk;
  std::shared_ptr<const r1cs::basic_constraint_system<typename Family::fr>> cs;
};
using memory_key_source = basic_memory_key_source<ec::bls12_381::family>;
namespace bn254 {
using memory_key_source = basic_memory_key_source<ec::bn254::family>;
}  // namespace bn254

using key_source = std::variant<zkey_file_source, bellperson_file_source, memory_key_source, bn254::memory_key_source>;

// ---- jobs ----------------------------------------------------------------------------------------

// A witness in memory over Family's scalar field (1 | public | aux, Montgomery form).
template <class Family>
using witness_ptr = std::shared_ptr<const std::vector<typename Family::fr>>;

// One partition's witness, of its key's curve: a circom .wtns file, read by the witness pool (its
// prime says its curve), or a vector already in memory.
struct witness_source {
  std::variant<std::filesystem::path, witness_ptr<ec::bls12_381::family>, witness_ptr<ec::bn254::family>> value;

  static witness_source file(std::filesystem::path path) { return {std::move(path)}; }
  static witness_source memory(std::vector<ff::fr> w) {
    return {std::make_shared<const std::vector<ff::fr>>(std::move(w))};
  }
  static witness_source memory(std::vector<ff::bn254::fr> w) {
    return {std::make_shared<const std::vector<ff::bn254::fr>>(std::move(w))};
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

// A partition's proof over its key's curve.
template <class Family>
struct basic_curve_proof {
  groth16::basic_proof<Family> proof;
  std::vector<typename Family::fr> public_inputs;  // x_1..x_nPublic (the constant 1 excluded), Montgomery form
};
using curve_proof = basic_curve_proof<ec::bls12_381::family>;
namespace bn254 {
using curve_proof = basic_curve_proof<ec::bn254::family>;
}  // namespace bn254

struct partition_result {
  std::variant<curve_proof, bn254::curve_proof> output;
  [[nodiscard]] ec::curve_id curve() const {
    return output.index() == 0 ? ec::curve_id::bls12_381 : ec::curve_id::bn254;
  }
  // The proof as Family's; null when the key is the other curve's.
  template <class Family>
  [[nodiscard]] const basic_curve_proof<Family>* as() const {
    return std::get_if<basic_curve_proof<Family>>(&output);
  }
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
  std::vector<ec::curve_id> curves;      // the curves whose keys it proves
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
  ec::curve_id curve = ec::curve_id::bls12_381;  // known from registration on
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

}  // namespace pp::engine
