// pp::log: level/format parsing, and that init() redirects loggers already handed out, in text
// and in JSON lines that a JSON parser accepts.
#include "core/log.hpp"
#include "support/status_matchers.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace pp::log {
namespace {

std::vector<std::string> read_lines(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::vector<std::string> lines;
  for (std::string line; std::getline(f, line);) lines.push_back(line);
  return lines;
}

class LogFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("pp_log_test_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override {
    // Points the loggers back at stderr so the file can go.
    EXPECT_THAT(init(level::info), IsOk());
    std::filesystem::remove_all(dir_);
  }
  std::filesystem::path dir_;
};

TEST(LogLevel, ParsesEveryName) {
  const std::pair<const char*, level> cases[] = {
      {"trace", level::trace}, {"debug", level::debug}, {"info", level::info},   {"warn", level::warn},
      {"warning", level::warn}, {"error", level::error}, {"off", level::off},    {"INFO", level::info},
      {"Debug", level::debug},
  };
  for (const auto& [text, want] : cases) {
    const result<level> got = parse_level(text);
    ASSERT_THAT(got, IsOk()) << text;
    EXPECT_EQ(*got, want) << text;
  }
}

TEST(LogLevel, NameRoundTrips) {
  for (level l : {level::trace, level::debug, level::info, level::warn, level::error, level::off}) {
    const result<level> back = parse_level(level_name(l));
    ASSERT_THAT(back, IsOk());
    EXPECT_EQ(*back, l);
  }
}

TEST(LogLevel, RejectsUnknownWithClearMessage) {
  for (const char* bad : {"verbose", "", "inf", "critical", " info"}) {
    const result<level> got = parse_level(bad);
    ASSERT_THAT(got, StatusIs(status_code::invalid_argument)) << bad;
    EXPECT_NE(got.error().message().find("expected one of trace, debug, info, warn, error, off; got \"" +
                                         std::string(bad) + "\""),
              std::string::npos)
        << got.error().message();
  }
}

TEST(LogFormat, Parses) {
  ASSERT_THAT(parse_format("json"), IsOk());
  EXPECT_EQ(*parse_format("JSON"), format::json);
  EXPECT_EQ(*parse_format("text"), format::text);
  const result<format> bad = parse_format("xml");
  ASSERT_THAT(bad, StatusIs(status_code::invalid_argument));
  EXPECT_NE(bad.error().message().find("got \"xml\""), std::string::npos);
}

TEST(LogGet, SameComponentSameLogger) {
  EXPECT_EQ(get("engine"), get("engine"));
  EXPECT_NE(get("engine"), get("msm"));
  EXPECT_EQ(get("msm")->name(), "msm");
}

TEST_F(LogFile, TextToFileFiltersByLevel) {
  auto engine = get("engine-text");  // fetched before init: must follow the new sinks
  ASSERT_THAT(init(options{level::info, dir_ / "text.log", format::text, false}), IsOk());
  engine->debug("hidden {}", 1);
  engine->info("job {} queued", 7);
  get("msm-text")->warn("slow bucket");
  flush();

  const auto lines = read_lines(dir_ / "text.log");
  ASSERT_EQ(lines.size(), 2u);
  EXPECT_NE(lines[0].find("[engine-text]"), std::string::npos) << lines[0];
  EXPECT_NE(lines[0].find("job 7 queued"), std::string::npos) << lines[0];
  EXPECT_NE(lines[1].find("[msm-text]"), std::string::npos) << lines[1];
  EXPECT_NE(lines[1].find("slow bucket"), std::string::npos) << lines[1];
}

// An info line is in the file as soon as it is logged, not when a later warning flushes the file's
// buffer: an operator tailing the log (or reading it after kill -9) sees every line.
TEST_F(LogFile, EveryLineReachesTheFileWithoutAFlush) {
  ASSERT_THAT(init(options{level::info, dir_ / "live.log", format::text, false}), IsOk());
  get("engine-live")->info("job {} queued", 8);
  const auto lines = read_lines(dir_ / "live.log");
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_NE(lines[0].find("job 8 queued"), std::string::npos) << lines[0];
}

TEST_F(LogFile, JsonLinesParse) {
  ASSERT_THAT(init(options{level::debug, dir_ / "json.log", format::json, false}), IsOk());
  get("engine-json")->debug("path \"C:\\tmp\"\tand\nnewline");
  get("engine-json")->error("device {} lost", 1);
  get("engine-json")->trace("below level");
  flush();

  const auto lines = read_lines(dir_ / "json.log");
  ASSERT_EQ(lines.size(), 2u);
  const auto first = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(first.at("logger"), "engine-json");
  EXPECT_EQ(first.at("level"), "debug");
  EXPECT_EQ(first.at("msg"), "path \"C:\\tmp\"\tand\nnewline");
  EXPECT_TRUE(first.at("ts").is_string());
  EXPECT_TRUE(first.at("thread").is_number());
  const auto second = nlohmann::json::parse(lines[1]);
  EXPECT_EQ(second.at("msg"), "device 1 lost");
  EXPECT_EQ(second.at("level"), "error");
}

TEST_F(LogFile, OffSilencesEverything) {
  ASSERT_THAT(init(options{level::off, dir_ / "off.log", format::text, false}), IsOk());
  get("quiet")->error("not written");
  flush();
  EXPECT_TRUE(read_lines(dir_ / "off.log").empty());
}

TEST(LogInit, UnopenableFileIsAnErrorAndKeepsOldSinks) {
  const status s = init(options{level::info, std::filesystem::path("/dev/null/not-a-dir/x.log"), format::text, false});
  ASSERT_THAT(s, StatusIs(status_code::unavailable));
  EXPECT_NE(s.message().find("log file"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace pp::log
