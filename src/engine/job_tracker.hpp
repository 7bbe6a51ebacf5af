// job_tracker: the book of jobs. Splits a submitted job into partition tasks, re-joins partition
// results in order into one result, and ends every job in exactly one terminal state (succeeded,
// failed, cancelled), reported once to the on_terminal callback. Idempotency keys map a resubmission
// to the existing job. Job ids are random (job_ids.hpp), never a counter that a restart
// would start again. Result is the per-partition output (a proof, in the engine).
#pragma once
#include <condition_variable>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/mutex.hpp"
#include "core/result.hpp"
#include "core/status_macros.hpp"
#include "core/thread_annotations.hpp"
#include "engine/deadline.hpp"
#include "engine/job.hpp"
#include "engine/job_ids.hpp"

namespace pp::engine {

struct job_info {
  job_state state = job_state::queued;
  priority prio = priority::normal;
  uint32_t partitions_done = 0;
  uint32_t num_partitions = 0;
  status error;  // why it failed or was cancelled
};

template <class Result>
class job_tracker {
 public:
  // Called exactly once per job, outside the tracker's lock, when it reaches its terminal state.
  using terminal_callback = std::function<void(job_id, job_state)>;

  struct submitted {
    job_id id = 0;
    bool created = false;               // false: the idempotency key named an existing job
    std::vector<partition_task> tasks;  // empty unless created
  };

  // Where new job ids come from (random_job_id; tests inject clashes). An id still in the book is
  // drawn again, so two retained jobs never share one.
  using id_source = std::function<result<job_id>()>;

  explicit job_tracker(terminal_callback on_terminal = {}, id_source ids = random_job_id)
      : on_terminal_(std::move(on_terminal)), ids_(std::move(ids)) {}
  job_tracker(const job_tracker&) = delete;
  job_tracker& operator=(const job_tracker&) = delete;

  result<submitted> submit(const job_spec& spec) PP_EXCLUDES(mu_) {
    PP_RETURN_IF_ERROR(validate(spec));
    mutex_lock lock(mu_);
    if (!spec.idempotency_key.empty()) {
      if (auto it = by_key_.find(spec.idempotency_key); it != by_key_.end()) {
        const entry& e = jobs_.at(it->second);
        if (e.spec.key_id != spec.key_id || e.spec.num_partitions != spec.num_partitions) {
          return already_exists("job: idempotency key '" + spec.idempotency_key + "' names job " +
                                std::to_string(it->second) + " with a different key or partition count");
        }
        return submitted{it->second, false, {}};
      }
    }
    PP_ASSIGN_OR_RETURN(const job_id id, fresh_id_locked());
    entry& e = jobs_[id];
    e.spec = spec;
    e.parts.resize(spec.num_partitions);
    if (!spec.idempotency_key.empty()) by_key_[spec.idempotency_key] = id;
    submitted out{id, true, {}};
    out.tasks.reserve(spec.num_partitions);
    for (uint32_t p = 0; p < spec.num_partitions; ++p) {
      out.tasks.push_back({id, p, spec.num_partitions, spec.prio, spec.key_id, spec.witness, e.cancel, spec.curve, next_seq_++});
    }
    return out;
  }

  // A worker is about to run a partition: false when the job is terminal (skip the work).
  bool begin_partition(job_id id) PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end() || is_terminal(it->second.info.state)) return false;
    it->second.info.state = job_state::running;
    return true;
  }

  // Records one partition's outcome. The first error fails the job and raises its cancel flag so the
  // other partitions stop. Late results of a terminal job are dropped: failed_precondition.
  status complete_partition(job_id id, uint32_t partition, result<Result> r) PP_EXCLUDES(mu_) {
    std::optional<job_state> ended;
    {
      mutex_lock lock(mu_);
      auto it = jobs_.find(id);
      if (it == jobs_.end()) return not_found("job " + std::to_string(id) + ": unknown");
      entry& e = it->second;
      if (partition >= e.parts.size()) {
        return invalid_argument("job " + std::to_string(id) + ": partition " + std::to_string(partition) +
                                " of " + std::to_string(e.parts.size()));
      }
      if (is_terminal(e.info.state)) {
        return failed_precondition("job " + std::to_string(id) + " is already " +
                                   std::string(job_state_name(e.info.state)));
      }
      if (e.parts[partition]) {
        return already_exists("job " + std::to_string(id) + ": partition " + std::to_string(partition) +
                              " already has a result");
      }
      if (!r.ok()) {
        ended = finish_locked(e, job_state::failed,
                              r.error().with_context("job " + std::to_string(id) + " partition " +
                                                     std::to_string(partition)));
      } else {
        e.parts[partition] = std::move(r).value();
        if (++e.info.partitions_done == e.parts.size()) ended = finish_locked(e, job_state::succeeded, {});
      }
    }
    notify(id, ended);
    return ok_status();
  }

  // Raises the job's cancel flag and ends it as cancelled; the caller also removes its queued tasks
  // (job_queue::cancel, after this, so a blocked push sees the flag). failed_precondition when the
  // job already ended.
  status cancel(job_id id) PP_EXCLUDES(mu_) { return cancel(id, pp::cancelled("job " + std::to_string(id) + " cancelled")); }

  // The same, recording `reason` as the job's error (an engine shutting down says unavailable).
  status cancel(job_id id, status reason) PP_EXCLUDES(mu_) {
    std::optional<job_state> ended;
    {
      mutex_lock lock(mu_);
      auto it = jobs_.find(id);
      if (it == jobs_.end()) return not_found("job " + std::to_string(id) + ": unknown");
      if (is_terminal(it->second.info.state)) {
        return failed_precondition("job " + std::to_string(id) + " is already " +
                                   std::string(job_state_name(it->second.info.state)));
      }
      ended = finish_locked(it->second, job_state::cancelled, std::move(reason));
    }
    notify(id, ended);
    return ok_status();
  }

  [[nodiscard]] result<job_info> info(job_id id) const PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return not_found("job " + std::to_string(id) + ": unknown");
    return it->second.info;
  }

  [[nodiscard]] result<cancel_token> token(job_id id) const PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return not_found("job " + std::to_string(id) + ": unknown");
    return it->second.cancel;
  }

  // Waits for the job to end: the partition results in partition order, or the job's error
  // (cancelled / the failing partition's error). deadline_exceeded if still running at the deadline.
  result<std::vector<Result>> await(job_id id, deadline d) PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    // Look the job up again after every wake-up: forget() may have dropped it meanwhile.
    auto ended = [&]() PP_REQUIRES(mu_) {
      auto it = jobs_.find(id);
      return it == jobs_.end() || is_terminal(it->second.info.state);
    };
    wait_until(done_, lock, d, ended);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return not_found("job " + std::to_string(id) + ": unknown");
    const entry& e = it->second;
    if (!is_terminal(e.info.state)) return deadline_exceeded("job " + std::to_string(id) + " still running");
    if (e.info.state != job_state::succeeded) return e.info.error;
    std::vector<Result> out;
    out.reserve(e.parts.size());
    for (const auto& p : e.parts) out.push_back(*p);
    return out;
  }

  // Drops a terminal job and its idempotency key (retention is the caller's policy).
  status forget(job_id id) PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    auto it = jobs_.find(id);
    if (it == jobs_.end()) return not_found("job " + std::to_string(id) + ": unknown");
    if (!is_terminal(it->second.info.state)) {
      return failed_precondition("job " + std::to_string(id) + " has not ended");
    }
    if (!it->second.spec.idempotency_key.empty()) by_key_.erase(it->second.spec.idempotency_key);
    jobs_.erase(it);
    done_.notify_all();
    return ok_status();
  }

  [[nodiscard]] size_t size() const PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    return jobs_.size();
  }

 private:
  struct entry {
    job_spec spec;
    job_info info;
    cancel_token cancel;
    std::vector<std::optional<Result>> parts;
  };

  result<job_id> fresh_id_locked() PP_REQUIRES(mu_) {
    constexpr int draws = 16;  // a clash is 1 in 2^53 per retained job: 16 in a row is a broken source
    for (int i = 0; i < draws; ++i) {
      PP_ASSIGN_OR_RETURN(const job_id id, ids_());
      if (id != 0 && !jobs_.contains(id)) return id;
    }
    return internal_error("job: " + std::to_string(draws) + " job ids drawn in a row were taken or 0");
  }

  // Single place where a job becomes terminal: is_terminal() guards every caller, so it runs once.
  job_state finish_locked(entry& e, job_state s, status error) PP_REQUIRES(mu_) {
    e.info.state = s;
    e.info.error = std::move(error);
    if (s != job_state::succeeded) {
      e.cancel.cancel();
      e.parts.assign(e.parts.size(), std::nullopt);  // partial results are of no use now
    }
    done_.notify_all();
    return s;
  }

  void notify(job_id id, std::optional<job_state> ended) PP_EXCLUDES(mu_) {
    if (ended && on_terminal_) on_terminal_(id, *ended);
  }

  const terminal_callback on_terminal_;
  const id_source ids_;
  mutable mutex mu_;
  std::condition_variable done_;
  std::map<job_id, entry> jobs_ PP_GUARDED_BY(mu_);
  std::unordered_map<std::string, job_id> by_key_ PP_GUARDED_BY(mu_);
  uint64_t next_seq_ PP_GUARDED_BY(mu_) = 0;
};

}  // namespace pp::engine
