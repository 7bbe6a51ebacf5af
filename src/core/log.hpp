// Process-wide logging through spdlog: one named logger per component ("engine", "msm", ...),
// all writing to the same sinks (stderr and/or a file) in text or JSON-lines form.
// The edge (CLI, server) calls init() once from its validated config; libraries only call get().
#pragma once
#include <filesystem>
#include <memory>
#include <optional>
#include <string_view>

#include <spdlog/logger.h>

#include "core/result.hpp"
#include "core/status.hpp"

namespace pp::log {

enum class level { trace, debug, info, warn, error, off };
enum class format { text, json };

struct options {
  level min_level = level::info;
  std::optional<std::filesystem::path> file;  // appended to; created if missing
  format output = format::text;
  bool to_stderr = true;
};

// "trace", "debug", "info", "warn" (or "warning"), "error", "off"; case-insensitive.
[[nodiscard]] result<level> parse_level(std::string_view text);
// "text" or "json"; case-insensitive.
[[nodiscard]] result<format> parse_format(std::string_view text);
[[nodiscard]] std::string_view level_name(level l);

// Replaces the sinks and level of every component logger, including ones already handed out.
// Fails (and changes nothing) when the file cannot be opened.
[[nodiscard]] status init(const options& opts);
[[nodiscard]] inline status init(level min_level, std::optional<std::filesystem::path> file = std::nullopt,
                                 format output = format::text) {
  return init(options{min_level, std::move(file), output, true});
}

// The logger for one component; created on first use. Before init() it logs text at info to stderr.
[[nodiscard]] std::shared_ptr<spdlog::logger> get(std::string_view component);

void flush();

}  // namespace pp::log
