// engine.cpp: wires the engine's components (job_tracker, job_ledger, memory_budgets, key_store,
// key_records, device_slots, partition_router, witness_stage, device_workers, finish_stage,
// engine_metrics, trace_recorder) into the stage pipeline described in engine.hpp and gives each
// stage its threads. The policies live in those components: the router moves partitions between
// queues, the stages run them (the device workers also retry them), the ledger keeps the jobs'
// account; here the public calls check their arguments and call in.
#include "engine/engine.hpp"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>
#include <thread>

#include "core/file_type.hpp"
#include "core/mutex.hpp"
#include "core/status_macros.hpp"
#include "core/thread_annotations.hpp"
#include "engine/curves.hpp"
#include "engine/device_slot.hpp"
#include "engine/device_worker.hpp"
#include "engine/engine_metrics.hpp"
#include "engine/finish_stage.hpp"
#include "engine/host_memory_limit.hpp"
#include "engine/job_ledger.hpp"
#include "engine/job_tracker.hpp"
#include "engine/key_catalog.hpp"
#include "engine/key_records.hpp"
#include "engine/partition_router.hpp"
#include "engine/partition_work.hpp"
#include "engine/witness_stage.hpp"

namespace pp::engine {

status validate(const engine_config& c) {
  if (!c.make_devices && c.cpu_devices == 0) return invalid_argument("engine config: cpu_devices is 0 and no make_devices");
  if (c.workers_per_device == 0) return invalid_argument("engine config: workers_per_device must be >= 1");
  if (c.partitions_together == 0) return invalid_argument("engine config: partitions_together must be >= 1");
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
        ledger_(config_.max_retained_jobs),
        tracker_([this](job_id id, job_state s) { on_terminal(id, s); }),
        slots_(make_slots(std::move(devs), config_)),
        device_curves_(curves_of(slots_)),
        records_(config_.partition_bytes, backends<ec::bls12_381::family>(slots_), backends<ec::bn254::family>(slots_)),
        router_({config_.intake_capacity, config_.ready_capacity, config_.finish_capacity}, slot_pointers(slots_),
                {.fail = fail_fn(), .cancel_job = [this](job_id id, pp::status e) { tracker_.cancel(id, std::move(e)).ignore(); }}),
        witness_(router_, tracker_, key_store_, records_, parts_budget_, trace_, *metrics_, fail_fn()),
        finish_(router_, tracker_, trace_, *metrics_, fail_fn()) {
    for (auto& s : slots_) {
      // What a device takes for the keys it serves beyond the key store's copy (a GPU's pinned
      // matrix image) is key memory: charged to the key budget, released when the device drops it.
      s->dev().set_host_charge([this](uint64_t bytes) -> result<std::shared_ptr<void>> {
        PP_ASSIGN_OR_RETURN(memory_reservation r, keys_budget_.try_reserve(bytes));
        return std::shared_ptr<void>(std::make_shared<memory_reservation>(std::move(r)));
      });
      device_workers_.push_back(std::make_unique<device_worker>(
          *s, router_, trace_, *metrics_, device_worker::options{config_.self_verify, config_.max_attempts, config_.together_wait}, fail_fn()));
    }
    for (uint32_t i = 0; i < config_.witness_threads; ++i) {
      threads_.emplace_back([this, i] { witness_.loop("witness-" + std::to_string(i)); });
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
      finish_threads_.emplace_back([this, i] { finish_.loop("finish-" + std::to_string(i)); });
    }
  }

  ~engine_impl() override { shutdown({.drain = false}).ignore(); }

  // ---- keys ----

  pp::status register_key(const std::string& id, key_source source) override {
    PP_ASSIGN_OR_RETURN(key_description d, describe_key(id, source));
    const uint64_t bytes = d.descriptor.bytes;
    if (bytes > keys_budget_.total()) {
      return resource_exhausted("register_key '" + id + "': needs ~" + std::to_string(bytes) +
                                " bytes, more than the whole key budget of " + std::to_string(keys_budget_.total()));
    }
    key_records::record rec{.curve = d.curve};
    if (const auto* m = std::get_if<memory_key_source>(&source)) rec = records_.measure(*m->pk, *m->cs);
    if (const auto* m = std::get_if<bn254::memory_key_source>(&source)) rec = records_.measure(*m->pk, *m->cs);
    PP_RETURN_IF_ERROR(key_store_.add(std::move(d.descriptor)));
    records_.set(id, rec);
    return ok_status();
  }

  pp::status preload_key(const std::string& id, deadline d) override {
    PP_ASSIGN_OR_RETURN(key_lease lease, key_store_.acquire(id, d));
    records_.note(id, *static_cast<const loaded_key*>(lease.handle().get()));
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
    const std::optional<key_records::record> rec = records_.find(req.key_id);
    if (!rec) return not_found("submit: key '" + req.key_id + "' is not registered");
    PP_RETURN_IF_ERROR(check_curve_served(req.key_id, rec->curve, device_curves_).with_context("submit"));
    PP_RETURN_IF_ERROR(check_witnesses(req, *rec));
    if (rec->partition_bytes > parts_budget_.total()) {
      return resource_exhausted("submit: one partition of key '" + req.key_id + "' needs " +
                                std::to_string(rec->partition_bytes) + " bytes, more than the partition budget of " +
                                std::to_string(parts_budget_.total()));
    }
    job_spec spec{req.key_id, {}, req.prio, req.idempotency_key, static_cast<uint32_t>(req.witnesses.size()), rec->curve};
    PP_ASSIGN_OR_RETURN(auto sub, tracker_.submit(spec));
    if (!sub.created) return sub.id;
    ledger_.started(sub.id);
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
      const auto measured = slot->dev().measures();
      d.busy_fraction = measured ? measured->busy_fraction : slot->meter().fraction();
      d.recent_keys = snap.recent_keys;
      for (const ec::curve_id c : all_curves) {
        if (has_curve(slot->curves(), c)) d.curves.push_back(c);
      }
      s.devices.push_back(std::move(d));
    }
    const job_ledger::counts jobs = ledger_.read();
    s.jobs_in_flight = jobs.in_flight;
    s.jobs_succeeded = jobs.succeeded;
    s.jobs_failed = jobs.failed;
    s.jobs_cancelled = jobs.cancelled;
    s.jobs_retained = tracker_.size();
    const auto kb = keys_budget_.stats();
    const auto pb = parts_budget_.stats();
    s.memory = {kb.total + pb.total, kb.total, kb.in_use, pb.total, pb.in_use, pb.peak, pb.waiters, 0};
    s.memory.bytes_per_partition_hint = records_.largest_partition_bytes();
    for (const auto& id : records_.ids()) {
      auto info = key_store_.info(id);
      if (!info.ok()) continue;
      const std::optional<key_records::record> rec = records_.find(id);
      s.keys.push_back({id, rec ? rec->curve : ec::curve_id::bls12_381, info->resident, info->in_use, info->bytes});
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
      if (!opts.drain) ledger_.cut_drain();
      return ok_status();
    }
    if (opts.drain) ledger_.wait_drained(opts.until);
    for (job_id id : ledger_.in_flight()) {
      const auto s = tracker_.cancel(id, unavailable("job " + std::to_string(id) + ": engine shut down before it finished"));
      if (s.ok()) router_.purge(id);
    }
    witness_.stop();
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
      out.push_back(std::make_unique<device_slot>(std::move(d), c.workers_per_device, c.device_queue_depth, now_ns,
                                                  c.partitions_together));
    }
    return out;
  }

  static std::vector<device_slot*> slot_pointers(const std::vector<std::unique_ptr<device_slot>>& slots) {
    std::vector<device_slot*> out;
    for (const auto& s : slots) out.push_back(s.get());
    return out;
  }

  // The devices' backends for Family's keys (those of the devices that prove it).
  template <class Family>
  static std::vector<const groth16::basic_backend<Family>*> backends(const std::vector<std::unique_ptr<device_slot>>& slots) {
    std::vector<const groth16::basic_backend<Family>*> out;
    for (const auto& s : slots) {
      if (const auto* b = devices::backend_for<Family>(s->dev())) out.push_back(b);
    }
    return out;
  }

  static std::vector<device_curves> curves_of(const std::vector<std::unique_ptr<device_slot>>& slots) {
    std::vector<device_curves> out;
    for (const auto& s : slots) out.push_back({s->name(), s->curves()});
    return out;
  }

  static pp::status check_witnesses(const submit_request& req, const key_records::record& rec) {
    for (size_t p = 0; p < req.witnesses.size(); ++p) {
      const auto& v = req.witnesses[p].value;
      if (const auto* path = std::get_if<std::filesystem::path>(&v)) {
        if (pp::status s = refuse_embedded_nul(*path); !s.ok()) {
          return s.with_context("submit: partition " + std::to_string(p) + ": witness file");
        }
        if (const std::string what = describe_if_not_regular(*path); !what.empty()) {
          return invalid_argument("submit: partition " + std::to_string(p) + ": witness file " + path->string() + " " +
                                  what + "; expected a regular .wtns file");
        }
      } else if (const auto* b = std::get_if<witness_ptr<ec::bls12_381::family>>(&v)) {
        PP_RETURN_IF_ERROR(check_memory_witness<ec::bls12_381::family>(req, p, rec, *b));
      } else {
        PP_RETURN_IF_ERROR(check_memory_witness<ec::bn254::family>(req, p, rec, std::get<witness_ptr<ec::bn254::family>>(v)));
      }
    }
    return ok_status();
  }

  template <class Family>
  static pp::status check_memory_witness(const submit_request& req, size_t p, const key_records::record& rec,
                                         const witness_ptr<Family>& w) {
    const std::string part = "submit: partition " + std::to_string(p);
    if (!w) return invalid_argument(part + ": null witness");
    if (ec::curve_id_of<Family> != rec.curve) {
      return invalid_argument(part + ": the witness holds " + ec::curve_text(ec::curve_id_of<Family>) + " values, key '" +
                              req.key_id + "' is for " + ec::curve_text(rec.curve));
    }
    if (rec.num_variables != 0 && w->size() != rec.num_variables) {
      return invalid_argument(part + ": witness has " + std::to_string(w->size()) + " values, key '" + req.key_id +
                              "' expects " + std::to_string(rec.num_variables));
    }
    return ok_status();
  }

  void on_terminal(job_id id, job_state s) {
    metrics_->job_ended(s);
    for (job_id old : ledger_.ended(id, s)) tracker_.forget(old).ignore();
  }

  // Ends a partition with an error, and so its job: what every stage calls when a partition cannot go on.
  void fail(const partition_task& t, pp::status error) {
    metrics_->partition_ended("failed");
    tracker_.complete_partition(t.job, t.partition, std::move(error)).ignore();
    router_.purge(t.job);
  }
  std::function<void(const partition_task&, pp::status)> fail_fn() {
    return [this](const partition_task& t, pp::status e) { fail(t, std::move(e)); };
  }

  // ---- members (destroyed bottom-up: threads are joined in shutdown() before any of this) ----

  const engine_config config_;
  memory_budget keys_budget_;
  memory_budget parts_budget_;
  key_store key_store_;
  mutable trace_recorder trace_;
  std::unique_ptr<engine_metrics> metrics_;

  job_ledger ledger_;

  job_tracker<partition_result> tracker_;
  std::vector<std::unique_ptr<device_slot>> slots_;
  const std::vector<device_curves> device_curves_;  // names point into slots_
  key_records records_;      // asks the slots' backends
  partition_router router_;  // parks leases and reservations: after key_store, budgets; before slots die
  witness_stage witness_;
  finish_stage finish_;
  std::vector<std::unique_ptr<device_worker>> device_workers_;

  // Held shared by submit() from its check of accepting_ to its last push, exclusively by
  // shutdown() to stop accepting: no job slips in after shutdown() has listed the active ones.
  mutable shared_mutex lifecycle_mu_;
  bool accepting_ PP_GUARDED_BY(lifecycle_mu_) = true;
  bool stopped_ PP_GUARDED_BY(lifecycle_mu_) = false;

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
