// engine_metrics (src/engine/engine_metrics.hpp): every counter series exists at 0 before its first
// event; events count under the right labels; render() sets the gauges from the engine_status it is
// given (queues, devices, memory pools, jobs in flight).
#include "engine/engine_metrics.hpp"

#include <gtest/gtest.h>

#include <string>

#include "support/status_matchers.hpp"

namespace pp::engine {
namespace {

bool has(const std::string& text, const std::string& line) { return text.find(line + "\n") != std::string::npos; }

std::unique_ptr<engine_metrics> make() {
  auto m = engine_metrics::create();
  EXPECT_THAT(m, IsOk());
  return std::move(m).value();
}

TEST(EngineMetrics, EveryCounterSeriesStartsAtZero) {
  const std::string text = make()->render({});
  for (const char* line :
       {"pp_jobs_total{state=\"succeeded\"} 0", "pp_jobs_total{state=\"failed\"} 0",
        "pp_jobs_total{state=\"cancelled\"} 0", "pp_partitions_total{result=\"ok\"} 0",
        "pp_partitions_total{result=\"failed\"} 0", "pp_partitions_total{result=\"device_fault\"} 0",
        "pp_partitions_total{result=\"cancelled\"} 0", "pp_partition_retries_total 0", "pp_jobs_in_flight 0",
        "pp_device_starts_total{partitions=\"1\"} 0"}) {
    EXPECT_TRUE(has(text, line)) << line << "\n" << text;
  }
}

TEST(EngineMetrics, EventsCountUnderTheirLabels) {
  auto m = make();
  m->job_ended(job_state::succeeded);
  m->job_ended(job_state::succeeded);
  m->job_ended(job_state::cancelled);
  m->partition_ended("device_fault");
  m->retried();
  m->device_started(3);
  m->device_started(1);
  m->device_started(3);
  m->observe_stage("device", 0.002);
  m->observe_stage("device", 7);
  const std::string text = m->render({});
  for (const char* line : {"pp_jobs_total{state=\"succeeded\"} 2", "pp_jobs_total{state=\"cancelled\"} 1",
                           "pp_partitions_total{result=\"device_fault\"} 1", "pp_partition_retries_total 1",
                           "pp_device_starts_total{partitions=\"3\"} 2", "pp_device_starts_total{partitions=\"1\"} 1",
                           "pp_stage_seconds_count{stage=\"device\"} 2",
                           "pp_stage_seconds_bucket{stage=\"device\",le=\"0.005\"} 1",
                           "pp_stage_seconds_bucket{stage=\"device\",le=\"10\"} 2"}) {
    EXPECT_TRUE(has(text, line)) << line << "\n" << text;
  }
}

TEST(EngineMetrics, RenderSetsTheGaugesFromTheStatus) {
  engine_status s;
  s.queues.push_back({"intake", 3, 64});
  device_status gpu;
  gpu.name = "gpu0";
  gpu.healthy = false;
  gpu.busy_fraction = 0.5;
  s.devices.push_back(gpu);
  s.memory.total = 1000;
  s.memory.keys_total = 400;
  s.memory.keys_in_use = 100;
  s.memory.partitions_total = 600;
  s.memory.partitions_in_use = 200;
  s.memory.partitions_peak = 300;
  s.jobs_in_flight = 2;
  auto m = make();
  const std::string text = m->render(s);
  for (const char* line :
       {"pp_queue_depth{stage=\"intake\"} 3", "pp_queue_capacity{stage=\"intake\"} 64",
        "pp_device_busy_fraction{device=\"gpu0\"} 0.5", "pp_device_healthy{device=\"gpu0\"} 0",
        "pp_host_memory_bytes{pool=\"keys\",kind=\"total\"} 400",
        "pp_host_memory_bytes{pool=\"partitions\",kind=\"peak\"} 300",
        "pp_host_memory_bytes{pool=\"all\",kind=\"total\"} 1000",
        "pp_host_memory_bytes{pool=\"all\",kind=\"in_use\"} 300", "pp_jobs_in_flight 2"}) {
    EXPECT_TRUE(has(text, line)) << line << "\n" << text;
  }
  // A later status moves the gauges; nothing accumulates.
  s.queues[0].depth = 0;
  s.jobs_in_flight = 0;
  const std::string again = m->render(s);
  EXPECT_TRUE(has(again, "pp_queue_depth{stage=\"intake\"} 0")) << again;
  EXPECT_TRUE(has(again, "pp_jobs_in_flight 0")) << again;
}

}  // namespace
}  // namespace pp::engine
