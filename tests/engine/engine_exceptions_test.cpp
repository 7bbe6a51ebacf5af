// No exception leaves an engine worker thread: a backend that throws from start() or finish() fails
// that job with a status naming the exception, and the engine keeps serving other jobs.
#include <gtest/gtest.h>

#include <new>
#include <stdexcept>

#include "engine/engine.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "support/status_matchers.hpp"
#include "tiny_circuit.hpp"

namespace pp::engine {
namespace {

using testing::tiny_circuit;

// Throws from start() (std::bad_alloc) or finish() (std::runtime_error) on the first job only.
class throwing_backend final : public groth16::backend {
 public:
  explicit throwing_backend(bool in_start) : in_start_(in_start) {}
  [[nodiscard]] std::string_view name() const override { return "throwing"; }
  result<groth16::pending_ptr> start(const groth16::prove_request& req) override {
    if (in_start_ && !thrown_.exchange(true)) throw std::bad_alloc();
    return inner_.start(req);
  }
  result<groth16::prove_output> finish(groth16::pending_ptr p) override {
    if (!in_start_ && !thrown_.exchange(true)) throw std::runtime_error("finish exploded");
    return inner_.finish(std::move(p));
  }
  [[nodiscard]] uint64_t host_bytes_per_partition(uint64_t num_variables, uint64_t domain_size) const override {
    return inner_.host_bytes_per_partition(num_variables, domain_size);
  }

 private:
  const bool in_start_;
  std::atomic<bool> thrown_{false};
  groth16::cpu_backend inner_;
};

class throwing_device final : public device {
 public:
  throwing_device(std::string name, bool in_start) : name_(std::move(name)), backend_(in_start) {}
  [[nodiscard]] std::string_view name() const override { return name_; }
  [[nodiscard]] std::string_view kind() const override { return "fake"; }
  [[nodiscard]] groth16::backend& backend() override { return backend_; }

 private:
  std::string name_;
  throwing_backend backend_;
};

job_result run_one(engine& e) {
  submit_request r;
  r.key_id = "tiny";
  r.witnesses.push_back(witness_source::memory(tiny_circuit().witness));
  auto id = e.submit(std::move(r));
  EXPECT_THAT(id, IsOk());
  auto out = e.await(*id, deadline_in(std::chrono::seconds(60)));
  EXPECT_THAT(out, IsOk());
  return std::move(out).value();
}

std::unique_ptr<engine> make(bool in_start) {
  engine_config c;
  c.host_memory_bytes = uint64_t{256} << 20;
  c.make_devices = [in_start]() -> result<std::vector<device_ptr>> {
    std::vector<device_ptr> v;
    v.push_back(std::make_unique<throwing_device>("throw0", in_start));
    return v;
  };
  auto e = engine::create(std::move(c));
  EXPECT_THAT(e, IsOk());
  auto out = std::move(e).value();
  EXPECT_THAT(out->register_key("tiny", memory_key_source{tiny_circuit().pk, tiny_circuit().cs}), IsOk());
  return out;
}

TEST(EngineExceptions, ThrowingStartIsADeviceFaultThatNamesTheException) {
  auto e = make(true);
  const job_result r = run_one(*e);
  EXPECT_NE(r.state, job_state::succeeded);
  const engine_status st = e->status();
  ASSERT_EQ(st.devices.size(), 1u);
  EXPECT_FALSE(st.devices[0].healthy);
  EXPECT_NE(st.devices[0].fault.find("std::bad_alloc"), std::string::npos) << st.devices[0].fault;
}

TEST(EngineExceptions, ThrowingFinishFailsTheJobAndTheEngineKeepsServing) {
  auto e = make(false);
  const job_result r = run_one(*e);
  EXPECT_EQ(r.state, job_state::failed);
  EXPECT_NE(r.error.message().find("finish exploded"), std::string::npos) << r.error.to_string();
  const job_result next = run_one(*e);
  ASSERT_EQ(next.state, job_state::succeeded) << next.error.to_string();
  ASSERT_EQ(next.partitions.size(), 1u);
  EXPECT_THAT(testing::verify_result(tiny_circuit().pk->vk, next.partitions[0]), IsOk());
}

}  // namespace
}  // namespace pp::engine
