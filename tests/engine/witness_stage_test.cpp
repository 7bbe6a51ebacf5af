// witness_stage (src/engine/witness_stage.hpp) with a fake device and the tiny circuit's key: a
// witness from memory or from a .wtns file reaches the ready queue with its key lease, its memory
// reservation (a file's read under the larger of the partition and the file, then shrunk) and its
// stage timing; a witness of the wrong size, a path that is no regular file, a thrown exception and
// a stop while memory is short fail the partition and free what it held; a cancelled job is skipped
// untouched.
#include "engine/witness_stage.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "engine/key_catalog.hpp"
#include "engine/partition_work.hpp"
#include "formats/circom_wtns.hpp"
#include "stage_rig.hpp"
#include "support/files.hpp"
#include "support/status_matchers.hpp"
#include "tiny_circuit.hpp"

namespace pp::engine {
namespace {

using ::testing::HasSubstr;

using testing::stage_rig;
using testing::stub_backend;
using testing::tiny_circuit;
using testing::tiny_key;

constexpr uint64_t partition_bytes = 1 << 20;  // engine_config::partition_bytes of the rig

// A backend whose host-memory figure throws: an exception inside the witness stage.
class throwing_backend final : public stub_backend {
 public:
  [[nodiscard]] uint64_t host_bytes_per_partition(uint64_t, uint64_t) const override {
    throw std::runtime_error("estimate broke");
  }
};

// The witness stage over one fake device, the tiny key registered, and budgets of `part_budget`
// bytes for partitions. Partition memory is the configured partition_bytes unless `figure` names a
// backend to ask instead.
struct witness_rig : stage_rig {
  explicit witness_rig(uint64_t part_budget = 4 * partition_bytes, const groth16::backend* figure = nullptr)
      : keys_budget(uint64_t{1} << 30),
        parts_budget(part_budget),
        store(keys_budget),
        records(figure ? 0 : partition_bytes, figure ? std::vector{figure} : std::vector<const groth16::backend*>{}),
        stage(*router, tracker, store, records, parts_budget, trace, *metrics, record_failures()) {
    auto d = describe_key("tiny", tiny_key());
    EXPECT_THAT(d, IsOk());
    EXPECT_THAT(store.add(std::move(d).value().descriptor), IsOk());
  }

  // A one-partition job whose witness comes from `source`, admitted to the intake.
  partition_task admit(witness_source source) {
    job_spec spec;
    spec.key_id = "tiny";
    auto sub = tracker.submit(spec);
    EXPECT_THAT(sub, IsOk());
    partition_task t = sub->tasks.at(0);
    auto w = std::make_unique<partition_work>();
    w->key_id = "tiny";
    w->source = std::move(source);
    EXPECT_THAT(router->admit(t, std::move(w), no_deadline()), IsOk());
    return t;
  }

  // Runs the next intake task on this thread.
  void run_next() {
    auto t = router->intake().try_pop();
    ASSERT_TRUE(t.has_value());
    stage.run(std::move(*t), "witness-0");
  }

  // The partition the stage forwarded to the ready queue.
  std::unique_ptr<partition_work> ready_work() {
    auto t = router->ready().try_pop();
    if (!t) return nullptr;
    return router->claim(*t);
  }

  memory_budget keys_budget;
  memory_budget parts_budget;
  key_store store;
  key_records records;
  job_tracker<partition_result> tracker;
  witness_stage stage;
};

std::filesystem::path write_wtns(const std::string& name, const std::vector<ff::fr>& w) {
  const auto path = pp::test::binary_temp_dir("witness_stage") / name;
  EXPECT_THAT(formats::write_circom_wtns_file(w, path), IsOk());
  return path;
}

TEST(WitnessStage, AMemoryWitnessReachesTheReadyQueueWithItsKeyAndMemory) {
  witness_rig rig;
  const partition_task t = rig.admit(witness_source::memory(tiny_circuit().witness));
  rig.run_next();
  ASSERT_TRUE(rig.failed.empty()) << rig.failed[0].error.to_string();
  auto w = rig.ready_work();
  ASSERT_NE(w, nullptr);
  ASSERT_NE(w->key, nullptr);
  ASSERT_NE(w->key->as<ec::bls12_381::family>(), nullptr);
  EXPECT_EQ(w->key->as<ec::bls12_381::family>()->pk, tiny_circuit().pk);
  EXPECT_EQ(w->lease.id(), "tiny");
  EXPECT_EQ(*std::get<witness_ptr<ec::bls12_381::family>>(w->witness), tiny_circuit().witness);
  EXPECT_EQ(w->memory.bytes(), partition_bytes);
  EXPECT_EQ(rig.parts_budget.stats().in_use, partition_bytes);
  ASSERT_EQ(w->stages.size(), 1u);
  EXPECT_EQ(w->stages[0].stage, "witness");
  const auto rec = rig.records.find("tiny");
  ASSERT_TRUE(rec.has_value());
  EXPECT_EQ(rec->num_variables, tiny_circuit().cs->num_variables()) << "the loaded key is recorded";
  const auto events = rig.trace.events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].name, "witness");
  EXPECT_EQ(events[0].track, "witness-0");
  EXPECT_EQ(rig.tracker.info(t.job)->state, job_state::running);
  w.reset();
  EXPECT_EQ(rig.parts_budget.stats().in_use, 0u);
}

TEST(WitnessStage, AFileWitnessIsReadUnderTheLargerReservationThenShrunk) {
  // A partition figure below the file plus its parsed witness: the read holds the larger.
  witness_rig rig;
  const auto path = write_wtns("ok.wtns", tiny_circuit().witness);
  rig.admit(witness_source::file(path));
  rig.run_next();
  ASSERT_TRUE(rig.failed.empty()) << rig.failed[0].error.to_string();
  auto w = rig.ready_work();
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(*std::get<witness_ptr<ec::bls12_381::family>>(w->witness), tiny_circuit().witness);
  EXPECT_EQ(w->memory.bytes(), partition_bytes) << "shrunk to the partition after the read";
  EXPECT_EQ(rig.parts_budget.stats().in_use, partition_bytes);
}

TEST(WitnessStage, AWrongWitnessFailsThePartitionAndFreesItsMemory) {
  witness_rig rig;
  std::vector<ff::fr> bad = tiny_circuit().witness;
  bad.pop_back();  // one value short of the circuit's variables
  const partition_task t = rig.admit(witness_source::memory(bad));
  rig.run_next();
  ASSERT_EQ(rig.failed.size(), 1u);
  EXPECT_EQ(rig.failed[0].job, t.job);
  EXPECT_THAT(rig.failed[0].error.to_string(), HasSubstr("witness for key 'tiny'"));
  EXPECT_EQ(rig.router->ready().size(), 0u);
  EXPECT_EQ(rig.parts_budget.stats().in_use, 0u);
  EXPECT_EQ(rig.store.info("tiny")->in_use, 0u) << "the key lease went with the partition";
}

TEST(WitnessStage, APathThatIsNoRegularFileFailsBeforeMemoryIsReserved) {
  witness_rig rig;
  const auto fifo = pp::test::binary_temp_dir("witness_stage") / "fifo.wtns";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  rig.admit(witness_source::file(fifo));
  rig.admit(witness_source::file(fifo.parent_path() / "missing.wtns"));
  rig.run_next();
  rig.run_next();
  ASSERT_EQ(rig.failed.size(), 2u);
  EXPECT_EQ(rig.failed[0].error.code(), status_code::invalid_argument);
  EXPECT_THAT(rig.failed[0].error.to_string(), HasSubstr("FIFO"));
  EXPECT_EQ(rig.failed[1].error.code(), status_code::not_found);
  EXPECT_THAT(rig.failed[1].error.to_string(), HasSubstr("does not exist (it was there at submit)"));
  EXPECT_EQ(rig.parts_budget.stats().peak, 0u) << "nothing was reserved";
}

TEST(WitnessStage, ACancelledJobIsSkippedUntouched) {
  witness_rig rig;
  const partition_task t = rig.admit(witness_source::memory(tiny_circuit().witness));
  ASSERT_THAT(rig.tracker.cancel(t.job), IsOk());
  rig.run_next();
  EXPECT_TRUE(rig.failed.empty());
  EXPECT_EQ(rig.router->ready().size(), 0u);
  EXPECT_EQ(rig.store.stats().loads, 0u) << "the key was never leased";
  EXPECT_EQ(rig.parts_budget.stats().peak, 0u);
}

TEST(WitnessStage, AnExceptionFailsThePartition) {
  const throwing_backend thrower;
  witness_rig rig(4 * partition_bytes, &thrower);
  rig.admit(witness_source::memory(tiny_circuit().witness));
  rig.run_next();
  ASSERT_EQ(rig.failed.size(), 1u);
  EXPECT_EQ(rig.failed[0].error.code(), status_code::internal);
  EXPECT_THAT(rig.failed[0].error.to_string(), HasSubstr("witness stage: uncaught exception: estimate broke"));
  EXPECT_EQ(rig.router->ready().size(), 0u);
  EXPECT_EQ(rig.store.info("tiny")->in_use, 0u);
}

TEST(WitnessStage, StopEndsAWaitForMemory) {
  witness_rig rig;
  auto all = rig.parts_budget.reserve(rig.parts_budget.total(), no_deadline());  // nothing left
  ASSERT_THAT(all, IsOk());
  rig.admit(witness_source::memory(tiny_circuit().witness));
  std::thread runner([&] { rig.run_next(); });
  rig.stage.stop();
  runner.join();
  ASSERT_EQ(rig.failed.size(), 1u);
  EXPECT_EQ(rig.failed[0].error.code(), status_code::cancelled);
  EXPECT_THAT(rig.failed[0].error.to_string(), HasSubstr("waiting for host memory"));
  EXPECT_EQ(rig.store.info("tiny")->in_use, 0u);
}

}  // namespace
}  // namespace pp::engine
