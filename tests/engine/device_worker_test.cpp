// device_worker (src/engine/device_worker.hpp) on a fake device: a started partition goes to the
// finish queue with its pending proof; a device fault takes the device out of rotation and sends
// the partition back to the ready queue, until max_attempts fails it; a request error fails it and
// leaves the device in rotation; a device that left rotation or a cancelled job never reaches the
// backend; exceptions from start() are device faults; loop() ends when the inbox closes. Partitions
// taken together: those of the key queued right behind, up to what slot and backend take, in one
// start_together(); refused, each alone (and one fewer of the key together from then on where that
// many did not fit, one at a time where the key is never taken together, nothing remembered where a
// request was bad; a refusal never raises what another worker's lowered); a device fault of the batch
// is every partition's.
#include "engine/device_worker.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <future>
#include <memory>
#include <set>
#include <span>
#include <stdexcept>
#include <thread>
#include <vector>

#include "stage_rig.hpp"
#include "support/status_matchers.hpp"

namespace pp::engine {
namespace {

using testing::stage_rig;
using testing::stub_backend;

// One fake device (one worker, an inbox of 4) and the router and worker around it. A task is queued
// as the placement would queue it: its state parked, the task in the device's inbox, the load counted.
struct worker_rig : stage_rig {
  explicit worker_rig(uint32_t max_attempts = 3,
                      std::unique_ptr<devices::device> dev = std::make_unique<testing::fake_device>("fake0"),
                      uint32_t partitions_together = 1, std::chrono::milliseconds together_wait = {})
      : stage_rig(std::move(dev), 4, partitions_together),
        worker(*slot, *router, trace, *metrics,
               device_worker::options{.self_verify = false, .max_attempts = max_attempts, .together_wait = together_wait},
               record_failures()) {}

  partition_task queue(job_id job, uint32_t attempts_so_far = 0, const std::string& key_id = "k") {
    partition_task t;
    t.job = job;
    t.key_id = key_id;
    t.seq = job;
    auto w = std::make_unique<partition_work>();
    w->key = &key;
    w->witness = std::make_shared<const std::vector<ff::fr>>();
    w->attempts = attempts_so_far;
    // Parked as the ready stage parks it; taken out of the ready queue as the placement does.
    router->forward(router->ready(), t, std::move(w));
    auto taken = router->ready().take(job, 0);
    EXPECT_TRUE(taken.has_value());
    slot->placed();
    EXPECT_THAT(slot->inbox().push(*taken, no_deadline()), IsOk());
    return *taken;
  }

  // Runs the next inbox task on this thread.
  void run_next() {
    auto t = slot->inbox().try_pop();
    ASSERT_TRUE(t.has_value());
    worker.run(std::move(*t), std::string(slot->name()) + "/w0");
  }

  loaded_key key;  // null key and circuit: the fake backend never reads the request
  device_worker worker;
};

TEST(DeviceWorker, AStartedPartitionGoesToTheFinishQueue) {
  worker_rig rig;
  rig.queue(1);
  rig.run_next();
  EXPECT_EQ(rig.backend->starts.load(), 1);
  ASSERT_EQ(rig.router->finish().size(), 1u);
  auto t = rig.router->finish().try_pop();
  auto w = rig.router->claim(*t);
  ASSERT_NE(w, nullptr);
  EXPECT_NE(w->pending, nullptr);
  EXPECT_EQ(w->device, rig.slot.get());
  EXPECT_EQ(w->attempts, 1u);
  ASSERT_EQ(w->stages.size(), 1u);
  EXPECT_EQ(w->stages[0].stage, "device");
  const auto snap = rig.slot->read();
  EXPECT_TRUE(snap.healthy);
  EXPECT_EQ(snap.done, 1u);
  EXPECT_EQ(snap.running, 0u);
  EXPECT_EQ(snap.queued, 0u);
  ASSERT_EQ(snap.recent_keys.size(), 1u);
  EXPECT_EQ(snap.recent_keys[0], "k");
  const auto events = rig.trace.events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].name, "device");
  EXPECT_EQ(events[0].track, "fake0/w0");
  EXPECT_TRUE(rig.failed.empty());
}

TEST(DeviceWorker, ADeviceFaultTakesTheDeviceOutAndRetriesElsewhere) {
  worker_rig rig;
  rig.backend->fail_with(unavailable("bus error"));
  rig.queue(1);
  rig.run_next();
  const auto snap = rig.slot->read();
  EXPECT_FALSE(snap.healthy);
  EXPECT_NE(snap.fault.find("bus error"), std::string::npos) << snap.fault;
  EXPECT_EQ(snap.failures, 1u);
  EXPECT_TRUE(rig.failed.empty());
  ASSERT_EQ(rig.router->ready().size(), 1u) << "back to the ready queue for another device";
  auto t = rig.router->ready().try_pop();
  auto w = rig.router->claim(*t);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->attempts, 1u);
  const std::string m = rig.metrics_text();
  EXPECT_NE(m.find("pp_partitions_total{result=\"device_fault\"} 1"), std::string::npos) << m;
  EXPECT_NE(m.find("pp_partition_retries_total 1"), std::string::npos) << m;
}

TEST(DeviceWorker, TheLastAttemptFailsThePartition) {
  worker_rig rig(2);
  rig.backend->fail_with(internal_error("kernel died"));
  rig.queue(4, 1);  // tried once already elsewhere
  rig.run_next();
  ASSERT_EQ(rig.failed.size(), 1u);
  EXPECT_EQ(rig.failed[0].job, 4u);
  EXPECT_EQ(rig.failed[0].error.code(), status_code::internal);
  EXPECT_NE(rig.failed[0].error.to_string().find("after 2 attempts"), std::string::npos) << rig.failed[0].error.to_string();
  EXPECT_NE(rig.failed[0].error.to_string().find("on device fake0"), std::string::npos);
  EXPECT_EQ(rig.router->ready().size(), 0u);
  EXPECT_FALSE(rig.slot->healthy());
  EXPECT_EQ(rig.metrics_text().find("pp_partition_retries_total 1"), std::string::npos);
}

TEST(DeviceWorker, ARequestErrorFailsThePartitionAndKeepsTheDevice) {
  for (const status& s : {invalid_argument("witness size"), failed_precondition("keys evict each other")}) {
    worker_rig rig;
    rig.backend->fail_with(s);
    rig.queue(2);
    rig.run_next();
    ASSERT_EQ(rig.failed.size(), 1u);
    EXPECT_EQ(rig.failed[0].error.code(), s.code());
    EXPECT_TRUE(rig.slot->healthy());
    EXPECT_EQ(rig.router->ready().size(), 0u);
    EXPECT_EQ(rig.router->finish().size(), 0u);
  }
}

TEST(DeviceWorker, ADeviceOutOfRotationSendsItsQueueBackUnstarted) {
  worker_rig rig;
  rig.queue(1);
  rig.slot->mark_faulty("left earlier");
  rig.run_next();
  EXPECT_EQ(rig.backend->starts.load(), 0);
  EXPECT_EQ(rig.router->ready().size(), 1u);
  EXPECT_EQ(rig.slot->read().queued, 0u);
  auto t = rig.router->ready().try_pop();
  auto w = rig.router->claim(*t);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->attempts, 0u) << "not started, so not an attempt";
}

TEST(DeviceWorker, ACancelledJobNeverReachesTheBackend) {
  worker_rig rig;
  const partition_task t = rig.queue(1);
  t.cancel.cancel();
  rig.run_next();
  EXPECT_EQ(rig.backend->starts.load(), 0);
  EXPECT_EQ(rig.slot->read().queued, 0u);
  EXPECT_EQ(rig.router->parked(), 0u);
  EXPECT_TRUE(rig.failed.empty());

  rig.queue(2);
  auto popped = rig.slot->inbox().try_pop();  // a worker has taken the task...
  ASSERT_TRUE(popped.has_value());
  rig.router->purge(2);  // ...when its job is purged: its state is gone
  rig.worker.run(std::move(*popped), "fake0/w0");
  EXPECT_EQ(rig.backend->starts.load(), 0);
  EXPECT_EQ(rig.slot->read().queued, 0u);
}

TEST(DeviceWorker, AnInjectedFailureIsADeviceFaultWithoutTheBackend) {
  worker_rig rig;
  rig.slot->inject_failures(1);
  rig.queue(1);
  rig.run_next();
  EXPECT_EQ(rig.backend->starts.load(), 0);
  EXPECT_FALSE(rig.slot->healthy());
  EXPECT_NE(rig.slot->read().fault.find("injected device failure"), std::string::npos);
  EXPECT_EQ(rig.router->ready().size(), 1u);
}

// A backend whose start() throws: contained as that call's status, a device fault.
class throwing_start final : public stub_backend {
 public:
  result<groth16::pending_ptr> start(const groth16::prove_request&) override { throw std::runtime_error("boom"); }
};

TEST(DeviceWorker, AnExceptionFromStartIsADeviceFault) {
  worker_rig rig(3, std::make_unique<testing::device_of<throwing_start>>("throwing0"));
  rig.queue(1);
  rig.run_next();
  EXPECT_TRUE(rig.failed.empty());
  EXPECT_FALSE(rig.slot->healthy());
  EXPECT_NE(rig.slot->read().fault.find("boom"), std::string::npos) << rig.slot->read().fault;
  EXPECT_EQ(rig.router->ready().size(), 1u);
}

TEST(DeviceWorker, LoopRunsTheInboxUntilItCloses) {
  worker_rig rig;
  rig.queue(1);
  rig.queue(2);
  rig.slot->inbox().close();  // pops drain what is queued, then the loop ends
  std::thread t([&] { rig.worker.loop("fake0/w0"); });
  t.join();
  EXPECT_EQ(rig.backend->starts.load(), 2);
  EXPECT_EQ(rig.router->finish().size(), 2u);
}

// A fake device whose backend starts up to `most` partitions together, for a slot asking for `asked`.
worker_rig together_rig(size_t most, uint32_t asked, std::chrono::milliseconds wait = {}) {
  auto dev = std::make_unique<testing::fake_device>("fake0");
  dev->impl().together_most = most;
  return worker_rig(3, std::move(dev), asked, wait);
}

// The jobs of the partitions in the finish queue.
std::multiset<job_id> finished(worker_rig& rig) {
  std::multiset<job_id> out;
  while (auto t = rig.router->finish().try_pop()) {
    auto w = rig.router->claim(*t);
    EXPECT_NE(w, nullptr);
    if (w) {
      EXPECT_NE(w->pending, nullptr);
      EXPECT_EQ(w->attempts, 1u);
    }
    out.insert(t->job);
  }
  return out;
}

TEST(DeviceWorker, PartitionsOfTheKeyQueuedNextStartTogether) {
  worker_rig rig = together_rig(8, 3);
  EXPECT_EQ(rig.slot->partitions_together(), 3u);
  for (job_id j = 1; j <= 4; ++j) rig.queue(j);
  rig.run_next();
  EXPECT_EQ(rig.backend->together_sizes(), std::vector<size_t>{3});
  EXPECT_EQ(rig.backend->starts.load(), 0);
  EXPECT_EQ(finished(rig), (std::multiset<job_id>{1, 2, 3}));
  EXPECT_EQ(rig.slot->inbox().size(), 1u);
  const auto snap = rig.slot->read();
  EXPECT_EQ(snap.done, 3u);
  EXPECT_EQ(snap.running, 0u);
  EXPECT_EQ(snap.queued, 1u);
  // One left: started alone.
  rig.run_next();
  EXPECT_EQ(rig.backend->together_sizes().size(), 1u);
  EXPECT_EQ(rig.backend->starts.load(), 1);
  EXPECT_EQ(finished(rig), (std::multiset<job_id>{4}));
  const std::string m = rig.metrics_text();
  EXPECT_NE(m.find("pp_device_starts_total{partitions=\"3\"} 1\n"), std::string::npos) << m;
  EXPECT_NE(m.find("pp_device_starts_total{partitions=\"1\"} 1\n"), std::string::npos) << m;
  const auto events = rig.trace.events();
  ASSERT_EQ(events.size(), 2u) << "one device span for the three together, one for the last";
  EXPECT_TRUE(rig.failed.empty());
}

// A job's partitions reach the inbox one by one: those of the key queued while the worker waits
// (together_wait) join the first one's group; with none coming it starts alone at the wait's end.
TEST(DeviceWorker, PartitionsQueuedWithinTheWaitJoinTheGroup) {
  worker_rig rig = together_rig(8, 3, std::chrono::seconds(60));
  rig.queue(1);
  std::thread later([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    rig.queue(2);
    rig.queue(3);
  });
  rig.run_next();
  later.join();
  EXPECT_EQ(rig.backend->together_sizes(), std::vector<size_t>{3});
  EXPECT_EQ(rig.backend->starts.load(), 0);
  EXPECT_EQ(finished(rig), (std::multiset<job_id>{1, 2, 3}));

  worker_rig alone = together_rig(8, 3, std::chrono::milliseconds(30));
  alone.queue(1);
  alone.run_next();
  EXPECT_TRUE(alone.backend->together_sizes().empty());
  EXPECT_EQ(alone.backend->starts.load(), 1);
  EXPECT_EQ(finished(alone), (std::multiset<job_id>{1}));
}

TEST(DeviceWorker, OnlyTheSameKeyQueuedRightBehindIsTaken) {
  worker_rig rig = together_rig(8, 4);
  rig.queue(1);
  rig.queue(2, 0, "other");
  rig.queue(3);
  rig.run_next();
  EXPECT_TRUE(rig.backend->together_sizes().empty());
  EXPECT_EQ(rig.backend->starts.load(), 1);
  EXPECT_EQ(rig.slot->inbox().size(), 2u);
}

TEST(DeviceWorker, TheBackendCapsThePartitionsTaken) {
  EXPECT_EQ(together_rig(1, 4).slot->partitions_together(), 1u) << "a backend that takes none together";
  worker_rig rig = together_rig(2, 4);
  EXPECT_EQ(rig.slot->partitions_together(), 2u);
  for (job_id j = 1; j <= 3; ++j) rig.queue(j);
  rig.run_next();
  EXPECT_EQ(rig.backend->together_sizes(), std::vector<size_t>{2});
}

// Refused (nothing started): each alone at once; a refusal of the batch (not of a request) takes
// one fewer of the key together from then on, down to what fits.
TEST(DeviceWorker, PartitionsNotTakenTogetherStartAloneThenFewerTogether) {
  worker_rig rig = together_rig(8, 4);
  rig.backend->fail_together_with(invalid_argument("witness 2 has the wrong size"));
  for (job_id j = 1; j <= 4; ++j) rig.queue(j);
  rig.run_next();
  EXPECT_EQ(rig.backend->starts.load(), 4);
  EXPECT_EQ(finished(rig), (std::multiset<job_id>{1, 2, 3, 4}));
  const std::string m = rig.metrics_text();
  EXPECT_NE(m.find("pp_device_starts_total{partitions=\"1\"} 4\n"), std::string::npos) << "refused: four starts alone\n" << m;
  EXPECT_EQ(m.find("pp_device_starts_total{partitions=\"4\"}"), std::string::npos) << m;
  rig.backend->fail_together_with(ok_status());
  rig.backend->fit_together(2);
  for (job_id j = 5; j <= 8; ++j) rig.queue(j);
  rig.run_next();
  EXPECT_EQ(rig.backend->together_sizes(), (std::vector<size_t>{4, 4})) << "a bad request is not remembered";
  EXPECT_EQ(rig.backend->starts.load(), 8);
  EXPECT_EQ(finished(rig), (std::multiset<job_id>{5, 6, 7, 8}));
  EXPECT_TRUE(rig.slot->healthy());
  for (job_id j = 9; j <= 12; ++j) rig.queue(j);
  rig.run_next();  // three refused: each alone, two from now on
  EXPECT_EQ(rig.backend->together_sizes(), (std::vector<size_t>{4, 4, 3}));
  EXPECT_EQ(rig.backend->starts.load(), 11);
  rig.run_next();  // job 12 alone (nothing behind it)
  for (job_id j = 13; j <= 15; ++j) rig.queue(j);
  rig.run_next();
  EXPECT_EQ(rig.backend->together_sizes(), (std::vector<size_t>{4, 4, 3, 2}));
  EXPECT_EQ(rig.backend->starts.load(), 12);
  EXPECT_EQ(finished(rig), (std::multiset<job_id>{9, 10, 11, 12, 13, 14}));
  EXPECT_EQ(rig.slot->inbox().size(), 1u);
  EXPECT_TRUE(rig.failed.empty());
}

// A key the backend never takes together (failed_precondition: its plan keeps a shared table
// resident) goes one at a time after the first refusal, not one fewer a refusal.
TEST(DeviceWorker, AKeyNeverTakenTogetherGoesOneAtATimeAtOnce) {
  worker_rig rig = together_rig(8, 4);
  rig.backend->fail_together_with(failed_precondition("this plan keeps L resident"));
  for (job_id j = 1; j <= 4; ++j) rig.queue(j);
  rig.run_next();
  for (job_id j = 5; j <= 7; ++j) rig.queue(j);
  for (int i = 0; i < 3; ++i) rig.run_next();
  EXPECT_EQ(rig.backend->together_sizes(), std::vector<size_t>{4}) << "5 to 7 each alone, never offered together";
  EXPECT_EQ(rig.backend->starts.load(), 7);
  EXPECT_EQ(finished(rig).size(), 7u);
  EXPECT_TRUE(rig.failed.empty());
}

// A backend that refuses every batch: one of three only once the test lets it go on (after it has
// entered), any other at once; start() takes each partition alone.
class refusing_together final : public stub_backend {
 public:
  [[nodiscard]] size_t partitions_together() const override { return 8; }
  result<groth16::pending_ptr> start(const groth16::prove_request&) override {
    ++starts;
    return groth16::pending_ptr(std::make_unique<testing::fake_backend::fake_pending>());
  }
  result<std::vector<groth16::pending_ptr>> start_together(std::span<const groth16::prove_request> reqs) override {
    {
      mutex_lock lock(mu_);
      sizes_.push_back(reqs.size());
    }
    if (reqs.size() == 3) {
      entered.set_value();
      go_on.wait();
    }
    return resource_exhausted(std::to_string(reqs.size()) + " partitions together do not fit");
  }
  std::vector<size_t> sizes() {
    mutex_lock lock(mu_);
    return sizes_;
  }

  std::promise<void> entered, release;
  std::shared_future<void> go_on = release.get_future().share();
  std::atomic<int> starts{0};

 private:
  mutex mu_;
  std::vector<size_t> sizes_ PP_GUARDED_BY(mu_);
};

// A device's worker threads refuse batches concurrently: a group of three formed before a pair's
// refusal brought the key down to one at a time must not raise it to two with its own refusal.
TEST(DeviceWorker, ALaterRefusalOfALargerGroupKeepsTheLowerCap) {
  auto dev = std::make_unique<testing::device_of<refusing_together>>("fake0");
  refusing_together& be = dev->impl();
  std::future<void> entered = be.entered.get_future();
  worker_rig rig(3, std::move(dev), 3);
  for (job_id j = 1; j <= 3; ++j) rig.queue(j);
  std::thread first([&] { rig.run_next(); });  // 1-3 together, held inside start_together
  entered.wait();
  rig.queue(4);
  rig.queue(5);
  rig.run_next();  // 4 and 5 refused: one at a time from now on
  be.release.set_value();
  first.join();  // 1-3 refused after it
  rig.queue(6);
  rig.queue(7);
  rig.run_next();
  rig.run_next();
  EXPECT_EQ(be.sizes(), (std::vector<size_t>{3, 2})) << "6 and 7 started alone";
  EXPECT_EQ(be.starts.load(), 7);
  EXPECT_EQ(finished(rig).size(), 7u);
  EXPECT_TRUE(rig.failed.empty());
}

TEST(DeviceWorker, ADeviceFaultOfPartitionsTogetherRetriesEach) {
  worker_rig rig = together_rig(8, 3);
  rig.backend->fail_together_with(internal_error("kernel died"));
  for (job_id j = 1; j <= 3; ++j) rig.queue(j);
  rig.run_next();
  EXPECT_EQ(rig.backend->starts.load(), 0);
  EXPECT_FALSE(rig.slot->healthy());
  EXPECT_EQ(rig.slot->read().failures, 3u);
  ASSERT_EQ(rig.router->ready().size(), 3u);
  while (auto t = rig.router->ready().try_pop()) {
    auto w = rig.router->claim(*t);
    ASSERT_NE(w, nullptr);
    EXPECT_EQ(w->attempts, 1u);
  }
  EXPECT_TRUE(rig.failed.empty());
}

// A cancelled partition among those taken is dropped; the rest start together.
TEST(DeviceWorker, ACancelledPartitionIsLeftOutOfTheBatch) {
  worker_rig rig = together_rig(8, 3);
  rig.queue(1);
  const partition_task t = rig.queue(2);
  rig.queue(3);
  t.cancel.cancel();
  rig.run_next();
  EXPECT_EQ(rig.backend->together_sizes(), std::vector<size_t>{2});
  EXPECT_EQ(finished(rig), (std::multiset<job_id>{1, 3}));
  EXPECT_EQ(rig.slot->read().queued, 0u);
}

}  // namespace
}  // namespace pp::engine
