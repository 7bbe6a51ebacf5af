// deadline: the point in time after which a blocking engine call gives up with deadline_exceeded.
// Every blocking wait in the engine (budgets, arenas, queues, keys) takes one, so no caller can hang.
#pragma once
#include <chrono>
#include <condition_variable>

#include "core/mutex.hpp"

namespace pp::engine {

using steady_clock = std::chrono::steady_clock;
using deadline = steady_clock::time_point;

// Waits forever (still woken by the condition).
[[nodiscard]] inline deadline no_deadline() { return deadline::max(); }
[[nodiscard]] inline deadline deadline_in(std::chrono::nanoseconds d) { return steady_clock::now() + d; }
// Already passed: a blocking call becomes a try.
[[nodiscard]] inline deadline immediate() { return deadline::min(); }

// cv.wait_until(pred) that treats no_deadline() as "wait without a timeout" (converting time_point::max
// to the OS clock overflows). Returns pred() at exit. pred runs with lock's mutex held.
template <class Pred>
bool wait_until(std::condition_variable& cv, mutex_lock& lock, deadline d, Pred pred) {
  if (d == no_deadline()) {
    lock.wait(cv, std::move(pred));
    return true;
  }
  return lock.wait_until(cv, d, std::move(pred));
}

}  // namespace pp::engine
