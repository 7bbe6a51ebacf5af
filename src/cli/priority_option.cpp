// priority_option: --priority, parsed through the generated proto enum's own names so that the CLI
// and proofpipe.proto cannot disagree about what a priority is called.
#include "cli/priority_option.hpp"

#include <cctype>

namespace pp::cli {
namespace pb = proofpipe::v1;

namespace {
constexpr std::string_view accepted = "low, normal, high or critical (any case, PRIORITY_ prefix optional)";
constexpr std::string_view prefix = "PRIORITY_";
}  // namespace

result<pb::Priority> parse_priority(std::string_view name) {
  std::string upper;
  for (char ch : name) upper += static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
  if (upper.rfind(prefix, 0) != 0) upper.insert(0, prefix);
  pb::Priority p = pb::PRIORITY_UNSPECIFIED;
  // UNSPECIFIED is the wire's "not set", not a priority a user asks for.
  if (!pb::Priority_Parse(upper, &p) || p == pb::PRIORITY_UNSPECIFIED) {
    return invalid_argument("'" + std::string(name) + "' is not a priority; expected " + std::string(accepted));
  }
  return p;
}

CLI::Option* add_priority_option(CLI::App& cmd, std::string& name) {
  return cmd
      .add_option("--priority", name, "scheduling priority: " + std::string(accepted))
      ->check(CLI::Validator(
          [](std::string& value) {
            const auto p = parse_priority(value);
            return p.ok() ? std::string() : p.error().message();
          },
          "PRIORITY"))
      ->capture_default_str();
}

}  // namespace pp::cli
