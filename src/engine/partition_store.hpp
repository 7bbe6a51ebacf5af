// partition_store: who owns a partition's in-flight state (its witness, memory reservation, key
// lease, pending proof) while its task sits in a queue. A stage put()s the state, then pushes the
// task; the next stage claim()s it after popping. Cancelling a job erases whatever is parked
// (releasing memory and leases at once); a stage that claims nothing skips the task. A stage must
// put() before pushing so a cancel that comes in between finds the state (see partition_router.cpp).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "core/mutex.hpp"
#include "core/thread_annotations.hpp"
#include "engine/job.hpp"

namespace pp::engine {

template <class Work>
class partition_store {
 public:
  void put(job_id job, uint32_t partition, std::unique_ptr<Work> w) PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    items_[{job, partition}] = std::move(w);
  }
  // The parked state, or null if the job was cancelled meanwhile.
  std::unique_ptr<Work> claim(job_id job, uint32_t partition) PP_EXCLUDES(mu_) {
    std::unique_ptr<Work> out;
    mutex_lock lock(mu_);
    auto it = items_.find({job, partition});
    if (it == items_.end()) return out;
    out = std::move(it->second);
    items_.erase(it);
    return out;
  }
  // Drops every parked partition of the job; returns how many. Destruction runs outside the lock.
  size_t erase_job(job_id job) PP_EXCLUDES(mu_) {
    std::vector<std::unique_ptr<Work>> dead;
    {
      mutex_lock lock(mu_);
      auto it = items_.lower_bound({job, 0});
      while (it != items_.end() && it->first.first == job) {
        dead.push_back(std::move(it->second));
        it = items_.erase(it);
      }
    }
    return dead.size();
  }
  [[nodiscard]] size_t size() const PP_EXCLUDES(mu_) {
    mutex_lock lock(mu_);
    return items_.size();
  }

 private:
  mutable mutex mu_;
  std::map<std::pair<job_id, uint32_t>, std::unique_ptr<Work>> items_ PP_GUARDED_BY(mu_);
};

}  // namespace pp::engine
