// timing_table: row order, totals, duration formatting and column alignment.
#include "core/timing_table.hpp"

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

namespace pp {
namespace {

using namespace std::chrono_literals;

std::vector<std::string> lines_of(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(TimingTable, FormatDurationPicksUnit) {
  EXPECT_EQ(timing_table::format_duration(0ns), "0 us");
  EXPECT_EQ(timing_table::format_duration(87'400ns), "87 us");
  EXPECT_EQ(timing_table::format_duration(12'345'600ns), "12.346 ms");
  EXPECT_EQ(timing_table::format_duration(1'204ms), "1.204 s");
  EXPECT_EQ(timing_table::format_duration(125s), "125.000 s");
}

TEST(TimingTable, RendersRowsInOrderWithTotal) {
  timing_table t;
  t.add("load key", 1500ms);
  t.add("witness", 250ms);
  t.add("prove", 250ms);
  EXPECT_EQ(t.total(), 2000ms);
  ASSERT_EQ(t.rows().size(), 3u);

  const auto lines = lines_of(t.render());
  // header, rule, 3 rows, rule, total
  ASSERT_EQ(lines.size(), 7u) << t.render();
  EXPECT_EQ(lines[0].rfind("step", 0), 0u);
  EXPECT_EQ(lines[1].find_first_not_of('-'), std::string::npos);
  EXPECT_EQ(lines[2].rfind("load key", 0), 0u);
  EXPECT_NE(lines[2].find("1.500 s"), std::string::npos);
  EXPECT_NE(lines[2].find("75.0%"), std::string::npos);
  EXPECT_EQ(lines[3].rfind("witness", 0), 0u);
  EXPECT_NE(lines[3].find("250.000 ms"), std::string::npos);
  EXPECT_NE(lines[3].find("12.5%"), std::string::npos);
  EXPECT_EQ(lines[4].rfind("prove", 0), 0u);
  EXPECT_EQ(lines[6].rfind("total", 0), 0u);
  EXPECT_NE(lines[6].find("2.000 s"), std::string::npos);
  EXPECT_NE(lines[6].find("100.0%"), std::string::npos);
}

TEST(TimingTable, ColumnsAlign) {
  timing_table t;
  t.add("a", 3us);
  t.add("a much longer step name", 42'000ms);
  t.add("mid", 5ms);
  const auto lines = lines_of(t.render());
  ASSERT_FALSE(lines.empty());
  // Every line has the same width, and the right-aligned columns end in the same place.
  for (const auto& l : lines) EXPECT_EQ(l.size(), lines[0].size()) << "\n" << t.render();
  // The time column is right-aligned: each row's unit ends just before the share column.
  const auto time_end = lines[0].find("time") + 4;
  for (std::size_t i = 2; i < 5; ++i) EXPECT_EQ(lines[i][time_end - 1], 's') << lines[i];
}

TEST(TimingTable, EmptyTableStillRenders) {
  timing_table t;
  EXPECT_TRUE(t.empty());
  const auto lines = lines_of(t.render());
  ASSERT_EQ(lines.size(), 4u);  // header, rule, rule, total
  EXPECT_EQ(lines[3].rfind("total", 0), 0u);
  EXPECT_NE(lines[3].find('-'), std::string::npos);  // no share of a zero total
}

TEST(TimingTable, ScopeAddsOneRow) {
  timing_table t;
  {
    auto s = t.time("scoped step");
  }
  {
    auto s = t.time("stopped early");
    s.stop();
    s.stop();
  }
  ASSERT_EQ(t.rows().size(), 2u);
  EXPECT_EQ(t.rows()[0].step, "scoped step");
  EXPECT_EQ(t.rows()[1].step, "stopped early");
  EXPECT_GE(t.rows()[0].elapsed.count(), 0);
}

}  // namespace
}  // namespace pp
