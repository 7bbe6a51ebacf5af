// metrics: a small Prometheus registry (counters, gauges, fixed-bucket histograms, with labels)
// rendered in the text exposition format 0.0.4 for the daemon's /metrics. Updates are lock-free
// atomics (histograms take a short per-series lock so _count always equals the +Inf bucket).
#pragma once
#include <atomic>
#include <cassert>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "core/mutex.hpp"
#include "core/result.hpp"
#include "core/thread_annotations.hpp"

namespace pp::engine {

class counter {
 public:
  // Counters only go up: a negative v is ignored.
  void inc(double v = 1.0) {
    if (v > 0) value_.fetch_add(v, std::memory_order_relaxed);
  }
  [[nodiscard]] double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0.0};
};

class gauge {
 public:
  void set(double v) { value_.store(v, std::memory_order_relaxed); }
  void inc(double v = 1.0) { value_.fetch_add(v, std::memory_order_relaxed); }
  [[nodiscard]] double value() const { return value_.load(std::memory_order_relaxed); }

 private:
  std::atomic<double> value_{0.0};
};

class histogram {
 public:
  // bounds: strictly increasing finite upper bounds; +Inf is implied (validated by the registry).
  explicit histogram(std::vector<double> bounds) : bounds_(std::move(bounds)), counts_(bounds_.size() + 1, 0) {}
  void observe(double v) PP_EXCLUDES(mu_);
  struct snapshot {
    std::vector<double> bounds;
    std::vector<uint64_t> cumulative;  // one per bound, then +Inf (== count)
    double sum = 0;
    uint64_t count = 0;
  };
  [[nodiscard]] snapshot read() const PP_EXCLUDES(mu_);

 private:
  const std::vector<double> bounds_;
  mutable mutex mu_;
  std::vector<uint64_t> counts_ PP_GUARDED_BY(mu_);  // per bucket, not cumulative; last is (bounds.back(), +Inf)
  double sum_ PP_GUARDED_BY(mu_) = 0;
};

enum class metric_type { counter, gauge, histogram };

// One metric name with its label names; a child series per distinct tuple of label values.
template <class Metric>
class metric_family {
 public:
  // The series for these label values, created on first use. Their number must match the family's
  // label names (a programmer error otherwise: asserted, and missing values render as "").
  Metric& with(std::vector<std::string> values = {}) PP_EXCLUDES(mu_);

 private:
  friend class metrics_registry;
  metric_family(std::vector<std::string> label_names, std::vector<double> bounds)
      : label_names_(std::move(label_names)), bounds_(std::move(bounds)) {}
  const std::vector<std::string> label_names_;
  const std::vector<double> bounds_;  // histograms only
  mutable mutex mu_;
  std::map<std::vector<std::string>, std::unique_ptr<Metric>> series_ PP_GUARDED_BY(mu_);
};

class metrics_registry {
 public:
  metrics_registry() = default;
  metrics_registry(const metrics_registry&) = delete;
  metrics_registry& operator=(const metrics_registry&) = delete;

  // Registering a name again with the same type, help and labels returns the same family;
  // otherwise already_exists. invalid_argument for a bad metric or label name (or "le" on a
  // histogram), or buckets that are not strictly increasing and finite. Families live as long as
  // the registry.
  result<metric_family<counter>*> counter_family(const std::string& name, const std::string& help,
                                                 std::vector<std::string> label_names = {});
  result<metric_family<gauge>*> gauge_family(const std::string& name, const std::string& help,
                                             std::vector<std::string> label_names = {});
  result<metric_family<histogram>*> histogram_family(const std::string& name, const std::string& help,
                                                     std::vector<std::string> label_names,
                                                     std::vector<double> buckets);

  // Every family sorted by name, series sorted by label values.
  [[nodiscard]] std::string render() const PP_EXCLUDES(mu_);

 private:
  struct family_slot {
    metric_type type;
    std::string help;
    std::vector<std::string> label_names;
    std::vector<double> buckets;
    std::unique_ptr<metric_family<counter>> counters;
    std::unique_ptr<metric_family<gauge>> gauges;
    std::unique_ptr<metric_family<histogram>> histograms;
  };
  result<family_slot*> add(const std::string& name, metric_type type, const std::string& help,
                           std::vector<std::string> label_names, std::vector<double> buckets) PP_EXCLUDES(mu_);

  // A family's series are guarded by the family's own mutex (taken inside this one by render()).
  mutable mutex mu_;
  std::map<std::string, family_slot> families_ PP_GUARDED_BY(mu_);
};

// Exposition-format helpers, public for tests: "+Inf", "-Inf", "NaN", else the shortest
// round-trip decimal ("1", "0.25", "1e-05").
std::string format_metric_value(double v);
std::string escape_label_value(const std::string& v);  // \\, \", \n
std::string escape_help(const std::string& v);          // \\, \n

template <class Metric>
Metric& metric_family<Metric>::with(std::vector<std::string> values) {
  assert(values.size() == label_names_.size() && "label value count differs from the family's label names");
  values.resize(label_names_.size());
  mutex_lock lock(mu_);
  auto& slot = series_[std::move(values)];
  if (!slot) {
    if constexpr (std::is_same_v<Metric, histogram>) {
      slot = std::make_unique<histogram>(bounds_);
    } else {
      slot = std::make_unique<Metric>();
    }
  }
  return *slot;
}

}  // namespace pp::engine
