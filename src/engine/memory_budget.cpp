// memory_budget: FIFO ticket queue under one mutex; each waiter owns a granted flag, so a release
// hands bytes to exactly the waiters at the head and nobody can overtake them.
#include "engine/memory_budget.hpp"

#include <algorithm>
#include <string>

namespace pp::engine {

memory_reservation::memory_reservation(memory_reservation&& o) noexcept : budget_(o.budget_), bytes_(o.bytes_) {
  o.budget_ = nullptr;
  o.bytes_ = 0;
}

memory_reservation& memory_reservation::operator=(memory_reservation&& o) noexcept {
  if (this != &o) {
    release();
    budget_ = o.budget_;
    bytes_ = o.bytes_;
    o.budget_ = nullptr;
    o.bytes_ = 0;
  }
  return *this;
}

status memory_reservation::shrink_to(uint64_t new_bytes) {
  if (new_bytes > bytes_) {
    return invalid_argument("shrink_to: expected at most " + std::to_string(bytes_) + " bytes, got " +
                            std::to_string(new_bytes));
  }
  const uint64_t freed = bytes_ - new_bytes;
  bytes_ = new_bytes;
  if (budget_ != nullptr && freed > 0) budget_->give_back(freed);
  return ok_status();
}

void memory_reservation::release() {
  if (budget_ != nullptr && bytes_ > 0) budget_->give_back(bytes_);
  budget_ = nullptr;
  bytes_ = 0;
}

void memory_budget::take_locked(uint64_t bytes) {
  in_use_ += bytes;
  peak_ = std::max(peak_, in_use_);
}

void memory_budget::grant_waiters_locked() {
  bool any = false;
  while (!queue_.empty() && queue_.front()->bytes <= total_ - in_use_) {
    waiter* w = queue_.front();
    queue_.pop_front();
    take_locked(w->bytes);
    w->granted = true;
    any = true;
  }
  if (any) cv_.notify_all();
}

void memory_budget::give_back(uint64_t bytes) {
  mutex_lock lock(mu_);
  in_use_ -= bytes;
  grant_waiters_locked();
}

result<memory_reservation> memory_budget::reserve(uint64_t bytes, deadline d) {
  if (bytes > total_) {
    return resource_exhausted("memory budget: " + std::to_string(bytes) + " bytes requested, the budget is " +
                              std::to_string(total_) + " bytes");
  }
  mutex_lock lock(mu_);
  if (queue_.empty() && bytes <= total_ - in_use_) {
    take_locked(bytes);
    return memory_reservation(this, bytes);
  }
  waiter w{bytes};
  queue_.push_back(&w);
  wait_until(cv_, lock, d, [&] { return w.granted; });
  if (!w.granted) {
    queue_.remove(&w);
    // We may have been the head holding back smaller requests that fit now.
    grant_waiters_locked();
    return deadline_exceeded("memory budget: waited for " + std::to_string(bytes) + " bytes (" +
                             std::to_string(in_use_) + " of " + std::to_string(total_) + " in use)");
  }
  return memory_reservation(this, bytes);
}

result<memory_reservation> memory_budget::try_reserve(uint64_t bytes) {
  if (bytes > total_) {
    return resource_exhausted("memory budget: " + std::to_string(bytes) + " bytes requested, the budget is " +
                              std::to_string(total_) + " bytes");
  }
  mutex_lock lock(mu_);
  if (!queue_.empty() || bytes > total_ - in_use_) {
    return unavailable("memory budget: " + std::to_string(bytes) + " bytes do not fit now");
  }
  take_locked(bytes);
  return memory_reservation(this, bytes);
}

memory_budget_stats memory_budget::stats() const {
  mutex_lock lock(mu_);
  return {total_, in_use_, peak_, queue_.size()};
}

}  // namespace pp::engine
