// eventually: polls a condition until it holds; the timeout only guards against a deadlock hanging
// the test run, it is not a timing assertion.
#pragma once
#include <chrono>
#include <thread>

namespace pp::engine::testing {

template <class Pred>
bool eventually(Pred pred, std::chrono::milliseconds guard = std::chrono::seconds(20)) {
  const auto end = std::chrono::steady_clock::now() + guard;
  while (!pred()) {
    if (std::chrono::steady_clock::now() > end) return false;
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return true;
}

}  // namespace pp::engine::testing
