// finish_stage (src/engine/finish_stage.hpp) on a fake device: a started partition becomes its
// partition_result (proof, public inputs, the three stage timings, the backend's steps, device,
// attempts), its memory is given back before the job completes, the backend's spans land on the
// device's tracks; an error or exception from finish() fails the partition; a cancelled job is
// skipped without calling the backend.
#include "engine/finish_stage.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <vector>

#include "engine/key_catalog.hpp"
#include "engine/partition_work.hpp"
#include "fake_device.hpp"
#include "support/status_matchers.hpp"
#include "tiny_circuit.hpp"

namespace pp::engine {
namespace {

using ::testing::HasSubstr;

using testing::fake_backend;
using testing::fake_device;
using testing::tiny_circuit;

int64_t zero_clock() { return 0; }

struct failure {
  job_id job;
  uint32_t partition;
  status error;
};

// A fake device whose backend's finish() throws.
class throwing_finish final : public groth16::backend {
 public:
  [[nodiscard]] std::string_view name() const override { return "throwing"; }
  result<groth16::pending_ptr> start(const groth16::prove_request&) override { return unimplemented("start"); }
  result<groth16::prove_output> finish(groth16::pending_ptr) override { throw std::runtime_error("assembly broke"); }
  [[nodiscard]] uint64_t host_bytes_per_partition(uint64_t, uint64_t) const override { return 0; }
};

class throwing_device final : public devices::device {
 public:
  [[nodiscard]] std::string_view name() const override { return "fake0"; }
  [[nodiscard]] std::string_view kind() const override { return "fake"; }
  [[nodiscard]] groth16::backend& backend() override { return backend_; }

 private:
  throwing_finish backend_;
};

// The finish stage over one device and the tiny circuit's key.
struct finish_rig {
  explicit finish_rig(std::unique_ptr<devices::device> dev = std::make_unique<fake_device>("fake0")) : budget(1 << 20) {
    if (auto* f = dynamic_cast<fake_device*>(dev.get())) backend = &f->fake();
    slot = std::make_unique<device_slot>(std::move(dev), 1, 1, zero_clock);
    router = std::make_unique<partition_router>(partition_router::capacities{8, 8, 8}, std::vector{slot.get()},
                                                partition_router::hooks{.fail = {}, .cancel_job = {}});
    metrics = std::move(engine_metrics::create()).value();
    stage = std::make_unique<finish_stage>(*router, tracker, trace, *metrics, [this](const partition_task& t, status e) {
      failed.push_back({t.job, t.partition, std::move(e)});
    });
    key.pk = tiny_circuit().pk;
    key.cs = tiny_circuit().cs;
  }

  // A one-partition job, its partition through the witness and device stages (as they leave it)
  // and queued for the finish stage.
  partition_task queue() {
    job_spec spec;
    spec.key_id = "tiny";
    auto sub = tracker.submit(spec);
    EXPECT_THAT(sub, IsOk());
    partition_task t = sub->tasks.at(0);
    EXPECT_TRUE(tracker.begin_partition(t.job));
    auto w = std::make_unique<partition_work>();
    w->key_id = "tiny";
    w->key = &key;
    w->witness = std::make_shared<const std::vector<ff::fr>>(tiny_circuit().witness);
    auto mem = budget.reserve(1000, no_deadline());
    EXPECT_THAT(mem, IsOk());
    w->memory = std::move(mem).value();
    w->stages = {{"witness", {}, {}}, {"device", {}, {}}};
    w->device = slot.get();
    w->pending = std::make_unique<fake_backend::fake_pending>();
    w->attempts = 2;
    router->forward(router->finish(), t, std::move(w));
    return t;
  }

  // Runs the next finish-queue task on this thread.
  void run_next() {
    auto t = router->finish().try_pop();
    ASSERT_TRUE(t.has_value());
    stage->run(std::move(*t), "finish-0");
  }

  memory_budget budget;
  loaded_key key;
  job_tracker<partition_result> tracker;
  fake_backend* backend = nullptr;
  std::unique_ptr<device_slot> slot;
  std::unique_ptr<partition_router> router;
  trace_recorder trace;
  std::unique_ptr<engine_metrics> metrics;
  std::unique_ptr<finish_stage> stage;
  std::vector<failure> failed;  // written by the stage, read after it ran on the test's thread
};

TEST(FinishStage, AFinishedPartitionCompletesItsJobWithItsResult) {
  finish_rig rig;
  groth16::prove_output out;
  out.pi.a = tiny_circuit().pk->vk.alpha_g1;
  out.timings.add("assemble", std::chrono::milliseconds(3));
  const auto now = std::chrono::steady_clock::now();
  out.timings.spans.push_back({"msm_h", "lane0/compute", now - std::chrono::milliseconds(5), now});
  rig.backend->finish_with(out);
  const partition_task t = rig.queue();
  rig.run_next();
  ASSERT_TRUE(rig.failed.empty()) << rig.failed[0].error.to_string();
  EXPECT_EQ(rig.backend->finishes.load(), 1);
  EXPECT_EQ(rig.budget.stats().in_use, 0u) << "the partition's memory is back";
  auto r = rig.tracker.await(t.job, immediate());
  ASSERT_THAT(r, IsOk());
  ASSERT_EQ(r->size(), 1u);
  const partition_result& p = (*r)[0];
  EXPECT_EQ(p.proof.a, out.pi.a);
  const auto& w = tiny_circuit().witness;
  const size_t n_public = tiny_circuit().pk->n_public();
  ASSERT_EQ(p.public_inputs.size(), n_public);
  EXPECT_TRUE(std::equal(p.public_inputs.begin(), p.public_inputs.end(), w.begin() + 1)) << "w[1..n_public]";
  ASSERT_EQ(p.stages.size(), 3u);
  EXPECT_EQ(p.stages[2].stage, "finish");
  ASSERT_EQ(p.backend_steps.size(), 1u);
  EXPECT_EQ(p.backend_steps[0].stage, "assemble");
  EXPECT_EQ(p.backend_steps[0].elapsed, std::chrono::milliseconds(3));
  EXPECT_EQ(p.device, "fake0");
  EXPECT_EQ(p.attempts, 2u);
  const auto events = rig.trace.events();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].name, "finish");
  EXPECT_EQ(events[0].track, "finish-0");
  EXPECT_EQ(events[1].name, "msm_h");
  EXPECT_EQ(events[1].track, "fake0/lane0/compute");
  EXPECT_NE(rig.metrics->render(engine_status{}).find("pp_partitions_total{result=\"ok\"} 1"), std::string::npos);
}

TEST(FinishStage, AnErrorFromFinishFailsThePartition) {
  finish_rig rig;
  rig.backend->finish_with(internal_error("verification failed"));
  const partition_task t = rig.queue();
  rig.run_next();
  ASSERT_EQ(rig.failed.size(), 1u);
  EXPECT_EQ(rig.failed[0].job, t.job);
  EXPECT_EQ(rig.failed[0].error.code(), status_code::internal);
  EXPECT_THAT(rig.failed[0].error.to_string(), HasSubstr("finishing on fake0"));
  EXPECT_EQ(rig.tracker.info(t.job)->state, job_state::running) << "the owner ends the job (fail hook)";
  EXPECT_EQ(rig.budget.stats().in_use, 0u);
}

TEST(FinishStage, AnExceptionFromFinishFailsThePartition) {
  finish_rig rig(std::make_unique<throwing_device>());
  rig.queue();
  rig.run_next();
  ASSERT_EQ(rig.failed.size(), 1u);
  EXPECT_EQ(rig.failed[0].error.code(), status_code::internal);
  EXPECT_THAT(rig.failed[0].error.to_string(), HasSubstr("finish: uncaught exception: assembly broke"));
}

TEST(FinishStage, ACancelledJobIsSkippedWithoutTheBackend) {
  finish_rig rig;
  const partition_task t = rig.queue();
  ASSERT_THAT(rig.tracker.cancel(t.job), IsOk());
  rig.run_next();
  EXPECT_EQ(rig.backend->finishes.load(), 0);
  EXPECT_TRUE(rig.failed.empty());
  EXPECT_EQ(rig.budget.stats().in_use, 0u) << "dropped with its state";
}

}  // namespace
}  // namespace pp::engine
