// The `proofpipe` binary as a child process, run as a user runs it: its exit, stdout and stderr, with
// every wait bounded. PP_PROOFPIPE overrides the binary (to run the CLI tests against another build).
// The trees and file reads are support/files.hpp's.
#pragma once
#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace pp::cli_test {

struct outcome {
  bool exited = false;  // false: killed by a signal (or by the time limit)
  int code = -1;        // exit code, or the signal number
  bool timed_out = false;
  std::string out, err;
};

// The binary under test: $PP_PROOFPIPE, else $PP_BINARY_DIR/proofpipe (set by ctest).
std::string proofpipe();

// Runs `proofpipe --quiet args...` (stdout and stderr to files), killing it after `limit`;
// `as_limit` caps its address space (RLIMIT_AS) when non-zero.
outcome run(const std::vector<std::string>& args, std::chrono::seconds limit = std::chrono::seconds(120),
            rlim_t as_limit = 0);
// "exit N" / "signal N" / "timed out", then stdout and stderr: for failure messages.
std::string describe(const outcome& r);
// The last non-empty line of `text` (without its newline).
std::string last_line(const std::string& text);

// `proofpipe args...` started in the background, stderr to `err_path`; stop() ends it with SIGTERM
// (SIGKILL after 30 s) and returns its wait status. The destructor stops it if still running.
class background {
 public:
  background(const std::vector<std::string>& args, const std::filesystem::path& err_path);
  ~background();
  background(const background&) = delete;
  background& operator=(const background&) = delete;
  // Waits up to `limit` for `text` in its stderr; false when it did not appear.
  bool wait_for_stderr(const std::string& text, std::chrono::seconds limit = std::chrono::seconds(60)) const;
  int stop();

 private:
  std::filesystem::path err_path_;
  pid_t pid_ = -1;
};

}  // namespace pp::cli_test
