// engine_metrics: the engine's Prometheus families on a metrics_registry. Events (stage latencies,
// job and partition outcomes, retries) are recorded as they happen; the point-in-time gauges
// (queue depths, busy fraction, memory, health) are refreshed from an engine_status at render.
#pragma once
#include <cstddef>
#include <memory>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "engine/engine_types.hpp"
#include "engine/metrics.hpp"

namespace pp::engine {

class engine_metrics {
 public:
  static result<std::unique_ptr<engine_metrics>> create();

  void observe_stage(std::string_view stage, double seconds);
  void job_ended(job_state s);
  void partition_ended(std::string_view outcome);  // "ok", "failed", "device_fault", "cancelled"
  void retried();
  // One backend call on a device started `partitions` partitions (more than one: taken together).
  void device_started(size_t partitions);

  // Sets the gauges from `s` and renders the whole registry.
  [[nodiscard]] std::string render(const engine_status& s) const;

 private:
  engine_metrics() = default;
  metrics_registry registry_;
  metric_family<histogram>* stage_seconds_ = nullptr;
  metric_family<counter>* jobs_ = nullptr;
  metric_family<counter>* partitions_ = nullptr;
  metric_family<counter>* retries_ = nullptr;
  metric_family<counter>* starts_ = nullptr;
  metric_family<gauge>* queue_depth_ = nullptr;
  metric_family<gauge>* queue_capacity_ = nullptr;
  metric_family<gauge>* busy_ = nullptr;
  metric_family<gauge>* healthy_ = nullptr;
  metric_family<gauge>* memory_ = nullptr;
  metric_family<gauge>* in_flight_ = nullptr;
};

}  // namespace pp::engine
