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
#include "stage_rig.hpp"
#include "support/status_matchers.hpp"
#include "tiny_circuit.hpp"

namespace pp::engine {
namespace {

using ::testing::HasSubstr;

using testing::fake_backend;
using testing::stage_rig;
using testing::stub_backend;
using testing::tiny_circuit;

// A backend whose finish() throws.
class throwing_finish final : public stub_backend {
 public:
  result<groth16::prove_output> finish(groth16::pending_ptr) override { throw std::runtime_error("assembly broke"); }
};

// The finish stage over one device (a fake one unless given) and the tiny circuit's key.
struct finish_rig : stage_rig {
  explicit finish_rig(std::unique_ptr<devices::device> dev = std::make_unique<testing::fake_device>("fake0"))
      : stage_rig(std::move(dev)), budget(1 << 20), stage(*router, tracker, trace, *metrics, record_failures()) {
    key.value = memory_key_source{tiny_circuit().pk, tiny_circuit().cs};
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
    stage.run(std::move(*t), "finish-0");
  }

  memory_budget budget;
  loaded_key key;
  job_tracker<partition_result> tracker;
  finish_stage stage;
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
  EXPECT_EQ(p.curve(), ec::curve_id::bls12_381);
  const auto* proved = p.as<ec::bls12_381::family>();
  ASSERT_NE(proved, nullptr);
  EXPECT_EQ(proved->proof.a, out.pi.a);
  const auto& w = tiny_circuit().witness;
  const size_t n_public = tiny_circuit().pk->n_public();
  ASSERT_EQ(proved->public_inputs.size(), n_public);
  EXPECT_TRUE(std::equal(proved->public_inputs.begin(), proved->public_inputs.end(), w.begin() + 1)) << "w[1..n_public]";
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
  EXPECT_NE(rig.metrics_text().find("pp_partitions_total{result=\"ok\"} 1"), std::string::npos);
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
  finish_rig rig(std::make_unique<testing::device_of<throwing_finish>>("fake0"));
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
