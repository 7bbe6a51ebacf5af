// job_store: jobs as rows of pp_jobs with one pp_partitions row per partition; submission (with
// idempotency keys), lookup, results and cancellation. Functions take a connection and throw
// libpqxx exceptions: callers run them inside db_session::run.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <pqxx/pqxx>

#include "core/result.hpp"
#include "cluster/witness_store.hpp"

namespace pp::cluster {

struct new_job {
  std::string key_id;
  int priority = 1;  // engine::priority's value
  std::string idempotency_key;  // empty: none
  uint32_t num_partitions = 1;
  std::string node;  // the node that took the submission
  std::string curve = "bls12381";  // its witnesses' (and key's) curve, as stored_proof.hpp names it
};

struct submitted_job {
  uint64_t id = 0;
  bool deduplicated = false;  // the idempotency key matched an earlier job
};

// Inserts a job under a random id (engine/job_ids.hpp) and its partitions in one transaction.
// `store_witnesses(job_id)` writes the witnesses (inline or to the shared directory) once the id is
// known; its error aborts the submission. An idempotency key seen before returns that job
// (already_exists when its key_id or partition count differ).
[[nodiscard]] result<submitted_job> insert_job(
    pqxx::connection& c, const new_job& job,
    const std::function<result<std::vector<stored_witness>>(uint64_t job_id)>& store_witnesses);

struct job_row {
  uint64_t id = 0;
  std::string key_id;
  int priority = 1;
  uint32_t num_partitions = 0;
  std::string state;  // running, succeeded, failed, cancelled
  int error_code = 0;  // pp::status_code's value when failed or cancelled
  std::string error;
};
[[nodiscard]] std::optional<job_row> load_job(pqxx::connection& c, uint64_t id);

struct result_row {
  uint32_t part = 0;
  std::vector<uint8_t> proof;  // in the curve's encoding (stored_proof.hpp)
  std::string public_json;     // snarkjs public.json
  std::string node, device;
  std::string curve = "bls12381";  // "bls12381" or "bn128"
};
// Every written partition result of a job, in partition order.
[[nodiscard]] std::vector<result_row> load_results(pqxx::connection& c, uint64_t id);

// Ends a running job as cancelled (its unfinished partitions too). The job's state afterwards, or
// nullopt for an unknown job; "cancelled" only when this call (or an earlier cancel) did it.
[[nodiscard]] std::optional<std::string> cancel_job(pqxx::connection& c, uint64_t id, const std::string& why);

// The witness files a job's partitions recorded (shared-directory witnesses), in partition order.
[[nodiscard]] std::vector<std::string> witness_paths(pqxx::connection& c, uint64_t id);

// Those of `ids` whose job has ended (succeeded, failed or cancelled); a job not in the database
// (not yet committed, or deleted) is not among them.
[[nodiscard]] std::vector<uint64_t> ended_jobs(pqxx::connection& c, const std::vector<uint64_t>& ids);

// Deletes a terminal job (results, partitions and all); false when unknown or still running.
[[nodiscard]] bool delete_job(pqxx::connection& c, uint64_t id);

}  // namespace pp::cluster
