// device_worker (src/engine/device_worker.hpp) on a fake device: a started partition goes to the
// finish queue with its pending proof; a device fault takes the device out of rotation and sends
// the partition back to the ready queue, until max_attempts fails it; a request error fails it and
// leaves the device in rotation; a device that left rotation or a cancelled job never reaches the
// backend; exceptions from start() are device faults; loop() ends when the inbox closes.
#include "engine/device_worker.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <stdexcept>
#include <thread>
#include <vector>

#include "fake_device.hpp"
#include "support/status_matchers.hpp"

namespace pp::engine {
namespace {

using testing::fake_backend;
using testing::fake_device;

int64_t zero_clock() { return 0; }

struct failure {
  job_id job;
  uint32_t partition;
  status error;
};

// One fake device (one worker) and the router and worker around it. A task is queued as the
// placement would queue it: its state parked, the task in the device's inbox, the load counted.
struct worker_rig {
  explicit worker_rig(uint32_t max_attempts = 3) {
    auto d = std::make_unique<fake_device>("fake0");
    backend = &d->fake();
    slot = std::make_unique<device_slot>(std::move(d), 1, 4, zero_clock);
    router = std::make_unique<partition_router>(partition_router::capacities{8, 8, 8}, std::vector{slot.get()},
                                                partition_router::hooks{.fail = {}, .cancel_job = {}});
    metrics = std::move(engine_metrics::create()).value();
    worker = std::make_unique<device_worker>(*slot, *router, trace, *metrics,
                                             device_worker::options{.self_verify = false, .max_attempts = max_attempts},
                                             [this](const partition_task& t, status e) {
                                               failed.push_back({t.job, t.partition, std::move(e)});
                                             });
  }

  partition_task queue(job_id job, uint32_t attempts_so_far = 0) {
    partition_task t;
    t.job = job;
    t.key_id = "k";
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
    worker->run(std::move(*t), "fake0/w0");
  }

  std::string metrics_text() const { return metrics->render(engine_status{}); }

  loaded_key key;  // null key and circuit: the fake backend never reads the request
  fake_backend* backend = nullptr;
  std::unique_ptr<device_slot> slot;
  std::unique_ptr<partition_router> router;
  trace_recorder trace;
  std::unique_ptr<engine_metrics> metrics;
  std::unique_ptr<device_worker> worker;
  std::vector<failure> failed;  // written by the worker, read after it ran on the test's thread
};

TEST(device_worker, a_started_partition_goes_to_the_finish_queue) {
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

TEST(device_worker, a_device_fault_takes_the_device_out_and_retries_elsewhere) {
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

TEST(device_worker, the_last_attempt_fails_the_partition) {
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

TEST(device_worker, a_request_error_fails_the_partition_and_keeps_the_device) {
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

TEST(device_worker, a_device_out_of_rotation_sends_its_queue_back_unstarted) {
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

TEST(device_worker, a_cancelled_job_never_reaches_the_backend) {
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
  rig.worker->run(std::move(*popped), "fake0/w0");
  EXPECT_EQ(rig.backend->starts.load(), 0);
  EXPECT_EQ(rig.slot->read().queued, 0u);
}

TEST(device_worker, an_injected_failure_is_a_device_fault_without_the_backend) {
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
class throwing_device final : public devices::device {
 public:
  class backend_t final : public groth16::backend {
   public:
    [[nodiscard]] std::string_view name() const override { return "throwing"; }
    result<groth16::pending_ptr> start(const groth16::prove_request&) override { throw std::runtime_error("boom"); }
    result<groth16::prove_output> finish(groth16::pending_ptr) override { return unimplemented("finish"); }
    [[nodiscard]] uint64_t host_bytes_per_partition(uint64_t, uint64_t) const override { return 0; }
  };
  [[nodiscard]] std::string_view name() const override { return "throwing0"; }
  [[nodiscard]] std::string_view kind() const override { return "fake"; }
  [[nodiscard]] groth16::backend& backend() override { return backend_; }

 private:
  backend_t backend_;
};

TEST(device_worker, an_exception_from_start_is_a_device_fault) {
  device_slot slot(std::make_unique<throwing_device>(), 1, 1, zero_clock);
  partition_router router({8, 8, 8}, {&slot}, {});
  trace_recorder trace;
  auto metrics = std::move(engine_metrics::create()).value();
  std::vector<status> failed;
  device_worker worker(slot, router, trace, *metrics, {.self_verify = false, .max_attempts = 3},
                       [&](const partition_task&, status e) { failed.push_back(e); });
  loaded_key key;
  partition_task t;
  t.job = 1;
  auto w = std::make_unique<partition_work>();
  w->key = &key;
  w->witness = std::make_shared<const std::vector<ff::fr>>();
  router.forward(router.ready(), t, std::move(w));
  ASSERT_TRUE(router.ready().try_pop().has_value());
  slot.placed();
  worker.run(t, "throwing0/w0");
  EXPECT_TRUE(failed.empty());
  EXPECT_FALSE(slot.healthy());
  EXPECT_NE(slot.read().fault.find("boom"), std::string::npos) << slot.read().fault;
  EXPECT_EQ(router.ready().size(), 1u);
}

TEST(device_worker, loop_runs_the_inbox_until_it_closes) {
  worker_rig rig;
  rig.queue(1);
  rig.queue(2);
  rig.slot->inbox().close();  // pops drain what is queued, then the loop ends
  std::thread t([&] { rig.worker->loop("fake0/w0"); });
  t.join();
  EXPECT_EQ(rig.backend->starts.load(), 2);
  EXPECT_EQ(rig.router->finish().size(), 2u);
}

}  // namespace
}  // namespace pp::engine
