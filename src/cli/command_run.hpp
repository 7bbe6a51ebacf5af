// command_run: what every subcommand shares: progress lines on stderr ("proofpipe prove: reading
// key circuit.zkey"), errors as "proofpipe prove: <context>: <message>" with exit code 1 (exit_failure), and the
// per-step timing table printed at the end. --quiet silences progress and the table, not errors.
#pragma once
#include <cstdio>
#include <string>
#include <string_view>
#include <utility>

#include "core/status.hpp"
#include "core/timing_table.hpp"
#include "groth16/backend.hpp"

namespace pp::cli {

class command_run {
 public:
  command_run(std::string name, bool quiet) : name_(std::move(name)), quiet_(quiet) {}

  [[nodiscard]] bool quiet() const { return quiet_; }
  [[nodiscard]] timing_table& table() { return table_; }

  // "proofpipe <name>: <what>" on stderr unless quiet.
  void progress(std::string_view what) const;
  // Prints the error and returns exit_failure (cli/exit_codes.hpp). The message usually names the file already.
  [[nodiscard]] int fail(const status& s) const;
  [[nodiscard]] int fail(std::string_view message) const;
  // The same, returning `exit_code` instead.
  [[nodiscard]] int fail(const status& s, int exit_code) const;

  // Runs f under a timing row `step`, announcing `what` first.
  template <class F>
  auto step(std::string step, std::string_view what, F&& f) {
    progress(what);
    auto t = table_.time(std::move(step));
    return f();
  }

  // The prover's own steps, each as a row "prove: <step>" (time the prove call with nothing else,
  // or the rows overlap).
  void add_prover_timings(const groth16::prove_timings& t);

  // Prints the timing table to stdout unless quiet.
  void print_table() const;

 private:
  std::string name_;
  bool quiet_;
  timing_table table_;
};

}  // namespace pp::cli
