#include "engine/finish_stage.hpp"

#include <chrono>
#include <cstddef>
#include <utility>

#include "core/status_macros.hpp"
#include "core/trace_span.hpp"
#include "engine/backend_spans.hpp"
#include "engine/contain_exceptions.hpp"
#include "engine/key_catalog.hpp"
#include "engine/partition_work.hpp"

namespace pp::engine {
namespace {

struct finished {
  decltype(partition_result::output) output;
  groth16::prove_timings timings;
};

// Finishes the partition on the backend of its key's curve that started it: the proof with its
// public inputs (w[1..n_public]), and the backend's timings.
result<finished> finish_on(devices::device& dev, partition_work& w) {
  return ec::visit_curve(w.key->curve(), [&]<class Family>() -> result<finished> {
    groth16::basic_backend<Family>* be = devices::backend_for<Family>(dev);
    if (!be) return internal_error("the device that started the partition has no backend for its curve");
    PP_ASSIGN_OR_RETURN(groth16::basic_prove_output<Family> out, be->finish(std::move(w.pending)));
    const auto& witness = *std::get<witness_ptr<Family>>(w.witness);
    const auto n_public = static_cast<std::ptrdiff_t>(w.key->as<Family>()->pk->n_public());
    basic_curve_proof<Family> proof{out.pi, {witness.begin() + 1, witness.begin() + 1 + n_public}};
    return finished{std::move(proof), std::move(out.timings)};
  });
}

}  // namespace

finish_stage::finish_stage(partition_router& router, job_tracker<partition_result>& tracker, trace_recorder& trace,
                           engine_metrics& metrics, fail_fn fail)
    : router_(router), tracker_(tracker), trace_(trace), metrics_(metrics), fail_(std::move(fail)) {}

void finish_stage::loop(const std::string& track) {
  run_until_closed(router_.finish(), [&](partition_task t) { run(std::move(t), track); });
}

void finish_stage::run(partition_task t, const std::string& track) {
  using std::chrono::steady_clock;
  auto w = router_.claim(t);
  if (!w || t.cancel.cancelled()) return;
  const std::chrono::nanoseconds queued = steady_clock::now() - w->enqueued;
  const auto t0 = steady_clock::now();
  result<finished> out = internal_error("unset");
  {
    trace_span span(trace_, "finish", track);
    span.arg("job", static_cast<double>(t.job)).arg("partition", t.partition);
    out = contain_exceptions("finish", [&] { return finish_on(w->device->dev(), *w); });
  }
  if (!out.ok()) return fail_(t, out.error().with_context("finishing on " + w->device->name()));
  const std::chrono::nanoseconds ran = steady_clock::now() - t0;
  metrics_.observe_stage("finish", std::chrono::duration<double>(ran).count());
  partition_result r;
  r.output = std::move(out->output);
  r.stages = std::move(w->stages);
  r.stages.push_back({"finish", queued, ran});
  for (const auto& step : out->timings.steps) r.backend_steps.push_back({step.name, {}, step.elapsed});
  record_backend_spans(trace_, w->device->name(), out->timings.spans, t.job, t.partition);
  r.device = w->device->name();
  r.attempts = w->attempts;
  w.reset();  // memory and key lease back before the job can complete
  if (tracker_.complete_partition(t.job, t.partition, std::move(r)).ok()) {
    metrics_.partition_ended("ok");
  } else {
    metrics_.partition_ended("cancelled");
  }
}

}  // namespace pp::engine
