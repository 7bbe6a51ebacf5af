// Subcommand registration: each subcommand lives in its own file and adds itself to the app.
// A subcommand's callback stores the process exit code in cli_state.
#pragma once
#include <CLI/CLI.hpp>

namespace pp::cli {

struct cli_state {
  int exit_code = 0;
  bool quiet = false;  // --quiet: no progress, no timing table
};

void add_selfcheck_command(CLI::App& app, cli_state& state);
void add_demo_command(CLI::App& app, cli_state& state);
void add_setup_command(CLI::App& app, cli_state& state);
void add_prove_command(CLI::App& app, cli_state& state);
void add_verify_command(CLI::App& app, cli_state& state);

}  // namespace pp::cli
