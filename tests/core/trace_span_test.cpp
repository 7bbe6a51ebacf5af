// trace_span and trace_recorder: nesting, threads, the bounded ring, Chrome Trace JSON (checked
// with nlohmann-json) and summaries. A fake clock drives time; no test depends on real timings.
#include "core/trace_span.hpp"
#include "support/status_matchers.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <atomic>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace pp {
namespace {

using ::testing::Not;

// Each read advances time by one microsecond, so every span has a known, positive length.
struct fake_clock {
  std::shared_ptr<std::atomic<std::int64_t>> t = std::make_shared<std::atomic<std::int64_t>>(0);
  trace_recorder::clock_fn fn() const {
    return [t = t] { return t->fetch_add(1); };
  }
};

trace_event make_event(std::string name, std::string track, std::int64_t start, std::int64_t dur) {
  return trace_event{std::move(name), std::move(track), start, dur, {}};
}

nlohmann::json complete_events(const nlohmann::json& doc) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& e : doc.at("traceEvents"))
    if (e.at("ph") == "X") out.push_back(e);
  return out;
}

TEST(TraceSpan, NestedSpansNestInTime) {
  fake_clock clock;
  trace_recorder rec(16, clock.fn());
  {
    trace_span outer(rec, "prove", "worker-1");
    {
      trace_span inner(rec, "ntt", "worker-1");
      inner.arg("log_n", 20);
    }
  }
  const auto evs = rec.events();
  ASSERT_EQ(evs.size(), 2u);
  // The inner span ends first, so it is recorded first.
  const trace_event& inner = evs[0];
  const trace_event& outer = evs[1];
  EXPECT_EQ(inner.name, "ntt");
  EXPECT_EQ(outer.name, "prove");
  EXPECT_EQ(inner.track, "worker-1");
  EXPECT_LT(outer.start_us, inner.start_us);
  EXPECT_GT(outer.start_us + outer.duration_us, inner.start_us + inner.duration_us);
  ASSERT_EQ(inner.args.size(), 1u);
  EXPECT_EQ(inner.args[0].first, "log_n");
  EXPECT_EQ(inner.args[0].second, 20.0);
  EXPECT_TRUE(outer.args.empty());
}

TEST(TraceSpan, EndIsIdempotent) {
  fake_clock clock;
  trace_recorder rec(16, clock.fn());
  trace_span span(rec, "upload", "gpu0/copy");
  EXPECT_TRUE(span.active());
  span.end();
  EXPECT_FALSE(span.active());
  span.end();
  span.arg("ignored", 1);  // after end: dropped, not recorded
  EXPECT_EQ(rec.size(), 1u);
  EXPECT_TRUE(rec.events()[0].args.empty());
}

TEST(TraceSpan, NullRecorderIsNoOp) {
  trace_recorder* none = nullptr;
  trace_span span(none, "anything", "t");
  span.arg("x", 1);
  EXPECT_FALSE(span.active());
  span.end();
}

TEST(TraceSpan, RealClockGivesNonNegativeDurations) {
  trace_recorder rec;
  { trace_span span(rec, "step", "main"); }
  ASSERT_EQ(rec.size(), 1u);
  EXPECT_GE(rec.events()[0].start_us, 0);
  EXPECT_GE(rec.events()[0].duration_us, 0);
}

TEST(TraceRecorder, ManyThreadsRecordEverything) {
  constexpr int threads = 8, per_thread = 500;
  trace_recorder rec(threads * per_thread);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    pool.emplace_back([&rec, t] {
      const std::string track = "worker-" + std::to_string(t);
      for (int i = 0; i < per_thread; ++i) {
        trace_span span(rec, i % 2 ? "msm" : "ntt", track);
        span.arg("i", i);
      }
    });
  }
  for (auto& th : pool) th.join();

  EXPECT_EQ(rec.size(), static_cast<std::size_t>(threads * per_thread));
  EXPECT_EQ(rec.dropped(), 0u);
  std::map<std::string, int> per_track;
  for (const auto& e : rec.events()) ++per_track[e.track];
  ASSERT_EQ(per_track.size(), static_cast<std::size_t>(threads));
  for (const auto& [track, n] : per_track) EXPECT_EQ(n, per_thread) << track;

  const auto doc = nlohmann::json::parse(rec.to_chrome_json());
  EXPECT_EQ(complete_events(doc).size(), static_cast<std::size_t>(threads * per_thread));
}

TEST(TraceRecorder, FullRingDropsOldestAndCounts) {
  constexpr int threads = 4, per_thread = 300, capacity = 100;
  trace_recorder rec(capacity);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t)
    pool.emplace_back([&rec] {
      for (int i = 0; i < per_thread; ++i) trace_span span(rec, "s", "t");
    });
  for (auto& th : pool) th.join();
  EXPECT_EQ(rec.size(), static_cast<std::size_t>(capacity));
  EXPECT_EQ(rec.dropped(), static_cast<std::uint64_t>(threads * per_thread - capacity));
}

TEST(TraceRecorder, RingKeepsNewestInOrder) {
  trace_recorder rec(3);
  for (int i = 0; i < 5; ++i) rec.record(make_event(std::string("e").append(std::to_string(i)), "t", i, 1));
  const auto evs = rec.events();
  ASSERT_EQ(evs.size(), 3u);
  EXPECT_EQ(evs[0].name, "e2");
  EXPECT_EQ(evs[1].name, "e3");
  EXPECT_EQ(evs[2].name, "e4");
  EXPECT_EQ(rec.dropped(), 2u);

  rec.clear();
  EXPECT_EQ(rec.size(), 0u);
  EXPECT_EQ(rec.dropped(), 0u);
  rec.record(make_event("after", "t", 0, 1));
  ASSERT_EQ(rec.events().size(), 1u);
  EXPECT_EQ(rec.events()[0].name, "after");
}

TEST(TraceRecorder, ZeroCapacityRecordsNothing) {
  trace_recorder rec(0);
  { trace_span span(rec, "s", "t"); }
  EXPECT_EQ(rec.size(), 0u);
  EXPECT_EQ(rec.dropped(), 1u);
  const auto doc = nlohmann::json::parse(rec.to_chrome_json());
  EXPECT_TRUE(complete_events(doc).empty());
}

TEST(TraceRecorder, ChromeJsonHasExpectedFields) {
  trace_recorder rec(16);
  trace_event ntt = make_event("ntt", "gpu0/compute", 10, 5);
  ntt.args = {{"log_n", 24}, {"partition", 3}, {"ratio", 0.25}};
  rec.record(ntt);
  rec.record(make_event("upload", "gpu0/copy", 2, 7));
  rec.record(make_event("msm", "gpu0/compute", 15, 40));

  const auto doc = nlohmann::json::parse(rec.to_chrome_json("proofpipe-test"));
  ASSERT_TRUE(doc.at("traceEvents").is_array());

  std::map<std::string, int> tid_of_track;
  std::string process_name;
  for (const auto& e : doc.at("traceEvents")) {
    if (e.at("ph") != "M") continue;
    if (e.at("name") == "thread_name") tid_of_track[e.at("args").at("name")] = e.at("tid");
    if (e.at("name") == "process_name") process_name = e.at("args").at("name");
  }
  EXPECT_EQ(process_name, "proofpipe-test");
  ASSERT_EQ(tid_of_track.size(), 2u);
  EXPECT_NE(tid_of_track.at("gpu0/compute"), tid_of_track.at("gpu0/copy"));

  const auto xs = complete_events(doc);
  ASSERT_EQ(xs.size(), 3u);
  for (const auto& e : xs) {
    for (const char* key : {"name", "cat", "ph", "ts", "dur", "pid", "tid"}) EXPECT_TRUE(e.contains(key)) << key;
    EXPECT_TRUE(e.at("ts").is_number_integer());
    EXPECT_TRUE(e.at("dur").is_number_integer());
    EXPECT_EQ(e.at("tid"), tid_of_track.at(e.at("cat")));
    EXPECT_EQ(e.at("pid"), 1);
  }
  EXPECT_EQ(xs[0].at("name"), "ntt");
  EXPECT_EQ(xs[0].at("cat"), "gpu0/compute");
  EXPECT_EQ(xs[0].at("ts"), 10);
  EXPECT_EQ(xs[0].at("dur"), 5);
  EXPECT_EQ(xs[0].at("args").at("log_n"), 24);
  EXPECT_EQ(xs[0].at("args").at("partition"), 3);
  EXPECT_DOUBLE_EQ(xs[0].at("args").at("ratio").get<double>(), 0.25);
  EXPECT_FALSE(xs[1].contains("args"));
}

TEST(TraceRecorder, ChromeJsonEscapesAndNullsNonFinite) {
  trace_recorder rec(4);
  trace_event e = make_event("say \"hi\"\\\n", "track\t1", 0, 1);
  e.args = {{"nan", std::nan("")}, {"inf", INFINITY}, {"k\"", 1}};
  rec.record(e);
  const auto doc = nlohmann::json::parse(rec.to_chrome_json());
  const auto xs = complete_events(doc);
  ASSERT_EQ(xs.size(), 1u);
  EXPECT_EQ(xs[0].at("name"), "say \"hi\"\\\n");
  EXPECT_EQ(xs[0].at("cat"), "track\t1");
  EXPECT_TRUE(xs[0].at("args").at("nan").is_null());
  EXPECT_TRUE(xs[0].at("args").at("inf").is_null());
  EXPECT_EQ(xs[0].at("args").at("k\""), 1);
}

TEST(TraceRecorder, WriteChromeJsonToFile) {
  trace_recorder rec(4);
  rec.record(make_event("a", "t", 0, 3));
  const auto path = std::filesystem::temp_directory_path() / ("pp_trace_" + std::to_string(::getpid()) + ".json");
  ASSERT_THAT(rec.write_chrome_json(path), IsOk());
  std::ifstream f(path);
  const auto doc = nlohmann::json::parse(f);
  EXPECT_EQ(complete_events(doc).size(), 1u);
  std::filesystem::remove(path);

  const status bad = rec.write_chrome_json("/dev/null/no/such/dir/trace.json");
  EXPECT_THAT(bad, Not(IsOk()));
  EXPECT_NE(bad.message().find("trace.json"), std::string::npos);
}

TEST(TraceRecorder, SummarizeCountsTotalsAndPercentiles) {
  trace_recorder rec(256);
  // "msm": durations 1..100 -> nearest-rank median 50, p95 95.
  for (int d = 100; d >= 1; --d) rec.record(make_event("msm", "w", 0, d));
  rec.record(make_event("ntt", "w", 0, 7));
  rec.record(make_event("ntt", "w", 0, 3));
  rec.record(make_event("verify", "w", 0, 10));

  const auto s = rec.summarize();
  ASSERT_EQ(s.size(), 3u);
  EXPECT_EQ(s[0].name, "msm");  // largest total first
  EXPECT_EQ(s[0].count, 100u);
  EXPECT_EQ(s[0].total_us, 5050);
  EXPECT_EQ(s[0].median_us, 50);
  EXPECT_EQ(s[0].p95_us, 95);
  EXPECT_EQ(s[0].max_us, 100);
  // ntt and verify tie on total (10); ties go by name.
  EXPECT_EQ(s[1].name, "ntt");
  EXPECT_EQ(s[1].count, 2u);
  EXPECT_EQ(s[1].median_us, 3);
  EXPECT_EQ(s[1].p95_us, 7);
  EXPECT_EQ(s[2].name, "verify");
  EXPECT_EQ(s[2].median_us, 10);
  EXPECT_EQ(s[2].p95_us, 10);

  EXPECT_TRUE(trace_recorder(4).summarize().empty());
}

}  // namespace
}  // namespace pp
