// proofpipe: Groth16 proofs over BLS12-381 on CPUs and GPUs. Errors travel as statuses; an exception
// that still reaches main (an allocation the checks did not foresee, a bug) is named on stderr and
// ends the process with exit_internal_error instead of std::terminate's abort.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <new>
#include <string>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"
#include "cli/version.hpp"

namespace {

// A refused command line: one line that names the command, says why and where the usage is, and
// ends the output, so that the last line of a failed run is the reason (CLI11's default ends with
// "Run with --help for more information.").
std::string refusal(const CLI::App* app, const CLI::Error& e) {
  std::string command = "proofpipe";
  std::string why = e.what();
  if (app->get_subcommands().empty() && !app->remaining().empty()) {
    // CLI11 reports a misspelt subcommand as "A subcommand is required"; name the word instead.
    why = "'" + app->remaining().front() + "' is not a subcommand";
  }
  for (const CLI::App* sub = app; !sub->get_subcommands().empty();) {
    sub = sub->get_subcommands().front();
    command += " " + sub->get_name();
  }
  return command + ": " + why + " (usage: " + command + " --help)\n";
}

int run(int argc, char** argv) {
  CLI::App app{"proofpipe: Groth16 over BLS12-381 on CPUs and GPUs", "proofpipe"};
  app.require_subcommand(1);
  app.set_version_flag("--version", pp::cli::version_text, "print the version, the commit, the CUDA architectures "
                                                             "built and the GPUs found, and exit");
  app.failure_message(refusal);
  pp::cli::cli_state state;
  app.add_flag("-q,--quiet", state.quiet, "print no progress and no timing table");
  app.fallthrough();  // `proofpipe prove ... --quiet` works too
  pp::cli::add_demo_command(app, state);
  pp::cli::add_setup_command(app, state);
  pp::cli::add_prove_command(app, state);
  pp::cli::add_verify_command(app, state);
  pp::cli::add_selfcheck_command(app, state);
  pp::cli::add_bench_command(app, state);
  pp::cli::add_plan_command(app, state);
  pp::cli::add_serve_command(app, state);
  pp::cli::add_submit_command(app, state);
  pp::cli::add_await_command(app, state);
  pp::cli::add_status_command(app, state);
  pp::cli::add_cancel_command(app, state);
  pp::cli::add_doctor_command(app, state);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return state.exit_code;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "proofpipe: out of memory (std::bad_alloc): the input needs more host memory than this "
                         "machine can give\n");
  } catch (const std::exception& e) {
    std::fprintf(stderr, "proofpipe: internal error: uncaught exception: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "proofpipe: internal error: uncaught exception of unknown type\n");
  }
  return pp::cli::exit_internal_error;
}
