// trace_span: takes the start time from the recorder's clock and records on end.
#include "core/trace_span.hpp"

#include <utility>

namespace pp {

trace_span::trace_span(trace_recorder& recorder, std::string name, std::string track)
    : trace_span(&recorder, std::move(name), std::move(track)) {}

trace_span::trace_span(trace_recorder* recorder, std::string name, std::string track) : recorder_(recorder) {
  if (recorder_ == nullptr) return;
  event_.name = std::move(name);
  event_.track = std::move(track);
  event_.start_us = recorder_->now_us();
}

trace_span& trace_span::arg(std::string key, double value) {
  if (recorder_ != nullptr) event_.args.emplace_back(std::move(key), value);
  return *this;
}

void trace_span::end() {
  if (recorder_ == nullptr) return;
  trace_recorder* recorder = std::exchange(recorder_, nullptr);
  const std::int64_t end_us = recorder->now_us();
  event_.duration_us = end_us > event_.start_us ? end_us - event_.start_us : 0;
  recorder->record(std::move(event_));
}

}  // namespace pp
