// turn_order: the order in which a backend's partitions take the GPU's compute, one after another.
// Two lanes whose kernels run side by side drift into step (each partition ends near the other's
// end, then both pack their next witness on the host while the GPU idles: 9% of it at 2^27,
// docs/perf/partition-h200.md); in turns, a partition's kernels are queued behind the previous
// partition's last kernel (a device-side wait on the token it published), so the next one's host
// packing and upload run under the kernels before it. A partition claims its place once it holds a
// workspace, waits for the one before it to publish (it publishes once its last kernel is
// enqueued, well before that kernel ends), and must publish exactly once, after its own wait, on
// every path (compute_turn.hpp does). Turns order work for speed only: lanes never share staging or
// workspaces while both run. Plain C++ (tested on the host).
#pragma once
#include <condition_variable>
#include <cstdint>

#include "core/mutex.hpp"
#include "core/thread_annotations.hpp"

namespace pp::cuda {

template <class Token>
class turn_order {
 public:
  // The next place in the order.
  uint64_t claim() PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    return claimed_++;
  }

  // Blocks until every place before `place` has published; returns the token the one just before
  // published (Token{} for the first place).
  Token wait(uint64_t place) PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    lock.wait(cv_, [&]() PP_REQUIRES(mu_) { return published_ == place; });
    return last_;
  }

  // Ends `place`'s turn (after its wait returned): the next place's wait returns `token`. false,
  // changing nothing, when it is not `place`'s turn (published already, or an earlier one has not).
  bool publish(uint64_t place, Token token) PP_EXCLUDES(mu_) {
    {
      mutex_lock lock(mu_);
      if (published_ != place) return false;
      last_ = token;
      ++published_;
    }
    cv_.notify_all();
    return true;
  }

 private:
  mutex mu_;
  std::condition_variable cv_;
  uint64_t claimed_ PP_GUARDED_BY(mu_) = 0;
  uint64_t published_ PP_GUARDED_BY(mu_) = 0;  // the places below it have published
  Token last_ PP_GUARDED_BY(mu_){};           // what the last of them published
};

}  // namespace pp::cuda
