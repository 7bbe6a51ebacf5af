// trace_span: RAII timing of one step into a trace_recorder.
//   pp::trace_span span(recorder, "ntt", "worker-1");
//   span.arg("log_n", 24);
// The event is recorded when the span ends (end() or destruction). A null recorder makes it a no-op,
// so code can be traced optionally without branches.
#pragma once
#include <cstdint>
#include <string>

#include "core/trace_recorder.hpp"

namespace pp {

class [[nodiscard]] trace_span {
 public:
  trace_span(trace_recorder& recorder, std::string name, std::string track);
  trace_span(trace_recorder* recorder, std::string name, std::string track);
  ~trace_span() { end(); }

  trace_span(const trace_span&) = delete;
  trace_span& operator=(const trace_span&) = delete;

  // A numeric argument shown with the event in Perfetto ("partition", "log_n", "bytes").
  trace_span& arg(std::string key, double value);
  // Records the event now; later calls do nothing.
  void end();

  [[nodiscard]] bool active() const { return recorder_ != nullptr; }

 private:
  trace_recorder* recorder_;
  trace_event event_;
};

}  // namespace pp
