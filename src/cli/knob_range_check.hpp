// A command-line flag that sets a knob of the daemon's table (src/server/server_config.cpp) takes
// the same values the file does: the check reads the range from the table, so a limit is written
// once. `proofpipe bench --witness-threads 2000` is refused as `witness_threads = 2000` would be.
#pragma once
#include <CLI/CLI.hpp>

#include <string_view>

namespace pp::cli {

// Checks a flag's value (each value, for a list) against the range of `knob` ("engine.cpu_devices").
// A knob that is not in the table refuses every value, naming it (a programmer's error, caught by
// the first use of the flag and by tests/cli/cli_conventions_test.cpp).
CLI::Validator knob_range_check(std::string_view knob);

}  // namespace pp::cli
