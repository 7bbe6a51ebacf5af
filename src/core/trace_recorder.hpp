// trace_recorder: a thread-safe, bounded store of completed trace events (name, track, start,
// duration, numeric args) that exports Chrome Trace Event JSON for Perfetto / chrome://tracing
// and per-name duration summaries. trace_span (core/trace_span.hpp) is the usual way to record.
#pragma once
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/mutex.hpp"
#include "core/status.hpp"
#include "core/thread_annotations.hpp"

namespace pp {

struct trace_event {
  std::string name;   // what ran: "ntt", "msm_h"
  std::string track;  // where it ran: "worker-1", "gpu0/compute"; one Perfetto row (tid) per track
  std::int64_t start_us = 0;
  std::int64_t duration_us = 0;
  std::vector<std::pair<std::string, double>> args;
};

struct trace_summary {
  std::string name;
  std::size_t count = 0;
  std::int64_t total_us = 0;
  std::int64_t median_us = 0;  // nearest-rank percentiles over the retained events
  std::int64_t p95_us = 0;
  std::int64_t max_us = 0;
};

class trace_recorder {
 public:
  // Microseconds on a monotonic clock; injectable so tests can drive time.
  using clock_fn = std::function<std::int64_t()>;

  static constexpr std::size_t default_capacity = std::size_t{1} << 16;

  // Keeps at most `capacity` events; beyond that the oldest are overwritten and counted in
  // dropped(). Capacity 0 records nothing (every event counts as dropped).
  explicit trace_recorder(std::size_t capacity = default_capacity);
  trace_recorder(std::size_t capacity, clock_fn clock);

  trace_recorder(const trace_recorder&) = delete;
  trace_recorder& operator=(const trace_recorder&) = delete;

  // Default clock: steady_clock microseconds since this recorder was built.
  [[nodiscard]] std::int64_t now_us() const { return clock_(); }

  void record(trace_event event) PP_EXCLUDES(mu_);
  void clear() PP_EXCLUDES(mu_);

  // Retained events, oldest first.
  [[nodiscard]] std::vector<trace_event> events() const PP_EXCLUDES(mu_);
  [[nodiscard]] std::size_t size() const PP_EXCLUDES(mu_);
  [[nodiscard]] std::size_t capacity() const { return capacity_; }
  [[nodiscard]] std::uint64_t dropped() const PP_EXCLUDES(mu_);

  // {"traceEvents":[...],"displayTimeUnit":"ms"}: one "X" event per span, plus "M" metadata naming
  // the process and each track (tids numbered from 1 in order of first appearance).
  [[nodiscard]] std::string to_chrome_json(std::string_view process_name = "proofpipe") const;
  [[nodiscard]] status write_chrome_json(const std::filesystem::path& path,
                                         std::string_view process_name = "proofpipe") const;

  // One row per event name, largest total first (ties by name).
  [[nodiscard]] std::vector<trace_summary> summarize() const;

 private:
  const std::size_t capacity_;
  const clock_fn clock_;
  mutable mutex mu_;
  std::vector<trace_event> ring_ PP_GUARDED_BY(mu_);  // grows to capacity_, then wraps at next_
  std::size_t next_ PP_GUARDED_BY(mu_) = 0;
  std::uint64_t dropped_ PP_GUARDED_BY(mu_) = 0;
};

}  // namespace pp
