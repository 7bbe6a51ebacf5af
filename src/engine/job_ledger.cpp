#include "engine/job_ledger.hpp"

namespace pp::engine {

void job_ledger::started(job_id id) {
  mutex_lock lock(mu_);
  active_.insert(id);
}

std::vector<job_id> job_ledger::ended(job_id id, job_state s) {
  std::vector<job_id> drop;
  mutex_lock lock(mu_);
  active_.erase(id);
  ++(s == job_state::succeeded ? succeeded_ : s == job_state::failed ? failed_ : cancelled_);
  retained_.push_back(id);
  while (retained_.size() > max_retained_) {
    drop.push_back(retained_.front());
    retained_.pop_front();
  }
  changed_.notify_all();
  return drop;
}

std::vector<job_id> job_ledger::in_flight() const {
  mutex_lock lock(mu_);
  return {active_.begin(), active_.end()};
}

job_ledger::counts job_ledger::read() const {
  mutex_lock lock(mu_);
  return {active_.size(), succeeded_, failed_, cancelled_};
}

void job_ledger::wait_drained(deadline until) {
  mutex_lock lock(mu_);
  wait_until(changed_, lock, until, [&]() PP_REQUIRES(mu_) { return active_.empty() || drain_cut_; });
}

void job_ledger::cut_drain() {
  mutex_lock lock(mu_);
  drain_cut_ = true;
  changed_.notify_all();
}

}  // namespace pp::engine
