#include "engine/engine_metrics.hpp"

#include <cctype>

#include "core/status_macros.hpp"

namespace pp::engine {
namespace {

// "succeeded", "failed", "cancelled": the state label of pp_jobs_total.
std::string state_label(job_state s) {
  std::string name(job_state_name(s));
  for (char& ch : name) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return name;
}

}  // namespace

result<std::unique_ptr<engine_metrics>> engine_metrics::create() {
  std::unique_ptr<engine_metrics> m(new engine_metrics());
  auto& r = m->registry_;
  PP_ASSIGN_OR_RETURN(m->stage_seconds_,
                      r.histogram_family("pp_stage_seconds", "Time one partition spent running in a stage", {"stage"},
                                         {0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300}));
  PP_ASSIGN_OR_RETURN(m->jobs_, r.counter_family("pp_jobs_total", "Jobs that reached a terminal state", {"state"}));
  PP_ASSIGN_OR_RETURN(m->partitions_,
                      r.counter_family("pp_partitions_total", "Partitions that left the pipeline, by outcome", {"result"}));
  PP_ASSIGN_OR_RETURN(m->retries_,
                      r.counter_family("pp_partition_retries_total", "Partitions retried after a device fault"));
  PP_ASSIGN_OR_RETURN(m->starts_, r.counter_family("pp_device_starts_total",
                                                    "Backend calls that started partitions on a device, by how many "
                                                    "partitions each took together",
                                                    {"partitions"}));
  PP_ASSIGN_OR_RETURN(m->queue_depth_, r.gauge_family("pp_queue_depth", "Partitions waiting in a stage queue", {"stage"}));
  PP_ASSIGN_OR_RETURN(m->queue_capacity_,
                      r.gauge_family("pp_queue_capacity", "Capacity of a stage queue", {"stage"}));
  PP_ASSIGN_OR_RETURN(m->busy_, r.gauge_family("pp_device_busy_fraction",
                                               "Share of wall time with at least one worker busy on the device", {"device"}));
  PP_ASSIGN_OR_RETURN(m->healthy_, r.gauge_family("pp_device_healthy", "1 while the device is in rotation", {"device"}));
  PP_ASSIGN_OR_RETURN(m->memory_, r.gauge_family("pp_host_memory_bytes", "Host memory budget, by pool", {"pool", "kind"}));
  PP_ASSIGN_OR_RETURN(m->in_flight_, r.gauge_family("pp_jobs_in_flight", "Jobs not yet terminal"));
  // Every counter series exists from the start at 0: a rate() over a series that appears only at
  // its first event misses that event, and "no cancels yet" should read 0, not absent.
  for (job_state s : {job_state::succeeded, job_state::failed, job_state::cancelled}) m->jobs_->with({state_label(s)});
  for (const char* outcome : {"ok", "failed", "device_fault", "cancelled"}) m->partitions_->with({outcome});
  m->retries_->with();
  m->starts_->with({"1"});
  return m;
}

void engine_metrics::observe_stage(std::string_view stage, double seconds) {
  stage_seconds_->with({std::string(stage)}).observe(seconds);
}

void engine_metrics::job_ended(job_state s) { jobs_->with({state_label(s)}).inc(); }

void engine_metrics::partition_ended(std::string_view outcome) { partitions_->with({std::string(outcome)}).inc(); }

void engine_metrics::retried() { retries_->with().inc(); }

void engine_metrics::device_started(size_t partitions) { starts_->with({std::to_string(partitions)}).inc(); }

std::string engine_metrics::render(const engine_status& s) const {
  for (const queue_status& q : s.queues) {
    queue_depth_->with({q.stage}).set(static_cast<double>(q.depth));
    queue_capacity_->with({q.stage}).set(static_cast<double>(q.capacity));
  }
  for (const device_status& d : s.devices) {
    busy_->with({d.name}).set(d.busy_fraction);
    healthy_->with({d.name}).set(d.healthy ? 1 : 0);
  }
  const memory_status& m = s.memory;
  memory_->with({"keys", "total"}).set(static_cast<double>(m.keys_total));
  memory_->with({"keys", "in_use"}).set(static_cast<double>(m.keys_in_use));
  memory_->with({"partitions", "total"}).set(static_cast<double>(m.partitions_total));
  memory_->with({"partitions", "in_use"}).set(static_cast<double>(m.partitions_in_use));
  memory_->with({"partitions", "peak"}).set(static_cast<double>(m.partitions_peak));
  memory_->with({"all", "total"}).set(static_cast<double>(m.total));
  memory_->with({"all", "in_use"}).set(static_cast<double>(m.keys_in_use + m.partitions_in_use));
  in_flight_->with().set(static_cast<double>(s.jobs_in_flight));
  return registry_.render();
}

}  // namespace pp::engine
