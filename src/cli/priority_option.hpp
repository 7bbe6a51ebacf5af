// The --priority option of `proofpipe submit`: the proto's priority names (proofpipe.proto's
// Priority) in any case, with or without their PRIORITY_ prefix: `critical`, `CRITICAL` and
// `PRIORITY_CRITICAL` are one priority. A refused value says which values are accepted.
#pragma once
#include <CLI/CLI.hpp>

#include <string>
#include <string_view>

#include "core/result.hpp"
#include "server/proofpipe.pb.h"

namespace pp::cli {

// The priority `name` names; invalid_argument naming the accepted values when it names none.
[[nodiscard]] result<proofpipe::v1::Priority> parse_priority(std::string_view name);

// Adds `--priority` to `cmd`, stored in `name` (default "normal") and checked by parse_priority.
CLI::Option* add_priority_option(CLI::App& cmd, std::string& name);

}  // namespace pp::cli
