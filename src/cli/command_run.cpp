// command_run: progress, error and timing-table output shared by the subcommands.
#include "cli/command_run.hpp"

#include "cli/exit_codes.hpp"

namespace pp::cli {

void command_run::progress(std::string_view what) const {
  if (quiet_) return;
  std::fprintf(stderr, "proofpipe %s: %.*s\n", name_.c_str(), static_cast<int>(what.size()), what.data());
  std::fflush(stderr);
}

int command_run::fail(const status& s) const { return fail(std::string_view(s.message())); }

int command_run::fail(const status& s, int exit_code) const {
  static_cast<void>(fail(s));
  return exit_code;
}

int command_run::fail(std::string_view message) const {
  std::fprintf(stderr, "proofpipe %s: %.*s\n", name_.c_str(), static_cast<int>(message.size()), message.data());
  return exit_failure;
}

void command_run::add_prover_timings(const groth16::prove_timings& t) {
  for (const auto& s : t.steps) table_.add("prove: " + s.name, s.elapsed);
}

void command_run::print_table() const {
  if (quiet_ || table_.empty()) return;
  std::string text = table_.render();
  if (!text.empty() && text.back() != '\n') text += '\n';
  std::printf("\n%s", text.c_str());
  std::fflush(stdout);
}

}  // namespace pp::cli
