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
void add_bench_command(CLI::App& app, cli_state& state);
void add_plan_command(CLI::App& app, cli_state& state);
// The daemon and its clients (src/server).
void add_serve_command(CLI::App& app, cli_state& state);
void add_submit_command(CLI::App& app, cli_state& state);
void add_await_command(CLI::App& app, cli_state& state);
void add_status_command(CLI::App& app, cli_state& state);
void add_cancel_command(CLI::App& app, cli_state& state);
// This host against a configuration (src/doctor).
void add_doctor_command(CLI::App& app, cli_state& state);

}  // namespace pp::cli
