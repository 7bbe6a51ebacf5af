// A fake device for the engine's component tests: its backend's start() and finish() return what
// the test set (a fake pending or an error; a prove_output or an error), count their calls, and
// never touch the request.
#pragma once
#include <atomic>
#include <memory>
#include <string>

#include "core/mutex.hpp"
#include "core/thread_annotations.hpp"
#include "devices/device.hpp"

namespace pp::engine::testing {

class fake_backend final : public groth16::backend {
 public:
  class fake_pending final : public groth16::pending {};

  [[nodiscard]] std::string_view name() const override { return "fake"; }
  result<groth16::pending_ptr> start(const groth16::prove_request&) override {
    ++starts;
    mutex_lock lock(mu_);
    if (!next_.ok()) return next_;
    return groth16::pending_ptr(std::make_unique<fake_pending>());
  }
  result<groth16::prove_output> finish(groth16::pending_ptr) override {
    ++finishes;
    mutex_lock lock(mu_);
    return finish_next_;
  }
  [[nodiscard]] uint64_t host_bytes_per_partition(uint64_t, uint64_t) const override { return 0; }

  // What every later start() returns: ok (a fake pending) or this error.
  void fail_with(status s) {
    mutex_lock lock(mu_);
    next_ = std::move(s);
  }

  // What every later finish() returns: by default an empty proof with no timings.
  void finish_with(result<groth16::prove_output> r) {
    mutex_lock lock(mu_);
    finish_next_ = std::move(r);
  }

  std::atomic<int> starts{0};
  std::atomic<int> finishes{0};

 private:
  mutex mu_;
  status next_ PP_GUARDED_BY(mu_);
  result<groth16::prove_output> finish_next_ PP_GUARDED_BY(mu_) = groth16::prove_output{};
};

class fake_device final : public devices::device {
 public:
  explicit fake_device(std::string name) : name_(std::move(name)) {}
  [[nodiscard]] std::string_view name() const override { return name_; }
  [[nodiscard]] std::string_view kind() const override { return "fake"; }
  [[nodiscard]] groth16::backend& backend() override { return backend_; }
  fake_backend& fake() { return backend_; }

 private:
  std::string name_;
  fake_backend backend_;
};

}  // namespace pp::engine::testing
