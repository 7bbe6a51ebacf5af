#include "engine/device_worker.hpp"

#include <algorithm>
#include <chrono>
#include <utility>

#include "core/log.hpp"
#include "core/trace_span.hpp"
#include "engine/contain_exceptions.hpp"
#include "engine/curves.hpp"
#include "engine/deadline.hpp"
#include "engine/partition_work.hpp"

namespace pp::engine {
namespace {

bool is_request_error(const status& s) {
  return s.code() == status_code::invalid_argument || s.code() == status_code::failed_precondition;
}

// A start_together() error that left every partition unstarted and the device as it was
// (groth16/backend.hpp): each is started alone instead.
bool left_unstarted(const status& s) {
  return is_request_error(s) || s.code() == status_code::resource_exhausted;
}

// The request start() gets for a partition.
template <class Family>
groth16::basic_prove_request<Family> request_for(const partition_work& w, bool self_verify) {
  const basic_loaded_key<Family>& key = *w.key->as<Family>();
  groth16::basic_prove_request<Family> req;
  req.pk = key.pk.get();
  req.cs = key.cs.get();
  req.witness = *std::get<witness_ptr<Family>>(w.witness);
  req.options.self_verify = self_verify;
  return req;
}

// Starts the partition on the device's backend for its key's curve. The router places a partition
// only on a device that proves its curve; failed_precondition should one come anyway.
result<groth16::pending_ptr> start_on(devices::device& dev, const partition_work& w, bool self_verify) {
  return ec::visit_curve(w.key->curve(), [&]<class Family>() -> result<groth16::pending_ptr> {
    groth16::basic_backend<Family>* be = devices::backend_for<Family>(dev);
    if (!be) return failed_precondition("this device does not prove " + ec::curve_text(ec::curve_id_of<Family>) + " keys");
    return be->start(request_for<Family>(w, self_verify));
  });
}

// Partitions of one key started together on the device's backend for its curve.
result<std::vector<groth16::pending_ptr>> start_together_on(devices::device& dev,
                                                            const std::vector<const partition_work*>& ws,
                                                            bool self_verify) {
  return ec::visit_curve(ws.front()->key->curve(), [&]<class Family>() -> result<std::vector<groth16::pending_ptr>> {
    groth16::basic_backend<Family>* be = devices::backend_for<Family>(dev);
    if (!be) return failed_precondition("this device does not prove " + ec::curve_text(ec::curve_id_of<Family>) + " keys");
    std::vector<groth16::basic_prove_request<Family>> reqs;
    for (const partition_work* w : ws) reqs.push_back(request_for<Family>(*w, self_verify));
    return be->start_together(reqs);
  });
}

// The most partitions of curve c the device's backend starts together.
size_t backend_together(devices::device& dev, ec::curve_id c) {
  return ec::visit_curve(c, [&]<class Family>() -> size_t {
    const groth16::basic_backend<Family>* be = devices::backend_for<Family>(dev);
    return be ? be->partitions_together() : 1;
  });
}

}  // namespace

device_worker::device_worker(device_slot& slot, partition_router& router, trace_recorder& trace,
                             engine_metrics& metrics, options opts, fail_fn fail)
    : slot_(slot), router_(router), trace_(trace), metrics_(metrics), opts_(opts), fail_(std::move(fail)) {}

void device_worker::loop(const std::string& track) {
  run_until_closed(slot_.inbox(), [&](partition_task t) {
    run(std::move(t), track);
    router_.wake();
  });
}

size_t device_worker::together_for(const partition_task& t) {
  if (slot_.partitions_together() <= 1) return 1;
  size_t most = std::min<size_t>(slot_.partitions_together(), backend_together(slot_.dev(), t.curve));
  mutex_lock lock(mu_);
  if (const auto cap = key_caps_.find(t.key_id); cap != key_caps_.end()) most = std::min(most, cap->second);
  return most;
}

void device_worker::run(partition_task first, const std::string& track) {
  using std::chrono::steady_clock;
  std::vector<partition_task> tasks;
  const size_t together = together_for(first);
  tasks.push_back(std::move(first));
  if (together > 1) {
    for (partition_task& t : slot_.inbox().pop_same_key(tasks.front().key_id, together - 1, deadline_in(opts_.together_wait))) {
      tasks.push_back(std::move(t));
    }
  }
  std::vector<started_partition> group;
  for (partition_task& t : tasks) {
    auto w = router_.claim(t);
    if (!w || t.cancel.cancelled()) {
      slot_.unplaced();
      continue;
    }
    if (!slot_.healthy()) {  // left rotation after this task was placed: route it elsewhere
      slot_.unplaced();
      router_.forward(router_.ready(), std::move(t), std::move(w));
      continue;
    }
    group.push_back({std::move(t), std::move(w), {}});
  }
  if (group.empty()) return;
  const auto t0 = steady_clock::now();
  for (started_partition& g : group) {
    slot_.started();
    g.queued = t0 - g.work->enqueued;
    ++g.work->attempts;
  }
  std::vector<result<groth16::pending_ptr>> outcomes;
  {
    trace_span span(trace_, "device", track);
    span.arg("job", static_cast<double>(group[0].task.job))
        .arg("partition", group[0].task.partition)
        .arg("attempt", group[0].work->attempts);
    if (group.size() > 1) span.arg("partitions together", static_cast<double>(group.size()));
    slot_.meter().begin();
    outcomes = start(group);
    slot_.meter().end();
  }
  const std::chrono::nanoseconds ran = steady_clock::now() - t0;
  for (size_t i = 0; i < group.size(); ++i) settle(std::move(group[i]), std::move(outcomes[i]), ran);
}

std::vector<result<groth16::pending_ptr>> device_worker::start(const std::vector<started_partition>& group) {
  std::vector<result<groth16::pending_ptr>> out;
  const std::string where = "device " + slot_.name();
  if (slot_.take_injected_failure()) {
    for (size_t i = 0; i < group.size(); ++i) out.push_back(unavailable(where + ": injected device failure"));
    return out;
  }
  if (group.size() > 1) {
    std::vector<const partition_work*> ws;
    for (const started_partition& g : group) ws.push_back(g.work.get());
    auto r = contain_exceptions(where, [&] { return start_together_on(slot_.dev(), ws, opts_.self_verify); });
    if (r.ok() && r->size() != group.size()) {
      r = internal_error(where + ": start_together gave " + std::to_string(r->size()) + " pendings for " +
                         std::to_string(group.size()) + " partitions");
    }
    if (r.ok()) {
      metrics_.device_started(group.size());
      for (auto& p : *r) out.push_back(std::move(p));
      return out;
    }
    if (!left_unstarted(r.error())) {  // a device fault: every partition of the group had it
      for (size_t i = 0; i < group.size(); ++i) out.push_back(r.error());
      return out;
    }
    // Not taken together: each alone now and, unless one request was bad, fewer together for this
    // key from now on: one at a time where the device takes none of it together (failed_precondition),
    // one fewer where this many did not fit (resource_exhausted). The device's worker threads refuse
    // concurrently: a larger group formed before another's refusal lowered the cap must not raise it
    // again.
    if (r.error().code() != status_code::invalid_argument) {
      const size_t cap = r.error().code() == status_code::failed_precondition ? 1 : group.size() - 1;
      bool lowered = false;
      {
        mutex_lock lock(mu_);
        auto [at, fresh] = key_caps_.try_emplace(group[0].task.key_id, cap);
        lowered = fresh || at->second > cap;
        if (lowered) at->second = cap;
      }
      if (lowered) {
        pp::log::get("engine")->info("{}: partitions of key '{}' at most {} together from now on: {}", where,
                                     group[0].task.key_id, cap, r.error().to_string());
      }
    }
  }
  for (const started_partition& g : group) {
    out.push_back(contain_exceptions(where, [&] { return start_on(slot_.dev(), *g.work, opts_.self_verify); }));
    if (out.back().ok()) metrics_.device_started(1);
  }
  return out;
}

void device_worker::settle(started_partition g, result<groth16::pending_ptr> p, std::chrono::nanoseconds ran) {
  partition_task& t = g.task;
  std::unique_ptr<partition_work>& w = g.work;
  if (p.ok()) {
    slot_.ended(true, t.key_id);
    metrics_.observe_stage("device", std::chrono::duration<double>(ran).count());
    w->stages.push_back({"device", g.queued, ran});
    w->device = &slot_;
    w->pending = std::move(p).value();
    router_.forward(router_.finish(), std::move(t), std::move(w));
    return;
  }
  slot_.ended(false, t.key_id);
  const status err = p.error().with_context("on device " + slot_.name());
  if (is_request_error(p.error())) return fail_(t, err);
  // A device fault: out of rotation; retry the partition on another device.
  slot_.mark_faulty(err.to_string());
  metrics_.partition_ended("device_fault");
  if (w->attempts >= opts_.max_attempts) {
    return fail_(t, err.with_context("after " + std::to_string(w->attempts) + " attempts"));
  }
  metrics_.retried();
  router_.forward(router_.ready(), std::move(t), std::move(w));
}

}  // namespace pp::engine
