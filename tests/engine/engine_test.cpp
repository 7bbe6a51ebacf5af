// The engine end to end on tiny synthetic circuits (insecure setup) with CPU devices and gated fake
// devices: proofs verify, no job is lost or duplicated, memory stays in budget, device faults are
// retried elsewhere, CRITICAL overtakes NORMAL, queued partitions of a key start together, shutdown
// drains or reports. Orderings, never timings.
#include "engine/engine.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include "core/status_macros.hpp"
#include "engine/key_catalog.hpp"
#include "eventually.hpp"
#include "fake_device.hpp"
#include "groth16/prover.hpp"
#include "groth16/verifier.hpp"
#include "support/status_matchers.hpp"
#include "tiny_circuit.hpp"

namespace pp::engine {
namespace {

using testing::eventually;
using testing::tiny_circuit;
using testing::tiny_key;

submit_request tiny_job(uint32_t partitions, priority prio = priority::normal, std::string idem = {}) {
  submit_request r;
  r.key_id = "tiny";
  for (uint32_t i = 0; i < partitions; ++i) r.witnesses.push_back(witness_source::memory(tiny_circuit().witness));
  r.prio = prio;
  r.idempotency_key = std::move(idem);
  return r;
}

void expect_verifies(const job_result& r) {
  ASSERT_EQ(r.state, job_state::succeeded) << r.error.to_string();
  for (const partition_result& p : r.partitions) {
    EXPECT_THAT(testing::verify_result(tiny_circuit().pk->vk, p), IsOk());
    ASSERT_EQ(p.stages.size(), 3u);
    EXPECT_EQ(p.stages[0].stage, "witness");
    EXPECT_EQ(p.stages[1].stage, "device");
    EXPECT_EQ(p.stages[2].stage, "finish");
    EXPECT_FALSE(p.device.empty());
  }
}

engine_config small_config() {
  engine_config c;
  c.cpu_devices = 2;
  c.host_memory_bytes = uint64_t{256} << 20;
  return c;
}

std::unique_ptr<engine> make_engine(engine_config c) {
  auto e = engine::create(std::move(c));
  EXPECT_THAT(e, IsOk());
  auto out = std::move(e).value();
  EXPECT_THAT(out->register_key("tiny", tiny_key()), IsOk());
  return out;
}

// A CPU device whose start() records the order of the witnesses it is given and blocks until the
// gate opens; it takes up to `together` partitions together (each started in turn), recording how
// many each start_together() call got.
struct gate {
  std::mutex mu;
  std::condition_variable cv;
  bool open = false;
  size_t together = 1;
  std::vector<const ff::fr*> order;
  std::vector<size_t> batches;
  void release() {
    std::lock_guard lock(mu);
    open = true;
    cv.notify_all();
  }
  size_t entered() {
    std::lock_guard lock(mu);
    return order.size();
  }
};

class gated_backend final : public groth16::backend {
 public:
  explicit gated_backend(gate& g) : gate_(g) {}
  [[nodiscard]] std::string_view name() const override { return "gated"; }
  result<groth16::pending_ptr> start(const groth16::prove_request& req) override {
    std::unique_lock lock(gate_.mu);
    gate_.order.push_back(req.witness.data());
    gate_.cv.wait(lock, [&] { return gate_.open; });
    lock.unlock();
    return inner_.start(req);
  }
  [[nodiscard]] size_t partitions_together() const override { return gate_.together; }
  result<std::vector<groth16::pending_ptr>> start_together(std::span<const groth16::prove_request> reqs) override {
    {
      std::unique_lock lock(gate_.mu);
      gate_.batches.push_back(reqs.size());
      gate_.cv.wait(lock, [&] { return gate_.open; });
    }
    std::vector<groth16::pending_ptr> out;
    for (const auto& req : reqs) {
      PP_ASSIGN_OR_RETURN(out.emplace_back(), inner_.start(req));
    }
    return out;
  }
  result<groth16::prove_output> finish(groth16::pending_ptr p) override { return inner_.finish(std::move(p)); }
  [[nodiscard]] uint64_t host_bytes_per_partition(uint64_t num_variables, uint64_t domain_size) const override {
    return inner_.host_bytes_per_partition(num_variables, domain_size);
  }

 private:
  gate& gate_;
  groth16::cpu_backend inner_;
};

class gated_device final : public device {
 public:
  explicit gated_device(gate& g) : backend_(g) {}
  [[nodiscard]] std::string_view name() const override { return "gated0"; }
  [[nodiscard]] std::string_view kind() const override { return "fake"; }
  [[nodiscard]] groth16::backend& backend() override { return backend_; }

 private:
  gated_backend backend_;
};

engine_config gated_config(gate& g) {
  engine_config c = small_config();
  c.make_devices = [&g]() -> result<std::vector<device_ptr>> {
    std::vector<device_ptr> v;
    v.push_back(std::make_unique<gated_device>(g));
    return v;
  };
  c.witness_threads = 1;
  c.ready_capacity = 2;
  c.device_queue_depth = 1;
  return c;
}

TEST(Engine, ProvesAndEveryProofVerifies) {
  auto e = make_engine(small_config());
  auto id = e->submit(tiny_job(3));
  ASSERT_THAT(id, IsOk());
  auto r = e->await(*id, deadline_in(std::chrono::seconds(60)));
  ASSERT_THAT(r, IsOk());
  expect_verifies(*r);
  EXPECT_EQ(r->partitions.size(), 3u);
  // Terminal bookkeeping runs just after the awaiter wakes (outside the tracker's lock).
  EXPECT_TRUE(eventually([&] { return e->status().jobs_succeeded == 1; }));
  const std::string metrics = e->metrics_text();
  for (const char* m : {"pp_jobs_total{state=\"succeeded\"} 1", "pp_stage_seconds_count{stage=\"device\"} 3",
                        "pp_device_busy_fraction{device=\"cpu0\"}", "pp_host_memory_bytes{pool=\"all\",kind=\"total\"}",
                        "pp_queue_depth{stage=\"intake\"} 0"}) {
    EXPECT_NE(metrics.find(m), std::string::npos) << m << "\n" << metrics;
  }
  const auto path = std::filesystem::temp_directory_path() / "pp_engine_test_trace.json";
  ASSERT_THAT(e->write_trace(path), IsOk());
  std::ifstream in(path);
  const std::string json((std::istreambuf_iterator<char>(in)), {});
  for (const char* stage : {"\"witness\"", "\"device\"", "\"finish\""}) EXPECT_NE(json.find(stage), std::string::npos);
  std::filesystem::remove(path);
  const auto st = e->status();
  EXPECT_EQ(st.memory.partitions_in_use, 0u);
}

TEST(Engine, RejectsBadRequestsPrecisely) {
  auto e = make_engine(small_config());
  auto unknown = tiny_job(1);
  unknown.key_id = "nope";
  EXPECT_EQ(e->submit(unknown).error().code(), status_code::not_found);
  EXPECT_EQ(e->submit(submit_request{"tiny", {}, priority::normal, {}}).error().code(), status_code::invalid_argument);
  submit_request short_w{"tiny", {witness_source::memory({ff::fr{}})}, priority::normal, {}};
  const auto s = e->submit(short_w);
  ASSERT_THAT(s, StatusIs(status_code::invalid_argument));
  EXPECT_NE(s.error().message().find("expects"), std::string::npos) << s.error().message();
  submit_request missing{"tiny", {witness_source::file("/nonexistent/w.wtns")}, priority::normal, {}};
  EXPECT_EQ(e->submit(missing).error().code(), status_code::invalid_argument);
  EXPECT_EQ(e->register_key("tiny", tiny_key()).code(), status_code::already_exists);
  EXPECT_EQ(e->await(12345, immediate()).error().code(), status_code::not_found);
  EXPECT_EQ(e->inject_device_failure("gpu7").code(), status_code::not_found);
  engine_config bad = small_config();
  bad.workers_per_device = 0;
  EXPECT_EQ(engine::create(bad).error().code(), status_code::invalid_argument);
}

TEST(Engine, TwoHundredMixedJobsNoneLostOrDuplicated) {
  engine_config c = small_config();
  c.self_verify = true;
  auto e = make_engine(c);
  constexpr int n = 200;
  const priority prios[] = {priority::low, priority::normal, priority::high, priority::critical};
  std::vector<job_id> ids;
  std::set<job_id> cancelled_ok;
  for (int i = 0; i < n; ++i) {
    auto id = e->submit(tiny_job(1 + i % 2, prios[i % 4], "idem-" + std::to_string(i)));
    ASSERT_THAT(id, IsOk());
    ids.push_back(*id);
    if (i % 10 == 3) {  // a resubmission maps to the same job
      auto again = e->submit(tiny_job(1 + i % 2, prios[i % 4], "idem-" + std::to_string(i)));
      ASSERT_THAT(again, IsOk());
      EXPECT_EQ(*again, *id);
    }
    if (i % 7 == 0 && e->cancel(*id).ok()) cancelled_ok.insert(*id);
  }
  EXPECT_EQ(std::set<job_id>(ids.begin(), ids.end()).size(), size_t{n});
  size_t succeeded = 0, cancelled = 0;
  for (job_id id : ids) {
    auto r = e->await(id, deadline_in(std::chrono::seconds(120)));
    ASSERT_THAT(r, IsOk());
    ASSERT_TRUE(is_terminal(r->state));
    if (cancelled_ok.count(id)) {
      EXPECT_EQ(r->state, job_state::cancelled);
      EXPECT_EQ(r->error.code(), status_code::cancelled);
      ++cancelled;
    } else {
      expect_verifies(*r);
      ++succeeded;
    }
    EXPECT_EQ(e->cancel(id).code(), status_code::failed_precondition);  // exactly one terminal state
  }
  EXPECT_TRUE(eventually([&] { return e->status().jobs_in_flight == 0; }));
  const auto st = e->status();
  EXPECT_EQ(st.jobs_succeeded, succeeded);
  EXPECT_EQ(st.jobs_cancelled, cancelled);
  EXPECT_EQ(st.jobs_failed, 0u);
  EXPECT_EQ(st.jobs_in_flight, 0u);
  EXPECT_GT(cancelled, 0u);
  EXPECT_TRUE(eventually([&] { return e->status().memory.partitions_in_use == 0; }));
}

TEST(Engine, WorkloadOverTheBudgetWaitsAndCompletes) {
  engine_config c = small_config();
  c.partition_bytes = uint64_t{1} << 20;
  c.host_memory_bytes = uint64_t{8} << 20;  // keys 4 MiB, partitions 4 MiB = 4 in flight
  c.ready_capacity = 16;
  c.finish_capacity = 16;
  c.witness_threads = 3;
  auto e = make_engine(c);
  std::vector<job_id> ids;
  for (int i = 0; i < 8; ++i) ids.push_back(*e->submit(tiny_job(3)));  // 24 MiB if unbounded
  for (job_id id : ids) {
    auto r = e->await(id, deadline_in(std::chrono::seconds(120)));
    ASSERT_THAT(r, IsOk());
    expect_verifies(*r);
  }
  const auto m = e->status().memory;
  EXPECT_LE(m.partitions_peak, m.partitions_total);
  EXPECT_GE(m.partitions_peak, uint64_t{1} << 20);
  EXPECT_LE(m.keys_in_use, m.keys_total);
  EXPECT_EQ(m.partitions_in_use, 0u);
}

TEST(Engine, InjectedDeviceFailureIsRetriedElsewhere) {
  auto e = make_engine(small_config());
  ASSERT_THAT(e->inject_device_failure("cpu0", 1), IsOk());
  auto id = e->submit(tiny_job(1));  // both devices idle: placed on cpu0 (lowest index), which fails
  ASSERT_THAT(id, IsOk());
  auto r = e->await(*id, deadline_in(std::chrono::seconds(60)));
  ASSERT_THAT(r, IsOk());
  expect_verifies(*r);
  EXPECT_EQ(r->partitions[0].attempts, 2u);
  EXPECT_EQ(r->partitions[0].device, "cpu1");
  const auto st = e->status();
  ASSERT_EQ(st.devices.size(), 2u);
  EXPECT_FALSE(st.devices[0].healthy);
  EXPECT_NE(st.devices[0].fault.find("injected"), std::string::npos);
  EXPECT_TRUE(st.devices[1].healthy);
  // Out of rotation: later work goes to cpu1 only.
  auto id2 = e->submit(tiny_job(2));
  auto r2 = e->await(*id2, deadline_in(std::chrono::seconds(60)));
  ASSERT_THAT(r2, IsOk());
  expect_verifies(*r2);
  for (const auto& p : r2->partitions) EXPECT_EQ(p.device, "cpu1");
  EXPECT_NE(e->metrics_text().find("pp_partition_retries_total 1"), std::string::npos);
}

TEST(Engine, AllDevicesFailedReportsUnavailable) {
  engine_config c = small_config();
  c.cpu_devices = 1;
  auto e = make_engine(c);
  ASSERT_THAT(e->inject_device_failure("cpu0", 1), IsOk());
  auto id = e->submit(tiny_job(1));
  auto r = e->await(*id, deadline_in(std::chrono::seconds(60)));
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->state, job_state::failed);
  EXPECT_EQ(r->error.code(), status_code::unavailable);
}

TEST(Engine, CriticalJobStartsAtTheNextPartitionBoundary) {
  gate g;
  auto e = make_engine(gated_config(g));
  std::vector<job_id> normal;
  for (int i = 0; i < 12; ++i) normal.push_back(*e->submit(tiny_job(1)));
  ASSERT_TRUE(eventually([&] { return g.entered() == 1; }));  // the first NORMAL is on the device
  // Every queue is full of NORMAL work: device inbox, ready queue, the witness thread blocked.
  ASSERT_TRUE(eventually([&] {
    const auto st = e->status();
    return st.devices[0].queued == 1 && st.queues[1].depth == 2;
  }));
  auto crit_req = tiny_job(1, priority::critical);
  const ff::fr* crit_witness =
      std::get<std::shared_ptr<const std::vector<ff::fr>>>(crit_req.witnesses[0].value)->data();
  auto crit = e->submit(std::move(crit_req));
  ASSERT_THAT(crit, IsOk());
  // The CRITICAL partition reaches the device inbox (beyond its depth) before the gate opens.
  ASSERT_TRUE(eventually([&] { return e->status().devices[0].queued == 2; }));
  g.release();
  auto r = e->await(*crit, deadline_in(std::chrono::seconds(60)));
  ASSERT_THAT(r, IsOk());
  expect_verifies(*r);
  for (job_id id : normal) ASSERT_THAT(e->await(id, deadline_in(std::chrono::seconds(60))), IsOk());
  std::lock_guard lock(g.mu);
  ASSERT_EQ(g.order.size(), 13u);
  EXPECT_EQ(g.order[1], crit_witness);  // right after the partition that was running
}

// With partitions_together, the partitions of a key queued behind the one on the device start
// together: a one-partition job holds the device (started alone: nothing else was queued) while
// three of a nine-partition job fill its inbox (depth 1 + one worker x 2 more), which the worker then
// takes in one call; every proof verifies.
TEST(Engine, QueuedPartitionsOfAKeyStartTogether) {
  gate g;
  g.together = 3;
  engine_config c = gated_config(g);
  c.partitions_together = 3;
  c.ready_capacity = 8;
  auto e = make_engine(c);
  const struct opener {
    gate& g;
    ~opener() { g.release(); }  // before the engine's end, should an assertion return early
  } open_at_exit{g};
  auto first = e->submit(tiny_job(1));
  ASSERT_THAT(first, IsOk());
  ASSERT_TRUE(eventually([&] { return g.entered() == 1; }));
  auto id = e->submit(tiny_job(9));
  ASSERT_THAT(id, IsOk());
  ASSERT_TRUE(eventually([&] { return e->status().devices[0].queued == 3; }));
  g.release();
  for (const job_id j : {*first, *id}) {
    auto r = e->await(j, deadline_in(std::chrono::seconds(60)));
    ASSERT_THAT(r, IsOk());
    expect_verifies(*r);
  }
  std::lock_guard lock(g.mu);
  ASSERT_FALSE(g.batches.empty());
  EXPECT_EQ(g.batches.front(), 3u) << "the full inbox, taken at once";
  size_t started = g.order.size();
  for (const size_t b : g.batches) {
    EXPECT_GE(b, 2u);
    EXPECT_LE(b, 3u);
    started += b;
  }
  EXPECT_EQ(started, 10u);
}

TEST(Engine, ShutdownWithDrainFinishesEverything) {
  auto e = make_engine(small_config());
  std::vector<job_id> ids;
  for (int i = 0; i < 10; ++i) ids.push_back(*e->submit(tiny_job(2)));
  ASSERT_THAT(e->shutdown({.drain = true}), IsOk());
  EXPECT_EQ(e->submit(tiny_job(1)).error().code(), status_code::unavailable);
  for (job_id id : ids) {
    auto r = e->await(id, immediate());
    ASSERT_THAT(r, IsOk());
    expect_verifies(*r);
  }
  EXPECT_THAT(e->shutdown(), IsOk());  // idempotent
}

TEST(Engine, ShutdownWithoutDrainReportsEveryJob) {
  gate g;
  auto e = make_engine(gated_config(g));
  std::vector<job_id> ids;
  for (int i = 0; i < 6; ++i) ids.push_back(*e->submit(tiny_job(1)));
  ASSERT_TRUE(eventually([&] { return g.entered() == 1; }));
  std::thread stopper([&] { EXPECT_THAT(e->shutdown({.drain = false}), IsOk()); });
  for (job_id id : ids) {  // nothing silently lost: every job ends, as cancelled/unavailable
    auto r = e->await(id, deadline_in(std::chrono::seconds(60)));
    ASSERT_THAT(r, IsOk());
    EXPECT_EQ(r->state, job_state::cancelled);
    EXPECT_EQ(r->error.code(), status_code::unavailable);
  }
  g.release();
  stopper.join();
  EXPECT_EQ(e->status().memory.partitions_in_use, 0u);
}

TEST(Engine, KeysPreloadAndEvict) {
  auto e = make_engine(small_config());
  EXPECT_EQ(e->preload_key("nope").code(), status_code::not_found);
  ASSERT_THAT(e->preload_key("tiny"), IsOk());
  auto st = e->status();
  ASSERT_EQ(st.keys.size(), 1u);
  EXPECT_TRUE(st.keys[0].resident);
  ASSERT_THAT(e->evict_key("tiny"), IsOk());
  EXPECT_FALSE(e->status().keys[0].resident);
  auto id = e->submit(tiny_job(1));  // loads again on demand
  auto r = e->await(*id, deadline_in(std::chrono::seconds(60)));
  ASSERT_THAT(r, IsOk());
  expect_verifies(*r);
}

TEST(Engine, CancelWhileRunningDropsTheResult) {
  gate g;
  auto e = make_engine(gated_config(g));
  auto id = e->submit(tiny_job(2));
  ASSERT_TRUE(eventually([&] { return g.entered() == 1; }));
  ASSERT_THAT(e->cancel(*id), IsOk());
  g.release();
  auto r = e->await(*id, deadline_in(std::chrono::seconds(60)));
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->state, job_state::cancelled);
  EXPECT_TRUE(r->partitions.empty());
  EXPECT_TRUE(eventually([&] { return e->status().memory.partitions_in_use == 0; }));
  EXPECT_TRUE(eventually([&] { return e->status().devices[0].running == 0; }));
}

// A backend that reports its own host memory per partition (as a GPU does: its work is in VRAM) and
// returns off-thread spans (as a GPU lane's kernels): the engine reserves the backend's figure and
// puts the spans into the trace under the device's name.
class vram_backend final : public groth16::backend {
 public:
  [[nodiscard]] std::string_view name() const override { return "vram"; }
  [[nodiscard]] uint64_t host_bytes_per_partition(uint64_t num_variables, uint64_t) const override {
    return 32 * num_variables + 4096;
  }
  result<groth16::pending_ptr> start(const groth16::prove_request& req) override { return inner_.start(req); }
  result<groth16::prove_output> finish(groth16::pending_ptr p) override {
    auto out = inner_.finish(std::move(p));
    if (out.ok()) {
      const auto now = std::chrono::steady_clock::now();
      out->timings.spans.push_back({"kernels", "lane0/compute", now - std::chrono::milliseconds(2), now});
    }
    return out;
  }

 private:
  groth16::cpu_backend inner_;
};

TEST(Engine, PartitionMemoryAndSpansComeFromTheDevices) {
  const uint64_t nv = tiny_circuit().cs->num_variables();
  {
    auto e = make_engine(small_config());  // CPU devices: the CPU backend's estimate
    ASSERT_THAT(e->preload_key("tiny"), IsOk());
    EXPECT_EQ(e->status().memory.bytes_per_partition_hint,
              groth16::cpu_backend().host_bytes_per_partition(nv, tiny_circuit().pk->domain_size));
  }
  engine_config c = small_config();
  c.make_devices = []() -> result<std::vector<device_ptr>> {
    std::vector<device_ptr> v;
    v.push_back(std::make_unique<testing::device_of<vram_backend>>("vram0"));
    return v;
  };
  auto e = make_engine(c);
  auto id = e->submit(tiny_job(2));
  ASSERT_THAT(id, IsOk());
  auto r = e->await(*id, deadline_in(std::chrono::seconds(60)));
  ASSERT_THAT(r, IsOk());
  expect_verifies(*r);
  const auto m = e->status().memory;
  EXPECT_EQ(m.bytes_per_partition_hint, 32 * nv + 4096);
  EXPECT_LE(m.partitions_peak, 2 * (32 * nv + 4096));
  const auto path = std::filesystem::temp_directory_path() / "pp_engine_test_spans.json";
  ASSERT_THAT(e->write_trace(path), IsOk());
  std::ifstream in(path);
  const std::string json((std::istreambuf_iterator<char>(in)), {});
  EXPECT_NE(json.find("vram0/lane0/compute"), std::string::npos) << json.substr(0, 2000);
  EXPECT_NE(json.find("\"kernels\""), std::string::npos);
  std::filesystem::remove(path);
}

// Polling a job that ends while it is polled: a succeeded result always carries its proofs. The
// engine used to read the state after the wait ran out, so a job ending in between came back as
// succeeded with no partitions (the soak, scripts/soak.py, caught one in ~1300 jobs over gRPC).
TEST(Engine, PollingNeverReportsSuccessWithoutProofs) {
  auto e = make_engine(small_config());
  for (int i = 0; i < 300; ++i) {
    auto id = e->submit(tiny_job(1));
    ASSERT_THAT(id, IsOk());
    const auto give_up = steady_clock::now() + std::chrono::seconds(60);
    while (true) {
      auto r = e->await(*id, immediate());
      if (r.ok()) {
        ASSERT_EQ(r->state, job_state::succeeded) << r->error.to_string();
        ASSERT_EQ(r->partitions.size(), 1u) << "job " << *id << " (poll " << i << ") succeeded without its proof";
        break;
      }
      ASSERT_EQ(r.error().code(), status_code::deadline_exceeded) << r.error().to_string();
      ASSERT_LT(steady_clock::now(), give_up);
    }
  }
}

}  // namespace
}  // namespace pp::engine
