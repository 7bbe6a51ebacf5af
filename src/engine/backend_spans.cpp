#include "engine/backend_spans.hpp"

#include <algorithm>
#include <chrono>
#include <string>
#include <utility>

namespace pp::engine {

void record_backend_spans(trace_recorder& trace, std::string_view device,
                          const std::vector<groth16::prove_timings::span>& spans, job_id job, uint32_t partition) {
  if (spans.empty()) return;
  // One reading of both clocks: a span's place on the trace's clock is its distance from now.
  const auto now = std::chrono::steady_clock::now();
  const int64_t now_us = trace.now_us();
  auto at_us = [&](std::chrono::steady_clock::time_point tp) {
    return now_us - std::chrono::duration_cast<std::chrono::microseconds>(now - tp).count();
  };
  for (const auto& sp : spans) {
    trace_event e;
    e.name = sp.name;
    e.track = std::string(device) + "/" + sp.track;
    e.start_us = at_us(sp.begin);
    e.duration_us = std::max<int64_t>(at_us(sp.end) - e.start_us, 0);
    e.args = {{"job", static_cast<double>(job)}, {"partition", static_cast<double>(partition)}};
    trace.record(std::move(e));
  }
}

}  // namespace pp::engine
