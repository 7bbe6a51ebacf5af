// partition_router (src/engine/partition_router.hpp) on fake devices: admission and claiming of
// parked state, placement on healthy devices only, failing ready work when no device is left, the
// cancel hook when a device's inbox refuses a task, purging a job from every queue, CRITICAL tasks
// served by a witness thread blocked on a full queue, and close(). Orderings, never timings.
#include "engine/partition_router.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <thread>
#include <vector>

#include "eventually.hpp"
#include "fake_device.hpp"
#include "support/status_matchers.hpp"

namespace pp::engine {
namespace {

using ::testing::Not;

using testing::eventually;
using testing::failure;
using testing::fake_device;
using testing::zero_clock;

partition_task task(job_id job, uint32_t partition, priority prio = priority::normal, uint64_t seq = 0) {
  partition_task t;
  t.job = job;
  t.partition = partition;
  t.prio = prio;
  t.key_id = "k";
  t.seq = seq != 0 ? seq : job * 100 + partition;
  return t;
}

std::unique_ptr<partition_work> work() { return std::make_unique<partition_work>(); }

// A router over `n` fake devices (one worker, inbox depth 1 each) that records what it asks of its
// owner.
struct router_rig {
  explicit router_rig(size_t n, partition_router::capacities caps = {8, 8, 8}) {
    for (size_t i = 0; i < n; ++i) {
      slots.push_back(std::make_unique<device_slot>(std::make_unique<fake_device>("fake" + std::to_string(i)), 1, 1,
                                                    zero_clock));
      ptrs.push_back(slots.back().get());
    }
    router = std::make_unique<partition_router>(
        caps, ptrs,
        partition_router::hooks{.fail = [this](const partition_task& t, status e) {
                                  mutex_lock lock(mu);
                                  failed.push_back({t.job, t.partition, std::move(e)});
                                },
                                .cancel_job = [this](job_id id, status e) {
                                  mutex_lock lock(mu);
                                  cancelled.push_back({id, 0, std::move(e)});
                                }});
  }
  std::vector<std::unique_ptr<device_slot>> slots;
  std::vector<device_slot*> ptrs;
  std::unique_ptr<partition_router> router;
  mutex mu;
  std::vector<failure> failed PP_GUARDED_BY(mu);
  std::vector<failure> cancelled PP_GUARDED_BY(mu);
};

TEST(PartitionRouter, AdmittedStateIsClaimedOnce) {
  router_rig rig(1);
  auto w = work();
  w->key_id = "k";
  ASSERT_THAT(rig.router->admit(task(1, 0), std::move(w), no_deadline()), IsOk());
  EXPECT_EQ(rig.router->intake().size(), 1u);
  EXPECT_EQ(rig.router->parked(), 1u);
  auto t = rig.router->intake().try_pop();
  ASSERT_TRUE(t.has_value());
  auto claimed = rig.router->claim(*t);
  ASSERT_NE(claimed, nullptr);
  EXPECT_EQ(claimed->key_id, "k");
  EXPECT_EQ(rig.router->claim(*t), nullptr) << "a second claim must find nothing";
  EXPECT_EQ(rig.router->parked(), 0u);
}

TEST(PartitionRouter, AdmitOnAFullIntakeKeepsTheStateForPurge) {
  router_rig rig(1, {1, 8, 8});
  ASSERT_THAT(rig.router->admit(task(1, 0), work(), no_deadline()), IsOk());
  const status s = rig.router->admit(task(2, 0), work(), immediate());
  EXPECT_EQ(s.code(), status_code::deadline_exceeded);
  EXPECT_EQ(rig.router->parked(), 2u);
  rig.router->purge(2);
  EXPECT_EQ(rig.router->parked(), 1u);
  EXPECT_EQ(rig.router->intake().size(), 1u) << "job 1 must stay queued";
}

TEST(PartitionRouter, PlacesReadyTasksOnHealthyDevicesOnly) {
  router_rig rig(2);
  rig.slots[0]->mark_faulty("broken");
  rig.router->forward(rig.router->ready(), task(1, 0), work());
  rig.router->forward(rig.router->ready(), task(1, 1), work());
  EXPECT_TRUE(rig.router->place_one());
  EXPECT_TRUE(rig.router->place_one());
  EXPECT_FALSE(rig.router->place_one()) << "nothing left to place";
  EXPECT_EQ(rig.slots[0]->inbox().size(), 0u);
  EXPECT_EQ(rig.slots[1]->inbox().size(), 2u);
  EXPECT_EQ(rig.slots[1]->read().queued, 2u);
  EXPECT_EQ(rig.router->parked(), 2u) << "placing moves the task; its state stays parked for the device stage";
}

TEST(PartitionRouter, AFullDeviceHoldsNormalWorkInTheReadyQueue) {
  router_rig rig(1);  // load limit: 1 worker + depth 1
  for (uint32_t p = 0; p < 3; ++p) rig.router->forward(rig.router->ready(), task(1, p), work());
  EXPECT_TRUE(rig.router->place_one());
  EXPECT_TRUE(rig.router->place_one());
  EXPECT_FALSE(rig.router->place_one());
  EXPECT_EQ(rig.router->ready().size(), 1u);
  EXPECT_EQ(rig.slots[0]->inbox().size(), 2u);
}

TEST(PartitionRouter, ATaskWhoseCurveNoHealthyDeviceProvesFailsAndTheRestArePlaced) {
  router_rig rig(2);  // fake devices: BLS12-381 only
  partition_task bn = task(3, 0);
  bn.curve = ec::curve_id::bn254;
  rig.router->forward(rig.router->ready(), std::move(bn), work());
  rig.router->forward(rig.router->ready(), task(4, 0), work());
  EXPECT_TRUE(rig.router->place_one());
  EXPECT_EQ(rig.router->ready().size(), 0u);
  EXPECT_EQ(rig.slots[0]->inbox().size() + rig.slots[1]->inbox().size(), 1u) << "the BLS12-381 task is placed";
  mutex_lock lock(rig.mu);
  ASSERT_EQ(rig.failed.size(), 1u);
  EXPECT_EQ(rig.failed[0].job, 3u);
  EXPECT_EQ(rig.failed[0].error.code(), status_code::unavailable);
  EXPECT_NE(rig.failed[0].error.message().find("BN254 (bn128)"), std::string::npos) << rig.failed[0].error.message();
}

TEST(PartitionRouter, NoHealthyDeviceFailsWhatIsReady) {
  router_rig rig(2);
  rig.slots[0]->mark_faulty("a");
  rig.slots[1]->mark_faulty("b");
  rig.router->forward(rig.router->ready(), task(7, 0), work());
  rig.router->forward(rig.router->ready(), task(7, 1), work());
  EXPECT_FALSE(rig.router->place_one());
  EXPECT_EQ(rig.router->ready().size(), 0u);
  mutex_lock lock(rig.mu);
  ASSERT_EQ(rig.failed.size(), 2u);
  for (const auto& f : rig.failed) {
    EXPECT_EQ(f.job, 7u);
    EXPECT_EQ(f.error.code(), status_code::unavailable);
    EXPECT_NE(f.error.message().find("no healthy device"), std::string::npos) << f.error.message();
  }
}

TEST(PartitionRouter, AnInboxThatRefusesTheTaskCancelsItsJob) {
  router_rig rig(1);
  partition_task t = task(3, 0);
  const cancel_token token = t.cancel;
  rig.router->forward(rig.router->ready(), std::move(t), work());
  token.cancel();  // the inbox's push now refuses the task (its job was cancelled)
  EXPECT_TRUE(rig.router->place_one());
  EXPECT_EQ(rig.slots[0]->inbox().size(), 0u);
  EXPECT_EQ(rig.slots[0]->read().queued, 0u) << "the device's load must be given back";
  EXPECT_EQ(rig.router->parked(), 0u);
  mutex_lock lock(rig.mu);
  ASSERT_EQ(rig.cancelled.size(), 1u);
  EXPECT_EQ(rig.cancelled[0].job, 3u);
  EXPECT_EQ(rig.cancelled[0].error.code(), status_code::internal);
}

TEST(PartitionRouter, PurgeRemovesAJobFromEveryQueue) {
  router_rig rig(1);
  ASSERT_THAT(rig.router->admit(task(1, 0), work(), no_deadline()), IsOk());
  ASSERT_THAT(rig.router->admit(task(2, 0), work(), no_deadline()), IsOk());
  rig.router->forward(rig.router->ready(), task(1, 1), work());
  ASSERT_TRUE(rig.router->place_one());  // job 1 partition 1 on the device
  rig.router->forward(rig.router->ready(), task(1, 2), work());
  rig.router->forward(rig.router->finish(), task(1, 3), work());
  ASSERT_EQ(rig.slots[0]->read().queued, 1u);
  ASSERT_EQ(rig.router->parked(), 5u);

  rig.router->purge(1);
  EXPECT_EQ(rig.router->intake().size(), 1u) << "job 2 stays";
  EXPECT_EQ(rig.router->ready().size(), 0u);
  EXPECT_EQ(rig.router->finish().size(), 0u);
  EXPECT_EQ(rig.slots[0]->inbox().size(), 0u);
  EXPECT_EQ(rig.slots[0]->read().queued, 0u);
  EXPECT_EQ(rig.router->parked(), 1u);
  auto left = rig.router->intake().try_pop();
  ASSERT_TRUE(left.has_value());
  EXPECT_EQ(left->job, 2u);
}

TEST(PartitionRouter, ForwardToAClosedQueueDropsTheState) {
  router_rig rig(1);
  rig.router->close();
  rig.router->forward(rig.router->ready(), task(1, 0), work());
  EXPECT_EQ(rig.router->parked(), 0u);
  EXPECT_THAT(rig.router->admit(task(2, 0), work(), no_deadline()), Not(IsOk()));
}

TEST(PartitionRouter, ABlockedWitnessThreadServesCriticalIntake) {
  router_rig rig(1, {8, 1, 8});
  rig.router->forward(rig.router->ready(), task(1, 0), work());  // the ready queue is now full
  ASSERT_THAT(rig.router->admit(task(9, 0, priority::critical), work(), no_deadline()), IsOk());
  ASSERT_THAT(rig.router->admit(task(2, 0, priority::normal), work(), no_deadline()), IsOk());

  std::atomic<int> served{0};
  std::atomic<job_id> served_job{0};
  const partition_router::serve_fn serve = [&](partition_task t) {
    served_job = t.job;
    auto w = rig.router->claim(t);
    EXPECT_NE(w, nullptr);
    ++served;
  };
  std::thread witness([&] { rig.router->forward(rig.router->ready(), task(1, 1), work(), &serve); });
  EXPECT_TRUE(eventually([&] { return served.load() == 1; }));
  EXPECT_EQ(served_job.load(), 9u);
  EXPECT_EQ(rig.router->intake().size(), 1u) << "NORMAL intake work is not served from a blocked forward";
  ASSERT_TRUE(rig.router->ready().try_pop().has_value());  // room: the blocked forward completes
  witness.join();
  EXPECT_EQ(served.load(), 1);
  auto t = rig.router->ready().try_pop();
  ASSERT_TRUE(t.has_value());
  EXPECT_EQ(t->partition, 1u);
}

TEST(PartitionRouter, ACriticalForwardNeverWaitsOrServes) {
  router_rig rig(1, {8, 1, 8});
  rig.router->forward(rig.router->ready(), task(1, 0), work());
  std::atomic<int> served{0};
  const partition_router::serve_fn serve = [&](partition_task) { ++served; };
  rig.router->forward(rig.router->ready(), task(9, 0, priority::critical), work(), &serve);
  EXPECT_EQ(served.load(), 0);
  EXPECT_EQ(rig.router->ready().size(), 2u);
  auto first = rig.router->ready().try_pop();
  ASSERT_TRUE(first.has_value());
  EXPECT_EQ(first->job, 9u) << "CRITICAL pops first";
}

TEST(PartitionRouter, PlacementRunsUntilClosed) {
  router_rig rig(1);
  std::thread placer([&] { rig.router->run_placement(); });
  rig.router->forward(rig.router->ready(), task(1, 0), work());
  EXPECT_TRUE(eventually([&] { return rig.slots[0]->inbox().size() == 1; }));
  rig.router->close();
  placer.join();
  EXPECT_THAT(rig.slots[0]->inbox().push(task(2, 0), immediate()), Not(IsOk())) << "close() closes the inboxes too";
}

}  // namespace
}  // namespace pp::engine
