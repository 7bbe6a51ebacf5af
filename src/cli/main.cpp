// proofpipe: Groth16 proofs over BLS12-381 on CPUs and GPUs. Errors travel as statuses; an exception
// that still reaches main (an allocation the checks did not foresee, a bug) is named on stderr and
// ends the process with exit_internal_error instead of std::terminate's abort.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <new>

#include "cli/commands.hpp"
#include "cli/exit_codes.hpp"

namespace {

int run(int argc, char** argv) {
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
