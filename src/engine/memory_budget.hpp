// memory_budget: one host-memory budget (bytes) shared by keys, matrices and in-flight partitions. reserve()
// blocks FIFO-fair until the bytes fit or the deadline passes; the reservation it returns gives bytes back
// when it shrinks or dies, so backpressure replaces out-of-memory (docs/design.md, "Host memory").
#pragma once
#include <condition_variable>
#include <cstdint>
#include <list>

#include "core/mutex.hpp"
#include "core/result.hpp"
#include "core/thread_annotations.hpp"
#include "engine/deadline.hpp"

namespace pp::engine {

class memory_budget;

// Bytes held from a memory_budget; move-only, released on destruction. The budget must outlive it.
class [[nodiscard]] memory_reservation {
 public:
  memory_reservation() = default;
  memory_reservation(memory_reservation&& o) noexcept;
  memory_reservation& operator=(memory_reservation&& o) noexcept;
  memory_reservation(const memory_reservation&) = delete;
  memory_reservation& operator=(const memory_reservation&) = delete;
  ~memory_reservation() { release(); }

  [[nodiscard]] uint64_t bytes() const { return bytes_; }
  // Gives back all but new_bytes (a stage that no longer needs its inputs). invalid_argument if it
  // would grow: growing must queue like any other request.
  status shrink_to(uint64_t new_bytes);
  void release();

 private:
  friend class memory_budget;
  memory_reservation(memory_budget* budget, uint64_t bytes) : budget_(budget), bytes_(bytes) {}
  memory_budget* budget_ = nullptr;
  uint64_t bytes_ = 0;
};

struct memory_budget_stats {
  uint64_t total = 0;
  uint64_t in_use = 0;
  uint64_t peak = 0;  // highest in_use since construction
  size_t waiters = 0;
};

class memory_budget {
 public:
  explicit memory_budget(uint64_t total_bytes) : total_(total_bytes) {}
  memory_budget(const memory_budget&) = delete;
  memory_budget& operator=(const memory_budget&) = delete;

  // Waits in arrival order until `bytes` fit. resource_exhausted at once if bytes > total (it could
  // never fit); deadline_exceeded when the deadline passes first.
  result<memory_reservation> reserve(uint64_t bytes, deadline d) PP_EXCLUDES(mu_);
  // Never waits: unavailable unless the bytes fit now and nobody is queued ahead (a try does not
  // overtake a waiter).
  result<memory_reservation> try_reserve(uint64_t bytes) PP_EXCLUDES(mu_);

  [[nodiscard]] memory_budget_stats stats() const PP_EXCLUDES(mu_);
  [[nodiscard]] uint64_t total() const { return total_; }

 private:
  friend class memory_reservation;
  // Lives on its reserve() caller's stack; granted is read and written under mu_.
  struct waiter {
    uint64_t bytes;
    bool granted = false;
  };
  void give_back(uint64_t bytes) PP_EXCLUDES(mu_);
  void take_locked(uint64_t bytes) PP_REQUIRES(mu_);
  // Grants queued waiters from the head while they fit; stops at the first that does not (FIFO).
  void grant_waiters_locked() PP_REQUIRES(mu_);

  const uint64_t total_;
  mutable mutex mu_;
  std::condition_variable cv_;
  uint64_t in_use_ PP_GUARDED_BY(mu_) = 0;
  uint64_t peak_ PP_GUARDED_BY(mu_) = 0;
  std::list<waiter*> queue_ PP_GUARDED_BY(mu_);
};

}  // namespace pp::engine
