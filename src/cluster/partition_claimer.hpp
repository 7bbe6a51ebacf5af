// partition_claimer: how a node takes, holds and finishes partitions. claim_next takes the most
// urgent ready partition (priority, then job order, then partition order) with SELECT ... FOR UPDATE
// SKIP LOCKED, so nodes claiming at once never block on or take the same row; the claim is a lease
// the node renews while it proves. complete() writes the result once (the primary key of
// pp_results turns a second write into a no-op) and, under the job row's lock, lets exactly one
// node see the job's last partition arrive: that node assembles, verifies and stores the proof.
// Functions throw libpqxx exceptions (callers run them inside db_session::run).
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <pqxx/pqxx>

#include "core/status.hpp"
#include "cluster/job_store.hpp"
#include "cluster/witness_store.hpp"

namespace pp::cluster {

struct claim {
  uint64_t job = 0;
  uint32_t part = 0;
  uint32_t num_partitions = 0;
  int priority = 1;
  std::string key_id;
  stored_witness witness;
  uint32_t claims = 0;  // how many times this partition has been claimed, this one included
};

// The next ready partition whose key is in `keys` (a text_array literal) and that has not failed on
// `node` before; nullopt when there is none.
[[nodiscard]] std::optional<claim> claim_next(pqxx::connection& c, const std::string& node, const std::string& keys,
                                              std::chrono::seconds lease);

enum class lease_state {
  held,       // renewed
  lost,       // the lease ran out and the partition went back to the queue (or to another node)
  job_ended,  // the job was cancelled or failed meanwhile: stop working on it
};
[[nodiscard]] lease_state renew_lease(pqxx::connection& c, const std::string& node, uint64_t job, uint32_t part,
                                      std::chrono::seconds lease);

// Puts a partition this node holds back in the queue (a node stopping without finishing it).
void release_claim(pqxx::connection& c, const std::string& node, uint64_t job, uint32_t part);
// Puts every partition claimed under `node` back in the queue: a node starting again holds nothing,
// whatever its previous run left behind. Returns how many.
int release_node_claims(pqxx::connection& c, const std::string& node);
// Puts partitions whose lease has run out back in the queue (their node is gone or stuck). Returns
// "job/part on node" for each, for the log.
[[nodiscard]] std::vector<std::string> reclaim_expired(pqxx::connection& c);

// Fails every running job with queued partitions, submitted more than `after` ago, whose key no
// node has listed while taking work (pp_nodes.serving_at) within `after`: no node can prove it (the
// key's nodes drained, died or never had it). Its unfinished partitions are cancelled. Returns the
// failed jobs' ids.
[[nodiscard]] std::vector<uint64_t> fail_unserved_jobs(pqxx::connection& c, std::chrono::seconds after);

// A proved partition in stored_proof.hpp's encoding.
struct partition_output {
  std::vector<uint8_t> proof;
  std::string public_json;
  std::string device;
  std::string curve = "bls12381";  // "bls12381" or "bn128"
};

struct completion {
  bool written = false;    // false: a result for this partition was already there (no-op)
  bool assembled = false;  // this call completed the job (succeeded or, if verification failed, failed)
  std::string job_state;   // the job's state after the call
};

// Writes the result and, when it is the job's last, checks every partition with `verify_all` (the
// job's results in order) and ends the job: succeeded with its proof (stored_proof.hpp's
// assemble_job_proof), or failed with verify_all's error.
[[nodiscard]] completion complete_partition(pqxx::connection& c, const std::string& node, const claim& cl,
                                            const partition_output& out,
                                            const std::function<status(const std::vector<result_row>&)>& verify_all);

struct failure_outcome {
  bool job_failed = false;
  uint32_t failures = 0;  // distinct nodes this partition has failed on
};
// Records that the partition failed on `node`. When it has failed on max_node_failures nodes (or
// on every node whose heartbeat is within a lease, if fewer), the job fails with every node's
// error; otherwise the partition goes back to the queue for another node.
[[nodiscard]] failure_outcome fail_partition(pqxx::connection& c, const std::string& node, const claim& cl,
                                             const status& error);

}  // namespace pp::cluster
