// engine.cpp: wires the engine's components (job_tracker, memory_budgets, key_store, device_slots,
// partition_router, device_workers, engine_metrics, trace_recorder) into the stage pipeline
// described in engine.hpp, and runs the witness and finish stages. The policies live in those
// components: the router moves partitions between queues, the device workers run and retry them.
#include "engine/engine.hpp"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <thread>

#include "core/mutex.hpp"
#include "core/status_macros.hpp"
#include "core/thread_annotations.hpp"
#include "core/trace_span.hpp"
#include "engine/contain_exceptions.hpp"
#include "engine/device_slot.hpp"
#include "engine/device_worker.hpp"
#include "engine/engine_metrics.hpp"
#include "engine/host_memory_limit.hpp"
#include "engine/job_tracker.hpp"
#include "engine/key_catalog.hpp"
#include "engine/partition_router.hpp"
#include "engine/partition_work.hpp"
#include "engine/witness_file.hpp"
#include "formats/mapped_file.hpp"
#include "r1cs/witness.hpp"

namespace pp::engine {

status validate(const engine_config& c) {
  if (!c.make_devices && c.cpu_devices == 0) return invalid_argument("engine config: cpu_devices is 0 and no make_devices");
  if (c.workers_per_device == 0) return invalid_argument("engine config: workers_per_device must be >= 1");
  if (c.witness_threads == 0) return invalid_argument("engine config: witness_threads must be >= 1");
  if (c.finish_threads == 0) return invalid_argument("engine config: finish_threads must be >= 1");
  if (c.intake_capacity == 0) return invalid_argument("engine config: intake_capacity must be >= 1");
  if (c.ready_capacity == 0) return invalid_argument("engine config: ready_capacity must be >= 1");
  if (c.finish_capacity == 0) return invalid_argument("engine config: finish_capacity must be >= 1");
  if (!(c.key_memory_fraction > 0 && c.key_memory_fraction < 1)) {
    return invalid_argument("engine config: key_memory_fraction must lie in (0, 1), got " +
                            std::to_string(c.key_memory_fraction));
  }
  if (c.max_attempts == 0) return invalid_argument("engine config: max_attempts must be >= 1");
  if (c.max_retained_jobs == 0) return invalid_argument("engine config: max_retained_jobs must be >= 1");
  return ok_status();
}

namespace {

using std::chrono::nanoseconds;

int64_t now_ns() {
  return std::chrono::duration_cast<nanoseconds>(steady_clock::now().time_since_epoch()).count();
}

// What the engine knows about a registered key beyond the key_store.
struct key_record {
  uint64_t num_variables = 0;  // 0 until the circuit has been seen
  uint64_t partition_bytes = 0;
};

class engine_impl final : public engine {
 public:
  engine_impl(engine_config config, uint64_t host_bytes, std::vector<device_ptr> devs,
              std::unique_ptr<engine_metrics> metrics)
      : config_(std::move(config)),
        keys_budget_(static_cast<uint64_t>(static_cast<double>(host_bytes) * config_.key_memory_fraction)),
        parts_budget_(host_bytes - keys_budget_.total()),
        key_store_(keys_budget_),
        trace_(config_.trace_capacity),
        metrics_(std::move(metrics)),
        tracker_([this](job_id id, job_state s) { on_terminal(id, s); }),
        slots_(make_slots(std::move(devs), config_)),
        router_({config_.intake_capacity, config_.ready_capacity, config_.finish_capacity}, slot_pointers(slots_),
                {.fail = [this](const partition_task& t, pp::status e) { fail(t, std::move(e)); },
                 .cancel_job = [this](job_id id, pp::status e) { tracker_.cancel(id, std::move(e)).ignore(); }}) {
    for (auto& s : slots_) {
      // What a device takes for the keys it serves beyond the key store's copy (a GPU's pinned
      // matrix image) is key memory: charged to the key budget, released when the device drops it.
      s->dev().set_host_charge([this](uint64_t bytes) -> result<std::shared_ptr<void>> {
        PP_ASSIGN_OR_RETURN(memory_reservation r, keys_budget_.try_reserve(bytes));
        return std::shared_ptr<void>(std::make_shared<memory_reservation>(std::move(r)));
      });
      device_workers_.push_back(std::make_unique<device_worker>(
          *s, router_, trace_, *metrics_, device_worker::options{config_.self_verify, config_.max_attempts},
          [this](const partition_task& t, pp::status e) { fail(t, std::move(e)); }));
    }
    for (uint32_t i = 0; i < config_.witness_threads; ++i) {
      threads_.emplace_back([this, i] { witness_loop("witness-" + std::to_string(i)); });
    }
    dispatcher_ = std::thread([this] { router_.run_placement(); });
    for (size_t d = 0; d < slots_.size(); ++d) {
      for (uint32_t w = 0; w < slots_[d]->workers(); ++w) {
        device_threads_.emplace_back([this, d, w] {
          device_workers_[d]->loop(slots_[d]->name() + "/w" + std::to_string(w));
        });
      }
    }
    for (uint32_t i = 0; i < config_.finish_threads; ++i) {
      finish_threads_.emplace_back([this, i] { finish_loop("finish-" + std::to_string(i)); });
    }
  }

  ~engine_impl() override { shutdown({.drain = false}).ignore(); }

  // ---- keys ----

  pp::status register_key(const std::string& id, key_source source) override {
    PP_ASSIGN_OR_RETURN(key_descriptor d, describe_key(id, source));
    const uint64_t bytes = d.tiers[static_cast<size_t>(host_key_tier)].bytes;
    if (bytes > keys_budget_.total()) {
      return resource_exhausted("register_key '" + id + "': needs ~" + std::to_string(bytes) +
                                " bytes, more than the whole key budget of " + std::to_string(keys_budget_.total()));
    }
    key_record rec;
    if (const auto* m = std::get_if<memory_key_source>(&source)) rec = record_for(*m->pk, *m->cs);
    PP_RETURN_IF_ERROR(key_store_.add(std::move(d)));
    mutex_lock lock(keys_mu_);
    keys_[id] = rec;
    return ok_status();
  }

  pp::status preload_key(const std::string& id, deadline d) override {
    PP_ASSIGN_OR_RETURN(key_lease lease, key_store_.acquire(id, host_key_tier, d));
    note_key(id, *static_cast<const loaded_key*>(lease.handle().get()));
    return ok_status();
  }

  pp::status evict_key(const std::string& id) override { return key_store_.evict(id); }

  // ---- jobs ----

  result<job_id> submit(submit_request req) override {
    reader_lock life(lifecycle_mu_);
    if (!accepting_) return unavailable("engine is shutting down: not accepting jobs");
    if (req.witnesses.empty()) return invalid_argument("submit: no witnesses (one per partition)");
    if (req.witnesses.size() > max_partitions) {
      return invalid_argument("submit: " + std::to_string(req.witnesses.size()) + " partitions, at most " +
                              std::to_string(max_partitions));
    }
    key_record rec;
    {
      mutex_lock lock(keys_mu_);
      auto it = keys_.find(req.key_id);
      if (it == keys_.end()) return not_found("submit: key '" + req.key_id + "' is not registered");
      rec = it->second;
    }
    PP_RETURN_IF_ERROR(check_witnesses(req, rec));
    if (rec.partition_bytes > parts_budget_.total()) {
      return resource_exhausted("submit: one partition of key '" + req.key_id + "' needs " +
                                std::to_string(rec.partition_bytes) + " bytes, more than the partition budget of " +
                                std::to_string(parts_budget_.total()));
    }
    job_spec spec{req.key_id, {}, req.prio, req.idempotency_key, static_cast<uint32_t>(req.witnesses.size())};
    PP_ASSIGN_OR_RETURN(auto sub, tracker_.submit(spec));
    if (!sub.created) return sub.id;
    {
      mutex_lock lock(jobs_mu_);
      active_.insert(sub.id);
    }
    const deadline until = deadline_in(config_.submit_wait);
    for (partition_task& t : sub.tasks) {
      auto w = std::make_unique<partition_work>();
      w->key_id = req.key_id;
      w->source = std::move(req.witnesses[t.partition]);
      const job_id id = t.job;
      const pp::status s = router_.admit(std::move(t), std::move(w), until);
      if (!s.ok()) {
        const pp::status why = s.code() == status_code::deadline_exceeded
                                   ? resource_exhausted("submit: intake queue full (" + std::to_string(router_.intake().capacity()) +
                                                        " partitions) for " + std::to_string(config_.submit_wait.count()) + " ms")
                                   : s;
        tracker_.cancel(id, why).ignore();
        router_.purge(id);
        tracker_.forget(id).ignore();
        return why;
      }
    }
    return sub.id;
  }

  result<job_result> await(job_id id, deadline d) override {
    auto r = tracker_.await(id, d);
    PP_ASSIGN_OR_RETURN(const job_info info, tracker_.info(id));
    if (!is_terminal(info.state)) return deadline_exceeded("job " + std::to_string(id) + " still " + std::string(job_state_name(info.state)));
    job_result out;
    out.id = id;
    out.state = info.state;
    out.error = info.error;
    if (info.state == job_state::succeeded) {
      // It may have ended between the wait running out and info(): read its proofs now, so that a
      // success never comes without them (or, forgotten meanwhile, not_found).
      if (!r.ok()) r = tracker_.await(id, immediate());
      if (!r.ok()) return r.error();
      out.partitions = std::move(r).value();
    }
    return out;
  }

  pp::status cancel(job_id id) override {
    PP_RETURN_IF_ERROR(tracker_.cancel(id));
    router_.purge(id);
    return ok_status();
  }

  pp::status forget(job_id id) override { return tracker_.forget(id); }

  // ---- observation ----

  [[nodiscard]] engine_status status() const override {
    engine_status s;
    {
      reader_lock life(lifecycle_mu_);
      s.accepting = accepting_;
    }
    s.queues.push_back({"intake", router_.intake().size(), router_.intake().capacity()});
    s.queues.push_back({"ready", router_.ready().size(), router_.ready().capacity()});
    s.queues.push_back({"finish", router_.finish().size(), router_.finish().capacity()});
    for (const auto& slot : slots_) {
      s.queues.push_back({"device:" + slot->name(), slot->inbox().size(), slot->inbox().capacity()});
      const auto snap = slot->read();
      device_status d;
      d.name = slot->name();
      d.kind = slot->kind();
      d.healthy = snap.healthy;
      d.fault = snap.fault;
      d.workers = slot->workers();
      d.running = snap.running;
      d.queued = snap.queued;
      d.partitions_done = snap.done;
      d.failures = snap.failures;
      d.busy_fraction = slot->dev().measured_busy_fraction().value_or(slot->meter().fraction());
      d.recent_keys = snap.recent_keys;
      s.devices.push_back(std::move(d));
    }
    {
      mutex_lock lock(jobs_mu_);
      s.jobs_in_flight = active_.size();
      s.jobs_succeeded = ended_[0];
      s.jobs_failed = ended_[1];
      s.jobs_cancelled = ended_[2];
    }
    s.jobs_retained = tracker_.size();
    const auto kb = keys_budget_.stats();
    const auto pb = parts_budget_.stats();
    s.memory = {kb.total + pb.total, kb.total, kb.in_use, pb.total, pb.in_use, pb.peak, pb.waiters, 0};
    std::vector<std::string> ids;
    {
      mutex_lock lock(keys_mu_);
      for (const auto& [id, rec] : keys_) {
        ids.push_back(id);
        s.memory.bytes_per_partition_hint = std::max(s.memory.bytes_per_partition_hint, rec.partition_bytes);
      }
    }
    for (const auto& id : ids) {
      auto info = key_store_.info(id);
      if (!info.ok()) continue;
      s.keys.push_back({id, info->tier != key_tier::disk, info->in_use, info->bytes});
    }
    return s;
  }

  [[nodiscard]] std::string metrics_text() const override { return metrics_->render(status()); }

  [[nodiscard]] pp::status write_trace(const std::filesystem::path& path) const override {
    return trace_.write_chrome_json(path);
  }

  pp::status inject_device_failure(const std::string& name, uint32_t count) override {
    for (auto& s : slots_) {
      if (s->name() == name) {
        s->inject_failures(count);
        return ok_status();
      }
    }
    return not_found("inject_device_failure: no device named '" + name + "'");
  }

  // ---- shutdown ----

  pp::status shutdown(shutdown_options opts) override {
    bool first = false;
    {
      writer_lock life(lifecycle_mu_);
      first = !stopped_;
      stopped_ = true;
      accepting_ = false;
    }
    if (!first) {
      // A drain in progress ends now when asked to stop at once: the draining call wakes and ends
      // the unfinished jobs as below.
      if (!opts.drain) {
        mutex_lock lock(jobs_mu_);
        drain_cut_short_ = true;
        drained_.notify_all();
      }
      return ok_status();
    }
    if (opts.drain) {
      mutex_lock lock(jobs_mu_);
      wait_until(drained_, lock, opts.until,
                 [&]() PP_REQUIRES(jobs_mu_) { return active_.empty() || drain_cut_short_; });
    }
    std::vector<job_id> left;
    {
      mutex_lock lock(jobs_mu_);
      left.assign(active_.begin(), active_.end());
    }
    for (job_id id : left) {
      const auto s = tracker_.cancel(id, unavailable("job " + std::to_string(id) + ": engine shut down before it finished"));
      if (s.ok()) router_.purge(id);
    }
    stopping_ = true;
    router_.close();
    for (auto& t : threads_) t.join();
    dispatcher_.join();
    for (auto& t : device_threads_) t.join();
    for (auto& t : finish_threads_) t.join();
    return ok_status();
  }

 private:
  // ---- helpers ----

  static std::vector<std::unique_ptr<device_slot>> make_slots(std::vector<device_ptr> devs, const engine_config& c) {
    std::vector<std::unique_ptr<device_slot>> out;
    for (auto& d : devs) {
      out.push_back(std::make_unique<device_slot>(std::move(d), c.workers_per_device, c.device_queue_depth, now_ns));
    }
    return out;
  }

  static std::vector<device_slot*> slot_pointers(const std::vector<std::unique_ptr<device_slot>>& slots) {
    std::vector<device_slot*> out;
    for (const auto& s : slots) out.push_back(s.get());
    return out;
  }

  // A partition's host memory: the configured figure, else the largest any device's backend needs
  // for it (a CPU partition holds its MSM scratch on the host, a GPU partition only its witness).
  key_record record_for(const groth16::proving_key& pk, const r1cs::constraint_system& cs) const {
    if (config_.partition_bytes) return {cs.num_variables(), config_.partition_bytes};
    uint64_t bytes = 0;
    for (const auto& slot : slots_) {
      bytes = std::max(bytes, slot->dev().backend().host_bytes_per_partition(cs.num_variables(), pk.domain_size));
    }
    return {cs.num_variables(), bytes};
  }

  void note_key(const std::string& id, const loaded_key& k) {
    mutex_lock lock(keys_mu_);
    keys_[id] = record_for(*k.pk, *k.cs);
  }

  pp::status check_witnesses(const submit_request& req, const key_record& rec) const {
    for (size_t p = 0; p < req.witnesses.size(); ++p) {
      const auto& v = req.witnesses[p].value;
      if (const auto* path = std::get_if<std::filesystem::path>(&v)) {
        if (const std::string what = formats::describe_if_not_regular(*path); !what.empty()) {
          return invalid_argument("submit: partition " + std::to_string(p) + ": witness file " + path->string() + " " +
                                  what + "; expected a regular .wtns file");
        }
      } else {
        const auto& w = std::get<std::shared_ptr<const std::vector<ff::fr>>>(v);
        if (!w) return invalid_argument("submit: partition " + std::to_string(p) + ": null witness");
        if (rec.num_variables != 0 && w->size() != rec.num_variables) {
          return invalid_argument("submit: partition " + std::to_string(p) + ": witness has " + std::to_string(w->size()) +
                                  " values, key '" + req.key_id + "' expects " + std::to_string(rec.num_variables));
        }
      }
    }
    return ok_status();
  }

  void on_terminal(job_id id, job_state s) {
    metrics_->job_ended(s);
    std::vector<job_id> drop;
    {
      mutex_lock lock(jobs_mu_);
      active_.erase(id);
      ++ended_[s == job_state::succeeded ? 0 : s == job_state::failed ? 1 : 2];
      retained_.push_back(id);
      while (retained_.size() > config_.max_retained_jobs) {
        drop.push_back(retained_.front());
        retained_.pop_front();
      }
      drained_.notify_all();
    }
    for (job_id old : drop) tracker_.forget(old).ignore();
  }

  void fail(const partition_task& t, pp::status error) { fail(t.job, t.partition, std::move(error)); }
  void fail(job_id job, uint32_t partition, pp::status error) {
    metrics_->partition_ended("failed");
    tracker_.complete_partition(job, partition, std::move(error)).ignore();
    router_.purge(job);
  }

  static nanoseconds since(steady_clock::time_point t) { return steady_clock::now() - t; }

  result<key_lease> lease_key(const std::string& id, const cancel_token& cancel) {
    while (true) {
      auto l = key_store_.acquire(id, host_key_tier, deadline_in(stage_poll_interval));
      if (l.ok() || l.error().code() != status_code::deadline_exceeded) return l;
      if (cancel.cancelled() || stopping_) return pp::cancelled("cancelled while waiting for key '" + id + "'");
    }
  }

  result<memory_reservation> reserve_partition(uint64_t bytes, const cancel_token& cancel) {
    while (true) {
      auto r = parts_budget_.reserve(bytes, deadline_in(stage_poll_interval));
      if (r.ok() || r.error().code() != status_code::deadline_exceeded) return r;
      if (cancel.cancelled() || stopping_) return pp::cancelled("cancelled while waiting for host memory");
    }
  }

  // ---- stages ----

  void witness_loop(const std::string& track) {
    while (true) {
      auto t = router_.intake().pop(no_deadline());
      if (!t.ok()) return;  // closed and drained
      run_witness_contained(std::move(t).value(), track);
    }
  }

  // run_witness with any exception failing the partition (engine/contain_exceptions.hpp).
  void run_witness_contained(partition_task t, const std::string& track) {
    const job_id job = t.job;
    const uint32_t partition = t.partition;
    const pp::status s = contain_exceptions("witness stage", [&] {
      run_witness(std::move(t), track);
      return ok_status();
    });
    if (!s.ok()) fail(job, partition, s);
  }

  void run_witness(partition_task t, const std::string& track) {
    auto w = router_.claim(t);
    if (!w || t.cancel.cancelled() || !tracker_.begin_partition(t.job)) return;
    const nanoseconds queued = since(w->enqueued);
    const auto t0 = steady_clock::now();
    trace_span span(trace_, "witness", track);
    span.arg("job", static_cast<double>(t.job)).arg("partition", t.partition);

    auto lease = lease_key(t.key_id, t.cancel);
    if (!lease.ok()) {
      if (!t.cancel.cancelled()) fail(t, lease.error());
      return;
    }
    w->lease = std::move(lease).value();
    w->key = static_cast<const loaded_key*>(w->lease.handle().get());
    note_key(t.key_id, *w->key);
    // A witness path is opened (never waiting) and checked before memory is reserved, so a path
    // swapped for a FIFO or a huge file fails at once instead of holding this thread.
    std::optional<witness_file> file;
    if (const auto* path = std::get_if<std::filesystem::path>(&w->source.value)) {
      auto f = witness_file::open(*path, max_wtns_file_bytes(w->key->cs->num_variables()));
      if (!f.ok()) return fail(t, f.error());
      file.emplace(std::move(f).value());
    }
    const uint64_t bytes = record_for(*w->key->pk, *w->key->cs).partition_bytes;
    // While a file is read and parsed, its bytes and the parsed witness are live and nothing else of
    // the partition is yet: hold whichever is larger, then shrink to the partition (below). A budget
    // of exactly one partition thus still runs a by-path witness whose partition estimate covers it.
    const uint64_t parsed = uint64_t{w->key->cs->num_variables()} * sizeof(ff::fr);
    const uint64_t with_file = file ? std::max(bytes, file->size() + parsed) : bytes;
    auto mem = reserve_partition(with_file, t.cancel);
    if (!mem.ok()) {
      if (!t.cancel.cancelled()) fail(t, mem.error().with_context("reserving " + std::to_string(with_file) + " bytes"));
      return;
    }
    w->memory = std::move(mem).value();

    if (file) {
      auto v = file->read([&] { return t.cancel.cancelled() || stopping_.load(); });
      if (!v.ok()) {
        if (!t.cancel.cancelled()) fail(t, v.error());
        return;
      }
      w->witness = std::make_shared<const std::vector<ff::fr>>(std::move(v).value());
      file.reset();
      if (auto s = w->memory.shrink_to(bytes); !s.ok()) return fail(t, s);
    } else {
      w->witness = std::get<std::shared_ptr<const std::vector<ff::fr>>>(w->source.value);
    }
    if (auto s = r1cs::check_witness(*w->key->cs, *w->witness); !s.ok()) {
      return fail(t, s.with_context("witness for key '" + t.key_id + "'"));
    }
    span.end();
    const nanoseconds ran = since(t0);
    metrics_->observe_stage("witness", std::chrono::duration<double>(ran).count());
    w->stages.push_back({"witness", queued, ran});
    // While the ready queue is full this thread serves CRITICAL tasks waiting in the intake.
    const partition_router::serve_fn serve = [&](partition_task c) { run_witness_contained(std::move(c), track); };
    router_.forward(router_.ready(), std::move(t), std::move(w), &serve);
  }

  // The backend's off-thread intervals (a GPU lane's upload and kernels) on tracks under the
  // device's name, converted from the steady clock to the trace recorder's clock.
  void record_backend_spans(device_slot& slot, const std::vector<groth16::prove_timings::span>& spans,
                            const partition_task& t) {
    if (spans.empty()) return;
    const auto now = steady_clock::now();
    const int64_t now_us = trace_.now_us();
    auto at_us = [&](steady_clock::time_point tp) {
      return now_us - std::chrono::duration_cast<std::chrono::microseconds>(now - tp).count();
    };
    for (const auto& sp : spans) {
      trace_event e;
      e.name = sp.name;
      e.track = slot.name() + "/" + sp.track;
      e.start_us = at_us(sp.begin);
      e.duration_us = std::max<int64_t>(at_us(sp.end) - e.start_us, 0);
      e.args = {{"job", static_cast<double>(t.job)}, {"partition", static_cast<double>(t.partition)}};
      trace_.record(std::move(e));
    }
  }

  void finish_loop(const std::string& track) {
    while (true) {
      auto t = router_.finish().pop(no_deadline());
      if (!t.ok()) return;
      run_finish(std::move(t).value(), track);
    }
  }

  void run_finish(partition_task t, const std::string& track) {
    auto w = router_.claim(t);
    if (!w || t.cancel.cancelled()) return;
    const nanoseconds queued = since(w->enqueued);
    const auto t0 = steady_clock::now();
    result<groth16::prove_output> out = internal_error("unset");
    {
      trace_span span(trace_, "finish", track);
      span.arg("job", static_cast<double>(t.job)).arg("partition", t.partition);
      out = contain_exceptions("finish", [&] { return w->device->dev().backend().finish(std::move(w->pending)); });
    }
    if (!out.ok()) return fail(t, out.error().with_context("finishing on " + w->device->name()));
    const nanoseconds ran = since(t0);
    metrics_->observe_stage("finish", std::chrono::duration<double>(ran).count());
    partition_result r;
    r.proof = out->pi;
    const size_t n_public = w->key->pk->n_public();
    r.public_inputs.assign(w->witness->begin() + 1, w->witness->begin() + 1 + static_cast<std::ptrdiff_t>(n_public));
    r.stages = std::move(w->stages);
    r.stages.push_back({"finish", queued, ran});
    for (const auto& step : out->timings.steps) r.backend_steps.push_back({step.name, {}, step.elapsed});
    record_backend_spans(*w->device, out->timings.spans, t);
    r.device = w->device->name();
    r.attempts = w->attempts;
    w.reset();  // memory and key lease back before the job can complete
    if (tracker_.complete_partition(t.job, t.partition, std::move(r)).ok()) {
      metrics_->partition_ended("ok");
    } else {
      metrics_->partition_ended("cancelled");
    }
  }

  // ---- members (destroyed bottom-up: threads are joined in shutdown() before any of this) ----

  const engine_config config_;
  memory_budget keys_budget_;
  memory_budget parts_budget_;
  key_store key_store_;
  mutable trace_recorder trace_;
  std::unique_ptr<engine_metrics> metrics_;

  mutable mutex keys_mu_;
  std::map<std::string, key_record> keys_ PP_GUARDED_BY(keys_mu_);

  mutable mutex jobs_mu_;
  std::condition_variable drained_;
  std::set<job_id> active_ PP_GUARDED_BY(jobs_mu_);
  std::deque<job_id> retained_ PP_GUARDED_BY(jobs_mu_);
  uint64_t ended_[3] PP_GUARDED_BY(jobs_mu_) = {0, 0, 0};  // succeeded, failed, cancelled
  bool drain_cut_short_ PP_GUARDED_BY(jobs_mu_) = false;    // shutdown({.drain = false}) during a drain

  job_tracker<partition_result> tracker_;
  std::vector<std::unique_ptr<device_slot>> slots_;
  partition_router router_;  // parks leases and reservations: after key_store, budgets; before slots die
  std::vector<std::unique_ptr<device_worker>> device_workers_;

  // Held shared by submit() from its check of accepting_ to its last push, exclusively by
  // shutdown() to stop accepting: no job slips in after shutdown() has listed the active ones.
  mutable shared_mutex lifecycle_mu_;
  bool accepting_ PP_GUARDED_BY(lifecycle_mu_) = true;
  bool stopped_ PP_GUARDED_BY(lifecycle_mu_) = false;
  std::atomic<bool> stopping_{false};

  std::vector<std::thread> threads_;
  std::thread dispatcher_;
  std::vector<std::thread> device_threads_;
  std::vector<std::thread> finish_threads_;
};

}  // namespace

result<std::unique_ptr<engine>> engine::create(engine_config config) {
  PP_RETURN_IF_ERROR(validate(config));
  uint64_t host_bytes = config.host_memory_bytes;
  if (host_bytes == 0) {
    PP_ASSIGN_OR_RETURN(const host_memory_limit lim, read_host_memory_limit({}, config.host_memory_margin));
    host_bytes = lim.usable;
  }
  if (host_bytes < 2) return resource_exhausted("engine: host memory budget of " + std::to_string(host_bytes) + " bytes");
  std::vector<device_ptr> devs;
  if (config.make_devices) {
    PP_ASSIGN_OR_RETURN(devs, config.make_devices());
  } else {
    for (uint32_t i = 0; i < config.cpu_devices; ++i) devs.push_back(devices::make_cpu_device("cpu" + std::to_string(i)));
  }
  if (devs.empty()) return invalid_argument("engine config: no devices");
  std::set<std::string> names;
  for (const auto& d : devs) {
    if (!d) return invalid_argument("engine config: make_devices returned a null device");
    if (!names.insert(std::string(d->name())).second) {
      return invalid_argument("engine config: two devices named '" + std::string(d->name()) + "'");
    }
  }
  PP_ASSIGN_OR_RETURN(auto metrics, engine_metrics::create());
  return std::unique_ptr<engine>(new engine_impl(std::move(config), host_bytes, std::move(devs), std::move(metrics)));
}

}  // namespace pp::engine
