// Fakes for the engine's component tests: stub_backend (every call refused) for a test backend to
// override from; fake_backend, whose start(), start_together() and finish() return what the test
// set (fake pendings or an error; a prove_output or an error), count their calls (and the sizes of
// the batches) and never touch the request; and
// device_of<Backend>, a device around either. A clock that stands still for the device slots, and
// the record of a partition a component failed.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "core/mutex.hpp"
#include "core/thread_annotations.hpp"
#include "devices/device.hpp"
#include "engine/job.hpp"

namespace pp::engine::testing {

class stub_backend : public groth16::backend {
 public:
  [[nodiscard]] std::string_view name() const override { return "stub"; }
  result<groth16::pending_ptr> start(const groth16::prove_request&) override { return unimplemented("stub start"); }
  result<groth16::prove_output> finish(groth16::pending_ptr) override { return unimplemented("stub finish"); }
  [[nodiscard]] uint64_t host_bytes_per_partition(uint64_t, uint64_t) const override { return 0; }
};

class fake_backend final : public stub_backend {
 public:
  class fake_pending final : public groth16::pending {};

  [[nodiscard]] std::string_view name() const override { return "fake"; }
  result<groth16::pending_ptr> start(const groth16::prove_request&) override {
    ++starts;
    mutex_lock lock(mu_);
    if (!next_.ok()) return next_;
    return groth16::pending_ptr(std::make_unique<fake_pending>());
  }
  [[nodiscard]] size_t partitions_together() const override { return together_most.load(); }
  result<std::vector<groth16::pending_ptr>> start_together(std::span<const groth16::prove_request> reqs) override {
    mutex_lock lock(mu_);
    together_sizes_.push_back(reqs.size());
    if (!together_next_.ok()) return together_next_;
    if (reqs.size() > together_fits_) {
      return resource_exhausted(std::to_string(reqs.size()) + " partitions together do not fit");
    }
    std::vector<groth16::pending_ptr> out;
    for (size_t i = 0; i < reqs.size(); ++i) out.push_back(std::make_unique<fake_pending>());
    return out;
  }
  result<groth16::prove_output> finish(groth16::pending_ptr) override {
    ++finishes;
    mutex_lock lock(mu_);
    return finish_next_;
  }

  // What every later start() returns: ok (a fake pending) or this error.
  void fail_with(status s) {
    mutex_lock lock(mu_);
    next_ = std::move(s);
  }
  // What every later start_together() returns: ok (a fake pending each) or this error.
  void fail_together_with(status s) {
    mutex_lock lock(mu_);
    together_next_ = std::move(s);
  }
  // Later start_together() calls of more than n are refused (resource_exhausted).
  void fit_together(size_t n) {
    mutex_lock lock(mu_);
    together_fits_ = n;
  }
  // The size of each start_together() call so far.
  std::vector<size_t> together_sizes() {
    mutex_lock lock(mu_);
    return together_sizes_;
  }
  // What every later finish() returns: by default an empty proof with no timings.
  void finish_with(result<groth16::prove_output> r) {
    mutex_lock lock(mu_);
    finish_next_ = std::move(r);
  }

  std::atomic<int> starts{0};
  std::atomic<int> finishes{0};
  std::atomic<size_t> together_most{1};  // partitions_together(): set before the device is in a slot

 private:
  mutex mu_;
  status next_ PP_GUARDED_BY(mu_);
  status together_next_ PP_GUARDED_BY(mu_);
  std::vector<size_t> together_sizes_ PP_GUARDED_BY(mu_);
  size_t together_fits_ PP_GUARDED_BY(mu_) = SIZE_MAX;
  result<groth16::prove_output> finish_next_ PP_GUARDED_BY(mu_) = groth16::prove_output{};
};

// A device of kind "fake" around a default-constructed Backend.
template <class Backend>
class device_of final : public devices::device {
 public:
  explicit device_of(std::string name) : name_(std::move(name)) {}
  [[nodiscard]] std::string_view name() const override { return name_; }
  [[nodiscard]] std::string_view kind() const override { return "fake"; }
  [[nodiscard]] groth16::backend& backend() override { return backend_; }
  Backend& impl() { return backend_; }

 private:
  std::string name_;
  Backend backend_;
};

using fake_device = device_of<fake_backend>;

// The device slots' clock in tests that measure no busy time.
inline int64_t zero_clock() { return 0; }

// A partition a component failed (or a job it cancelled: partition 0), with the error.
struct failure {
  job_id job;
  uint32_t partition;
  status error;
};

}  // namespace pp::engine::testing
