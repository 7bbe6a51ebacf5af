#include "engine/device_worker.hpp"

#include <chrono>
#include <utility>

#include "core/trace_span.hpp"
#include "engine/contain_exceptions.hpp"
#include "engine/curves.hpp"
#include "engine/partition_work.hpp"

namespace pp::engine {
namespace {

bool is_request_error(const status& s) {
  return s.code() == status_code::invalid_argument || s.code() == status_code::failed_precondition;
}

// Starts the partition on the device's backend for its key's curve. The router places a partition
// only on a device that proves its curve; failed_precondition should one come anyway.
result<groth16::pending_ptr> start_on(devices::device& dev, const partition_work& w, bool self_verify) {
  return ec::visit_curve(w.key->curve(), [&]<class Family>() -> result<groth16::pending_ptr> {
    groth16::basic_backend<Family>* be = devices::backend_for<Family>(dev);
    if (!be) return failed_precondition("this device does not prove " + ec::curve_text(ec::curve_id_of<Family>) + " keys");
    const basic_loaded_key<Family>& key = *w.key->as<Family>();
    groth16::basic_prove_request<Family> req;
    req.pk = key.pk.get();
    req.cs = key.cs.get();
    req.witness = *std::get<witness_ptr<Family>>(w.witness);
    req.options.self_verify = self_verify;
    return be->start(req);
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

void device_worker::run(partition_task t, const std::string& track) {
  using std::chrono::steady_clock;
  auto w = router_.claim(t);
  if (!w || t.cancel.cancelled()) {
    slot_.unplaced();
    return;
  }
  if (!slot_.healthy()) {  // left rotation after this task was placed: route it elsewhere
    slot_.unplaced();
    router_.forward(router_.ready(), std::move(t), std::move(w));
    return;
  }
  slot_.started();
  const std::chrono::nanoseconds queued = steady_clock::now() - w->enqueued;
  const auto t0 = steady_clock::now();
  ++w->attempts;
  result<groth16::pending_ptr> p = internal_error("unset");
  {
    trace_span span(trace_, "device", track);
    span.arg("job", static_cast<double>(t.job)).arg("partition", t.partition).arg("attempt", w->attempts);
    slot_.meter().begin();
    if (slot_.take_injected_failure()) {
      p = unavailable("device " + slot_.name() + ": injected device failure");
    } else {
      p = contain_exceptions("device " + slot_.name(), [&] { return start_on(slot_.dev(), *w, opts_.self_verify); });
    }
    slot_.meter().end();
  }
  const std::chrono::nanoseconds ran = steady_clock::now() - t0;
  if (p.ok()) {
    slot_.ended(true, t.key_id);
    metrics_.observe_stage("device", std::chrono::duration<double>(ran).count());
    w->stages.push_back({"device", queued, ran});
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
