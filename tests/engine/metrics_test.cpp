#include "engine/metrics.hpp"
#include "support/status_matchers.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <thread>
#include <vector>

namespace pp::engine {
namespace {

TEST(Metrics, ValueFormatting) {
  EXPECT_EQ(format_metric_value(1.0), "1");
  EXPECT_EQ(format_metric_value(0.25), "0.25");
  EXPECT_EQ(format_metric_value(-3.5), "-3.5");
  EXPECT_EQ(format_metric_value(INFINITY), "+Inf");
  EXPECT_EQ(format_metric_value(-INFINITY), "-Inf");
  EXPECT_EQ(format_metric_value(NAN), "NaN");
  EXPECT_EQ(escape_label_value("a\\b\"c\nd"), "a\\\\b\\\"c\\nd");
  EXPECT_EQ(escape_help("x\\y\nz\""), "x\\\\y\\nz\"");
}

TEST(Metrics, RendersExpositionFormat) {
  metrics_registry reg;
  auto jobs = reg.counter_family("pp_jobs_total", "Jobs ended, by state.", {"state"});
  ASSERT_THAT(jobs, IsOk());
  (*jobs)->with({"succeeded"}).inc(3);
  (*jobs)->with({"failed"}).inc();
  auto busy = reg.gauge_family("pp_gpu_busy_fraction", "GPU busy fraction.\nOver the last window.", {"gpu"});
  (*busy)->with({"0"}).set(0.75);
  (*busy)->with({"we\"ird\\"}).set(-1);
  auto lat = reg.histogram_family("pp_stage_seconds", "Stage time.", {"stage"}, {0.5, 1, 2.5});
  auto& msm = (*lat)->with({"msm"});
  msm.observe(0.5);  // le is inclusive
  msm.observe(2);
  msm.observe(10);
  auto up = reg.gauge_family("pp_up", "1 when serving.");
  const std::string want =
      "# HELP pp_gpu_busy_fraction GPU busy fraction.\\nOver the last window.\n"
      "# TYPE pp_gpu_busy_fraction gauge\n"
      "pp_gpu_busy_fraction{gpu=\"0\"} 0.75\n"
      "pp_gpu_busy_fraction{gpu=\"we\\\"ird\\\\\"} -1\n"
      "# HELP pp_jobs_total Jobs ended, by state.\n"
      "# TYPE pp_jobs_total counter\n"
      "pp_jobs_total{state=\"failed\"} 1\n"
      "pp_jobs_total{state=\"succeeded\"} 3\n"
      "# HELP pp_stage_seconds Stage time.\n"
      "# TYPE pp_stage_seconds histogram\n"
      "pp_stage_seconds_bucket{stage=\"msm\",le=\"0.5\"} 1\n"
      "pp_stage_seconds_bucket{stage=\"msm\",le=\"1\"} 1\n"
      "pp_stage_seconds_bucket{stage=\"msm\",le=\"2.5\"} 2\n"
      "pp_stage_seconds_bucket{stage=\"msm\",le=\"+Inf\"} 3\n"
      "pp_stage_seconds_sum{stage=\"msm\"} 12.5\n"
      "pp_stage_seconds_count{stage=\"msm\"} 3\n"
      "# HELP pp_up 1 when serving.\n"
      "# TYPE pp_up gauge\n"
      "pp_up 0\n";
  EXPECT_EQ(reg.render(), want);
}

TEST(Metrics, UnlabelledHistogram) {
  metrics_registry reg;
  auto h = reg.histogram_family("h", "", {}, {1});
  (*h)->with().observe(0.5);
  EXPECT_EQ(reg.render(),
            "# HELP h \n# TYPE h histogram\nh_bucket{le=\"1\"} 1\nh_bucket{le=\"+Inf\"} 1\nh_sum 0.5\nh_count 1\n");
}

TEST(Metrics, RegistrationRules) {
  metrics_registry reg;
  auto a = reg.counter_family("x_total", "help", {"gpu"});
  auto again = reg.counter_family("x_total", "help", {"gpu"});
  ASSERT_TRUE(a.ok() && again.ok());
  EXPECT_EQ(*a, *again);
  EXPECT_EQ(reg.gauge_family("x_total", "help", {"gpu"}).error().code(), status_code::already_exists);
  EXPECT_EQ(reg.counter_family("x_total", "help", {"cpu"}).error().code(), status_code::already_exists);
  EXPECT_EQ(reg.counter_family("9bad", "").error().code(), status_code::invalid_argument);
  EXPECT_EQ(reg.counter_family("bad-name", "").error().code(), status_code::invalid_argument);
  EXPECT_EQ(reg.counter_family("ok", "", {"__reserved"}).error().code(), status_code::invalid_argument);
  EXPECT_EQ(reg.counter_family("ok", "", {"a", "a"}).error().code(), status_code::invalid_argument);
  EXPECT_EQ(reg.histogram_family("h", "", {"le"}, {1}).error().code(), status_code::invalid_argument);
  EXPECT_EQ(reg.histogram_family("h", "", {}, {2, 1}).error().code(), status_code::invalid_argument);
  EXPECT_EQ(reg.histogram_family("h", "", {}, {1, INFINITY}).error().code(), status_code::invalid_argument);
  EXPECT_THAT(reg.counter_family("ns:sub_total", ""), IsOk());
}

TEST(Metrics, CounterIgnoresNegative) {
  counter c;
  c.inc(2);
  c.inc(-5);
  EXPECT_EQ(c.value(), 2);
}

TEST(Metrics, ConcurrentUpdatesAndRenders) {
  metrics_registry reg;
  auto c = reg.counter_family("c_total", "", {"worker"});
  auto h = reg.histogram_family("h_seconds", "", {}, {1, 2});
  std::vector<std::thread> threads;
  for (int w = 0; w < 6; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < 5000; ++i) {
        (*c)->with({std::to_string(w % 3)}).inc();
        (*h)->with().observe(i % 3);
        if (i % 500 == 0) EXPECT_FALSE(reg.render().empty());
      }
    });
  }
  for (auto& t : threads) t.join();
  double total = 0;
  for (int w = 0; w < 3; ++w) total += (*c)->with({std::to_string(w)}).value();
  EXPECT_EQ(total, 30000);
  const auto s = (*h)->with().read();
  EXPECT_EQ(s.count, 30000u);
  EXPECT_EQ(s.cumulative.back(), s.count);
  EXPECT_EQ(s.cumulative[0], 6u * (1667 + 1667));  // i % 3 in {0, 1} is <= 1
}

}  // namespace
}  // namespace pp::engine
