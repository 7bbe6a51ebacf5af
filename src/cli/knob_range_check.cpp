// knob_range_check: a CLI11 validator over server::knob_range_of.
#include "cli/knob_range_check.hpp"

#include <string>

#include "server/server_config.hpp"

namespace pp::cli {
namespace {

// "[1, 1024]" or "(0, 1)", integers without a fraction.
std::string describe(const server::knob_range& r) {
  const auto num = [](double v) {
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
  };
  return std::string(r.open ? "(" : "[") + num(r.lo) + ", " + num(r.hi) + (r.open ? ")" : "]");
}

}  // namespace

CLI::Validator knob_range_check(std::string_view knob) {
  const auto range = server::knob_range_of(knob);
  const std::string name(knob);
  const std::string desc = range.ok() ? describe(*range) : "?";
  return CLI::Validator(
      [range, name, desc](std::string& value) -> std::string {
        if (!range.ok()) return range.error().message();
        double v = 0;
        if (!CLI::detail::lexical_cast(value, v)) return "'" + value + "' is not a number";
        if (range->contains(v)) return {};
        return value + " is outside " + desc + " (the range of " + name + " in the configuration file)";
      },
      "in " + desc);
}

}  // namespace pp::cli
