// record_backend_spans (src/engine/backend_spans.hpp): each span of a backend becomes one trace
// event on a track under the device's name, with its job and partition, its length kept exactly and
// its start placed before the call on the trace's own clock; a span that ends before it begins
// lasts 0; no spans, no events.
#include "engine/backend_spans.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <vector>

namespace pp::engine {
namespace {

using std::chrono::microseconds;
using std::chrono::steady_clock;

constexpr int64_t trace_now_us = 1'000'000'000;

TEST(BackendSpans, EachSpanIsAnEventOnTheDevicesTrack) {
  trace_recorder trace(16, [] { return trace_now_us; });
  const auto base = steady_clock::now() - microseconds(5000);
  const std::vector<groth16::prove_timings::span> spans = {
      {"upload", "lane0/copy", base, base + microseconds(1000)},
      {"msm_h", "lane0/compute", base + microseconds(1000), base + microseconds(3000)},
  };
  record_backend_spans(trace, "gpu1", spans, 42, 3);
  const auto events = trace.events();
  ASSERT_EQ(events.size(), 2u);
  EXPECT_EQ(events[0].name, "upload");
  EXPECT_EQ(events[0].track, "gpu1/lane0/copy");
  EXPECT_EQ(events[1].name, "msm_h");
  EXPECT_EQ(events[1].track, "gpu1/lane0/compute");
  EXPECT_EQ(events[0].duration_us, 1000);
  EXPECT_EQ(events[1].duration_us, 2000);
  EXPECT_EQ(events[1].start_us - events[0].start_us, 1000) << "their distance is kept";
  // Both began at least 5 ms before the call: before the trace's "now".
  EXPECT_LE(events[0].start_us, trace_now_us - 5000);
  EXPECT_GT(events[0].start_us, trace_now_us - 60'000'000);
  for (const auto& e : events) {
    ASSERT_EQ(e.args.size(), 2u);
    EXPECT_EQ(e.args[0].first, "job");
    EXPECT_EQ(e.args[0].second, 42.0);
    EXPECT_EQ(e.args[1].first, "partition");
    EXPECT_EQ(e.args[1].second, 3.0);
  }
}

TEST(BackendSpans, ASpanEndingBeforeItBeginsLastsZero) {
  trace_recorder trace(16, [] { return trace_now_us; });
  const auto t = steady_clock::now();
  record_backend_spans(trace, "gpu0", {{"odd", "lane1/compute", t, t - microseconds(10)}}, 1, 0);
  const auto events = trace.events();
  ASSERT_EQ(events.size(), 1u);
  EXPECT_EQ(events[0].duration_us, 0);
}

TEST(BackendSpans, NoSpansRecordNothing) {
  trace_recorder trace(16, [] { return trace_now_us; });
  record_backend_spans(trace, "cpu0", {}, 1, 0);
  EXPECT_EQ(trace.size(), 0u);
}

}  // namespace
}  // namespace pp::engine
