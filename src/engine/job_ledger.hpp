// job_ledger: the engine's account of its jobs: which are in flight (submitted, not yet terminal),
// how many ended in each terminal state, and which terminal jobs are still retained for await()
// (engine_config::max_retained_jobs, the oldest given up first). shutdown() drains on it: it waits
// until no job is in flight, its deadline passes, or a second, non-draining shutdown cuts the drain
// short. Thread-safe.
#pragma once
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <set>
#include <vector>

#include "core/mutex.hpp"
#include "core/thread_annotations.hpp"
#include "engine/deadline.hpp"
#include "engine/job.hpp"

namespace pp::engine {

class job_ledger {
 public:
  struct counts {
    size_t in_flight = 0;
    uint64_t succeeded = 0, failed = 0, cancelled = 0;
  };

  explicit job_ledger(size_t max_retained) : max_retained_(max_retained) {}
  job_ledger(const job_ledger&) = delete;
  job_ledger& operator=(const job_ledger&) = delete;

  // A job was created.
  void started(job_id id) PP_EXCLUDES(mu_);
  // The job reached terminal state `s`. Returns the jobs no longer retained, oldest first: the
  // caller forgets them in the job_tracker.
  [[nodiscard]] std::vector<job_id> ended(job_id id, job_state s) PP_EXCLUDES(mu_);

  [[nodiscard]] std::vector<job_id> in_flight() const PP_EXCLUDES(mu_);
  [[nodiscard]] counts read() const PP_EXCLUDES(mu_);

  // Waits until no job is in flight, `until` passes, or cut_drain() is (or was) called.
  void wait_drained(deadline until) PP_EXCLUDES(mu_);
  void cut_drain() PP_EXCLUDES(mu_);

 private:
  const size_t max_retained_;
  mutable mutex mu_;
  std::condition_variable changed_;
  std::set<job_id> active_ PP_GUARDED_BY(mu_);
  std::deque<job_id> retained_ PP_GUARDED_BY(mu_);
  uint64_t succeeded_ PP_GUARDED_BY(mu_) = 0;
  uint64_t failed_ PP_GUARDED_BY(mu_) = 0;
  uint64_t cancelled_ PP_GUARDED_BY(mu_) = 0;
  bool drain_cut_ PP_GUARDED_BY(mu_) = false;
};

}  // namespace pp::engine
