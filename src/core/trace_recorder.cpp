// trace_recorder: ring buffer under one mutex (spans are coarse: stages and kernels, not inner
// loops), Chrome Trace Event JSON written by hand so core needs no JSON library.
#include "core/trace_recorder.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "core/output_file.hpp"

namespace pp {
namespace {

trace_recorder::clock_fn steady_clock_since_now() {
  const auto epoch = std::chrono::steady_clock::now();
  return [epoch] {
    return std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - epoch).count();
  };
}

void append_json_string(std::string& out, std::string_view s) {
  static constexpr char hex[] = "0123456789abcdef";
  out.push_back('"');
  for (const char ch : s) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        if (c < 0x20) {
          out += "\\u00";
          out.push_back(hex[c >> 4]);
          out.push_back(hex[c & 0xf]);
        } else {
          out.push_back(ch);
        }
    }
  }
  out.push_back('"');
}

void append_json_number(std::string& out, double v) {
  // JSON has no NaN or infinity.
  if (!std::isfinite(v)) {
    out += "null";
    return;
  }
  fmt::format_to(std::back_inserter(out), "{}", v);
}

// Nearest-rank percentile of sorted, non-empty values.
std::int64_t percentile(const std::vector<std::int64_t>& sorted, double p) {
  const auto n = sorted.size();
  auto rank = static_cast<std::size_t>(std::ceil(p * static_cast<double>(n)));
  rank = std::clamp<std::size_t>(rank, 1, n);
  return sorted[rank - 1];
}

}  // namespace

trace_recorder::trace_recorder(std::size_t capacity) : trace_recorder(capacity, steady_clock_since_now()) {}

trace_recorder::trace_recorder(std::size_t capacity, clock_fn clock)
    : capacity_(capacity), clock_(clock ? std::move(clock) : steady_clock_since_now()) {}

void trace_recorder::record(trace_event event) {
  mutex_lock lock(mu_);
  if (capacity_ == 0) {
    ++dropped_;
    return;
  }
  if (ring_.size() < capacity_) {
    ring_.push_back(std::move(event));
    return;
  }
  ring_[next_] = std::move(event);
  next_ = (next_ + 1) % capacity_;
  ++dropped_;
}

void trace_recorder::clear() {
  mutex_lock lock(mu_);
  ring_.clear();
  next_ = 0;
  dropped_ = 0;
}

std::vector<trace_event> trace_recorder::events() const {
  mutex_lock lock(mu_);
  std::vector<trace_event> out;
  out.reserve(ring_.size());
  // Once wrapped, next_ points at the oldest event.
  for (std::size_t i = 0; i < ring_.size(); ++i) out.push_back(ring_[(next_ + i) % ring_.size()]);
  return out;
}

std::size_t trace_recorder::size() const {
  mutex_lock lock(mu_);
  return ring_.size();
}

std::uint64_t trace_recorder::dropped() const {
  mutex_lock lock(mu_);
  return dropped_;
}

std::string trace_recorder::to_chrome_json(std::string_view process_name) const {
  const std::vector<trace_event> evs = events();
  constexpr int pid = 1;

  std::vector<std::string_view> tracks;  // index + 1 is the tid
  std::map<std::string_view, int, std::less<>> tid_of;
  for (const auto& e : evs) {
    if (tid_of.emplace(e.track, static_cast<int>(tracks.size()) + 1).second) tracks.push_back(e.track);
  }

  std::string out;
  out.reserve(128 + evs.size() * 128);
  out += "{\"traceEvents\":[";
  out += fmt::format(R"({{"name":"process_name","ph":"M","pid":{},"tid":0,"args":{{"name":)", pid);
  append_json_string(out, process_name);
  out += "}}";
  for (std::size_t i = 0; i < tracks.size(); ++i) {
    out += fmt::format(R"(,{{"name":"thread_name","ph":"M","pid":{},"tid":{},"args":{{"name":)", pid, i + 1);
    append_json_string(out, tracks[i]);
    out += "}}";
    // Keeps Perfetto's rows in first-seen order instead of sorting by name.
    out += fmt::format(R"(,{{"name":"thread_sort_index","ph":"M","pid":{},"tid":{},"args":{{"sort_index":{}}}}})",
                       pid, i + 1, i + 1);
  }
  for (const auto& e : evs) {
    out += ",{\"name\":";
    append_json_string(out, e.name);
    out += ",\"cat\":";
    append_json_string(out, e.track);
    out += fmt::format(R"(,"ph":"X","ts":{},"dur":{},"pid":{},"tid":{})", e.start_us, e.duration_us, pid,
                       tid_of.find(e.track)->second);
    if (!e.args.empty()) {
      out += ",\"args\":{";
      for (std::size_t i = 0; i < e.args.size(); ++i) {
        if (i != 0) out.push_back(',');
        append_json_string(out, e.args[i].first);
        out.push_back(':');
        append_json_number(out, e.args[i].second);
      }
      out.push_back('}');
    }
    out.push_back('}');
  }
  out += "],\"displayTimeUnit\":\"ms\"}\n";
  return out;
}

status trace_recorder::write_chrome_json(const std::filesystem::path& path, std::string_view process_name) const {
  const std::string json = to_chrome_json(process_name);
  const status s = write_output_file(path, std::span(reinterpret_cast<const uint8_t*>(json.data()), json.size()));
  return s.ok() ? s : s.with_context("writing trace");
}

std::vector<trace_summary> trace_recorder::summarize() const {
  const std::vector<trace_event> evs = events();
  std::map<std::string_view, std::vector<std::int64_t>, std::less<>> by_name;
  for (const auto& e : evs) by_name[e.name].push_back(e.duration_us);

  std::vector<trace_summary> out;
  out.reserve(by_name.size());
  for (auto& [name, durations] : by_name) {
    std::sort(durations.begin(), durations.end());
    trace_summary s;
    s.name = std::string(name);
    s.count = durations.size();
    for (const auto d : durations) s.total_us += d;
    s.median_us = percentile(durations, 0.5);
    s.p95_us = percentile(durations, 0.95);
    s.max_us = durations.back();
    out.push_back(std::move(s));
  }
  std::sort(out.begin(), out.end(), [](const trace_summary& a, const trace_summary& b) {
    return a.total_us != b.total_us ? a.total_us > b.total_us : a.name < b.name;
  });
  return out;
}

}  // namespace pp
