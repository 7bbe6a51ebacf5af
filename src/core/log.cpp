// Component loggers over one shared spdlog dist_sink, so init() can swap sinks and format
// under loggers that components already hold.
#include "core/log.hpp"

#include <algorithm>
#include <cctype>
#include <exception>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include <spdlog/pattern_formatter.h>
#include <spdlog/sinks/basic_file_sink.h>
#include <spdlog/sinks/dist_sink.h>
#include <spdlog/sinks/stdout_color_sinks.h>

#include "core/mutex.hpp"
#include "core/thread_annotations.hpp"

namespace pp::log {
namespace {

constexpr const char* text_pattern = "[%Y-%m-%d %H:%M:%S.%e] [%^%l%$] [%n] %v";
// One JSON object per line; %N and %V are the escaped logger name and message (flags below).
constexpr const char* json_pattern =
    R"({"ts":"%Y-%m-%dT%H:%M:%S.%f%z","level":"%l","logger":"%N","thread":%t,"msg":"%V"})";

void append_json_escaped(std::string_view in, spdlog::memory_buf_t& out) {
  static constexpr char hex[] = "0123456789abcdef";
  for (const char ch : in) {
    const auto c = static_cast<unsigned char>(ch);
    switch (c) {
      case '"': out.append(std::string_view("\\\"")); break;
      case '\\': out.append(std::string_view("\\\\")); break;
      case '\n': out.append(std::string_view("\\n")); break;
      case '\r': out.append(std::string_view("\\r")); break;
      case '\t': out.append(std::string_view("\\t")); break;
      default:
        if (c < 0x20) {
          const char esc[] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xf]};
          out.append(esc, esc + sizeof(esc));
        } else {
          out.push_back(ch);
        }
    }
  }
}

// Writes the message (or the logger name) JSON-escaped, so a quote in a message cannot break a line.
class json_escaped_flag final : public spdlog::custom_flag_formatter {
 public:
  explicit json_escaped_flag(bool logger_name) : logger_name_(logger_name) {}
  void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
    if (logger_name_) {
      append_json_escaped(std::string_view(msg.logger_name.data(), msg.logger_name.size()), dest);
    } else {
      append_json_escaped(std::string_view(msg.payload.data(), msg.payload.size()), dest);
    }
  }
  std::unique_ptr<custom_flag_formatter> clone() const override {
    return std::make_unique<json_escaped_flag>(logger_name_);
  }

 private:
  bool logger_name_;
};

std::unique_ptr<spdlog::formatter> make_formatter(format f) {
  auto fmt = std::make_unique<spdlog::pattern_formatter>();
  if (f == format::json) {
    fmt->add_flag<json_escaped_flag>('N', true).add_flag<json_escaped_flag>('V', false).set_pattern(json_pattern);
  } else {
    fmt->set_pattern(text_pattern);
  }
  return fmt;
}

spdlog::level::level_enum to_spdlog(level l) {
  switch (l) {
    case level::trace: return spdlog::level::trace;
    case level::debug: return spdlog::level::debug;
    case level::info: return spdlog::level::info;
    case level::warn: return spdlog::level::warn;
    case level::error: return spdlog::level::err;
    case level::off: return spdlog::level::off;
  }
  return spdlog::level::info;
}

std::string lowercase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(), [](unsigned char c) { return std::tolower(c); });
  return out;
}

// Logging is process-wide by nature (spdlog's own registry is too). The state is a function-local
// static so loggers can be fetched safely from other translation units' static initializers.
struct registry {
  mutex mu;
  // The fan-out sink every logger writes to; swapping its sinks is thread-safe in spdlog (_mt), so
  // mu only orders a swap against the flush before it.
  const std::shared_ptr<spdlog::sinks::dist_sink_mt> sink;
  level min_level PP_GUARDED_BY(mu) = level::info;
  std::map<std::string, std::shared_ptr<spdlog::logger>, std::less<>> loggers PP_GUARDED_BY(mu);

  registry() : sink(std::make_shared<spdlog::sinks::dist_sink_mt>()) {
    auto err = std::make_shared<spdlog::sinks::stderr_color_sink_mt>();
    err->set_formatter(make_formatter(format::text));
    sink->set_sinks({std::move(err)});
  }
};

registry& the_registry() {
  static registry r;
  return r;
}

}  // namespace

result<level> parse_level(std::string_view text) {
  const std::string s = lowercase(text);
  if (s == "trace") return level::trace;
  if (s == "debug") return level::debug;
  if (s == "info") return level::info;
  if (s == "warn" || s == "warning") return level::warn;
  if (s == "error") return level::error;
  if (s == "off") return level::off;
  return invalid_argument("log level: expected one of trace, debug, info, warn, error, off; got \"" +
                          std::string(text) + "\"");
}

result<format> parse_format(std::string_view text) {
  const std::string s = lowercase(text);
  if (s == "text") return format::text;
  if (s == "json") return format::json;
  return invalid_argument("log format: expected one of text, json; got \"" + std::string(text) + "\"");
}

std::string_view level_name(level l) {
  switch (l) {
    case level::trace: return "trace";
    case level::debug: return "debug";
    case level::info: return "info";
    case level::warn: return "warn";
    case level::error: return "error";
    case level::off: return "off";
  }
  return "info";
}

status init(const options& opts) {
  std::vector<spdlog::sink_ptr> sinks;
  // spdlog reports a file it cannot open by throwing; turn that into a status here.
  try {
    if (opts.to_stderr) sinks.push_back(std::make_shared<spdlog::sinks::stderr_color_sink_mt>());
    if (opts.file) sinks.push_back(std::make_shared<spdlog::sinks::basic_file_sink_mt>(opts.file->string(), false));
  } catch (const std::exception& e) {
    return unavailable(std::string("opening log file: ") + e.what());
  }
  for (auto& s : sinks) s->set_formatter(make_formatter(opts.output));

  registry& r = the_registry();
  mutex_lock lock(r.mu);
  r.sink->flush();
  r.sink->set_sinks(std::move(sinks));
  r.min_level = opts.min_level;
  for (auto& [name, logger] : r.loggers) logger->set_level(to_spdlog(opts.min_level));
  return ok_status();
}

std::shared_ptr<spdlog::logger> get(std::string_view component) {
  registry& r = the_registry();
  mutex_lock lock(r.mu);
  if (auto it = r.loggers.find(component); it != r.loggers.end()) return it->second;
  auto logger = std::make_shared<spdlog::logger>(std::string(component), r.sink);
  logger->set_level(to_spdlog(r.min_level));
  // Every line: a file sink buffers, and an info line held until the next warning is a line an
  // operator tailing the log (or reading it after a kill -9) never sees.
  logger->flush_on(spdlog::level::trace);
  r.loggers.emplace(std::string(component), logger);
  return logger;
}

void flush() {
  registry& r = the_registry();
  mutex_lock lock(r.mu);
  r.sink->flush();
}

}  // namespace pp::log
