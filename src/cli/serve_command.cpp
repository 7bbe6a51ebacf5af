// `proofpipe serve [--config proofpipe.toml] [--socket PATH] [--listen HOST:PORT --token-file F]
// [--http HOST:PORT]`: the daemon (server::daemon) until SIGTERM/SIGINT. The first signal drains
// (no new work; queued and running jobs finish), a second one stops at once: unfinished jobs end as
// CANCELLED (UNAVAILABLE), waiting clients are told, the socket file goes. SIGHUP reopens the log
// file (logrotate) and changes nothing else.
#include <malloc.h>
#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <thread>

#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "core/log.hpp"
#include "server/daemon.hpp"

namespace pp::cli {
namespace {

struct serve_args {
  std::string config, socket, listen, token_file, http;
  bool check_config = false;
};

// SIGHUP: the log file is opened again by name, so a rotated (renamed) file stops growing and the
// new one starts with this line. Without a log file there is nothing to reopen; say so.
void reopen_log(const pp::log::options& o) {
  auto log = pp::log::get("server");
  if (!o.file) {
    log->info("SIGHUP: no [log] file configured, nothing to reopen");
    return;
  }
  if (status s = pp::log::init(o); !s.ok()) {
    log->error("SIGHUP: cannot reopen the log file, still writing the old one: {}", s.to_string());
    return;
  }
  log->info("SIGHUP: log file {} reopened", o.file->string());
  pp::log::flush();  // the new file shows the reopen at once, not at the next warning
}

int run_serve(const serve_args& a, bool quiet) {
  command_run run("serve", quiet);
  server::server_config cfg;
  pp::log::options log_options;
  if (!a.config.empty()) {
    auto c = server::load_server_config(a.config);
    if (!c.ok()) return run.fail(c.error());
    cfg = std::move(*c);
  }
  if (!a.socket.empty()) cfg.server.socket = a.socket;
  if (!a.listen.empty()) cfg.server.listen = a.listen;
  if (!a.token_file.empty()) cfg.server.token_file = a.token_file;
  if (!a.http.empty()) cfg.server.http = a.http;
  if (status s = server::validate(cfg); !s.ok()) return run.fail(s.with_context("flags"));
  if (a.check_config) {
    std::printf("%s: ok\n", a.config.empty() ? "defaults" : a.config.c_str());
    return 0;
  }
  {
    auto level = pp::log::parse_level(cfg.log.level);
    auto format = pp::log::parse_format(cfg.log.format);
    if (!level.ok() || !format.ok()) return run.fail("log: bad level or format");
    log_options = {*level, std::nullopt, *format, true};
    if (!cfg.log.file.empty()) log_options.file = cfg.log.file;
    if (status s = pp::log::init(log_options); !s.ok()) return run.fail(s.with_context("log.file"));
  }

  // Every thread the daemon starts inherits this mask, so the signals arrive only at sigtimedwait.
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);

  // Large buffers (witnesses, a/b/c, MSM scratch) straight from and back to the kernel: with glibc's
  // adaptive threshold freed partitions stay resident in per-thread arenas and RSS drifts past the
  // memory budget the engine enforces (tests/engine/engine_rss_test.cpp measures both).
  mallopt(M_MMAP_THRESHOLD, 128 * 1024);
  auto d = server::daemon::start(cfg);
  if (!d.ok()) return run.fail(d.error());
  server::daemon& daemon = **d;
  std::atomic<bool> done{false};
  std::thread waiter([&] {
    daemon.wait().ignore();
    done = true;
  });
  int signals = 0;
  while (!done.load()) {
    const timespec slice{0, 200'000'000};
    const int sig = sigtimedwait(&set, nullptr, &slice);
    if (sig <= 0) continue;
    if (sig == SIGHUP) {
      reopen_log(log_options);
      continue;
    }
    ++signals;
    if (signals == 1) {
      daemon.stop(/*drain=*/true);
    } else if (signals == 2) {
      // Unfinished jobs end now and their waiting clients are answered within one poll slice; the
      // daemon then closes and removes its socket. A device still inside a long step may hold the
      // join: after a grace period leave it, removing the socket first.
      daemon.stop(/*drain=*/false);
      std::thread([socket = cfg.server.socket] {
        std::this_thread::sleep_for(std::chrono::seconds(5));
        pp::log::get("server")->warn("stopped at once (second signal): a device step was still running");
        pp::log::flush();
        if (!socket.empty()) ::unlink(socket.c_str());
        std::_Exit(1);
      }).detach();
    }
  }
  waiter.join();
  const status s = daemon.wait();
  d->reset();
  pp::log::flush();
  if (!s.ok()) return run.fail(s.with_context("shutdown"));
  return signals > 1 ? 1 : 0;
}

}  // namespace

void add_serve_command(CLI::App& app, cli_state& state) {
  auto args = std::make_shared<serve_args>();
  auto* cmd = app.add_subcommand("serve", "run the proving daemon (gRPC proofpipe.v1; CPU backend when no GPU)");
  cmd->add_option("--config", args->config, "TOML configuration (proofpipe.example.toml documents every knob)");
  cmd->add_option("--socket", args->socket, "unix socket path (overrides server.socket)");
  cmd->add_option("--listen", args->listen, "also serve TCP on HOST:PORT (needs --token-file; overrides server.listen)");
  cmd->add_option("--token-file", args->token_file, "bearer token file for TCP (overrides server.token_file)");
  cmd->add_option("--http", args->http, "HTTP HOST:PORT for GET /metrics and /status (overrides server.http)");
  cmd->add_flag("--check-config", args->check_config, "validate the configuration and exit");
  cmd->callback([&state, args] { state.exit_code = run_serve(*args, state.quiet); });
}

}  // namespace pp::cli
