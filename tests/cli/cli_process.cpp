// cli_process: fork + exec of the proofpipe binary with bounded waits, for the CLI tests.
#include "cli/cli_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <thread>

#include "support/files.hpp"

namespace pp::cli_test {
namespace fs = std::filesystem;
using namespace std::chrono_literals;

namespace {

std::vector<char*> argv_of(const std::string& bin, const std::vector<std::string>& args, bool quiet) {
  std::vector<char*> argv{const_cast<char*>(bin.c_str())};
  if (quiet) argv.push_back(const_cast<char*>("--quiet"));
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  return argv;
}

}  // namespace

std::string proofpipe() {
  const char* bin = std::getenv("PP_PROOFPIPE");
  return bin != nullptr ? bin : (test::binary_dir() / "proofpipe").string();
}

outcome run(const std::vector<std::string>& args, std::chrono::seconds limit, rlim_t as_limit) {
  static int n = 0;
  const fs::path dir = test::binary_temp_dir("cli_run");
  const fs::path out_path = dir / ("out_" + std::to_string(n));
  const fs::path err_path = dir / ("err_" + std::to_string(n++));
  const std::string bin = proofpipe();
  std::vector<char*> argv = argv_of(bin, args, true);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int o = ::open(out_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int e = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(o, 1);
    ::dup2(e, 2);
    if (as_limit != 0) {
      const rlimit rl{as_limit, as_limit};
      ::setrlimit(RLIMIT_AS, &rl);
    }
    ::execv(bin.c_str(), argv.data());
    ::_exit(127);
  }
  outcome r;
  int st = 0;
  const auto until = std::chrono::steady_clock::now() + limit;
  while (::waitpid(pid, &st, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > until) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &st, 0);
      r.timed_out = true;
      break;
    }
    std::this_thread::sleep_for(20ms);
  }
  r.exited = !r.timed_out && WIFEXITED(st);
  r.code = r.exited ? WEXITSTATUS(st) : (WIFSIGNALED(st) ? WTERMSIG(st) : -1);
  r.out = test::read_file(out_path);
  r.err = test::read_file(err_path);
  fs::remove(out_path);
  fs::remove(err_path);
  return r;
}

std::string describe(const outcome& r) {
  return (r.timed_out ? std::string("timed out") : r.exited ? "exit " + std::to_string(r.code) : "signal " + std::to_string(r.code)) +
         "\nstdout: " + r.out + "\nstderr: " + r.err;
}

std::string last_line(const std::string& text) {
  std::size_t end = text.find_last_not_of('\n');
  if (end == std::string::npos) return "";
  const std::size_t begin = text.rfind('\n', end);
  return text.substr(begin == std::string::npos ? 0 : begin + 1, end + 1 - (begin == std::string::npos ? 0 : begin + 1));
}

background::background(const std::vector<std::string>& args, const fs::path& err_path) : err_path_(err_path) {
  const std::string bin = proofpipe();
  std::vector<char*> argv = argv_of(bin, args, false);
  pid_ = ::fork();
  if (pid_ == 0) {
    const int e = ::open(err_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ::dup2(e, 2);
    ::execv(bin.c_str(), argv.data());
    ::_exit(127);
  }
}

background::~background() {
  if (pid_ > 0) static_cast<void>(stop());
}

bool background::wait_for_stderr(const std::string& text, std::chrono::seconds limit) const {
  const auto until = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < until) {
    if (test::read_file(err_path_).find(text) != std::string::npos) return true;
    std::this_thread::sleep_for(100ms);
  }
  return false;
}

int background::stop() {
  if (pid_ <= 0) return -1;
  ::kill(pid_, SIGTERM);
  int st = 0;
  for (int i = 0; i < 300 && ::waitpid(pid_, &st, WNOHANG) == 0; ++i) std::this_thread::sleep_for(100ms);
  if (::waitpid(pid_, &st, WNOHANG) == 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &st, 0);
  }
  pid_ = -1;
  return st;
}

}  // namespace pp::cli_test
