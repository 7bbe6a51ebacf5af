// proofpipe: Groth16 proofs over BLS12-381 on CPUs and GPUs.
#include <CLI/CLI.hpp>

#include "cli/commands.hpp"

int main(int argc, char** argv) {
  CLI::App app{"proofpipe: Groth16 over BLS12-381 on CPUs and GPUs"};
  app.require_subcommand(1);
  pp::cli::cli_state state;
  app.add_flag("-q,--quiet", state.quiet, "print no progress and no timing table");
  app.fallthrough();  // `proofpipe prove ... --quiet` works too
  pp::cli::add_demo_command(app, state);
  pp::cli::add_setup_command(app, state);
  pp::cli::add_prove_command(app, state);
  pp::cli::add_verify_command(app, state);
  pp::cli::add_selfcheck_command(app, state);
  pp::cli::add_bench_command(app, state);
  pp::cli::add_serve_command(app, state);
  pp::cli::add_submit_command(app, state);
  pp::cli::add_await_command(app, state);
  pp::cli::add_status_command(app, state);
  pp::cli::add_cancel_command(app, state);
  CLI11_PARSE(app, argc, argv);
  return state.exit_code;
}
