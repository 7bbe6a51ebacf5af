// job: a proof request as the engine sees it, and the partition tasks it splits into. A job of P
// partitions becomes P tasks that flow independently and are re-joined in order (docs/engine.md).
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "core/status.hpp"
#include "ec/curve_id.hpp"

namespace pp::engine {

// Higher value = served first.
enum class priority : uint8_t { low = 0, normal = 1, high = 2, critical = 3 };
inline constexpr size_t priority_count = 4;

using job_id = uint64_t;

// Where the witness comes from, opaque to the engine's core (a file, a synthesis callback, a buffer
// owned by the server); the witness stage resolves it.
struct witness_handle {
  uint64_t value = 0;
  friend bool operator==(const witness_handle&, const witness_handle&) = default;
};

// Shared "stop" flag of one job: the tracker sets it, in-flight tasks poll it between steps.
class cancel_token {
 public:
  cancel_token() : flag_(std::make_shared<std::atomic<bool>>(false)) {}
  [[nodiscard]] bool cancelled() const { return flag_->load(std::memory_order_acquire); }
  void cancel() const { flag_->store(true, std::memory_order_release); }

 private:
  std::shared_ptr<std::atomic<bool>> flag_;
};

struct job_spec {
  std::string key_id;  // the circuit's proving key; names the circuit too
  witness_handle witness;
  priority prio = priority::normal;
  std::string idempotency_key;  // empty: none; otherwise a resubmission maps to the existing job
  uint32_t num_partitions = 1;
  ec::curve_id curve = ec::curve_id::bls12_381;  // the key's: which devices may run the job
};

inline constexpr uint32_t max_partitions = 1024;
// invalid_argument naming the field: empty key_id, num_partitions outside [1, max_partitions].
status validate(const job_spec& spec);

struct partition_task {
  job_id job = 0;
  uint32_t partition = 0;
  uint32_t num_partitions = 1;
  priority prio = priority::normal;
  std::string key_id;
  witness_handle witness;
  cancel_token cancel;
  ec::curve_id curve = ec::curve_id::bls12_381;
  uint64_t seq = 0;  // submission order across all jobs; FIFO within a priority
};

enum class job_state : uint8_t { queued, running, succeeded, failed, cancelled };
std::string_view job_state_name(job_state s);
[[nodiscard]] inline bool is_terminal(job_state s) {
  return s == job_state::succeeded || s == job_state::failed || s == job_state::cancelled;
}

}  // namespace pp::engine
