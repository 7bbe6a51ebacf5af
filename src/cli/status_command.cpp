// `proofpipe status --socket PATH [--metrics]`: the daemon's status (JSON: queues, devices, memory,
// keys, job counts), or its Prometheus metrics text.
#include <cstdio>
#include <memory>
#include <string>

#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "server/client.hpp"
#include "server/grpc_status.hpp"

namespace pp::cli {
namespace {
namespace pb = proofpipe::v1;

struct status_args {
  server::client_options conn;
  bool metrics = false;
};

int run_status(const status_args& a, bool quiet) {
  command_run run("status", quiet);
  auto c = server::client::connect(a.conn);
  if (!c.ok()) return run.fail(c.error());
  if (a.metrics) {
    pb::GetMetricsResponse m;
    if (auto g = c->stub().GetMetrics(c->context(std::chrono::seconds(10)).get(), {}, &m); !g.ok()) {
      return run.fail(server::from_grpc(g).with_context(c->target()));
    }
    std::fputs(m.prometheus_text().c_str(), stdout);
    return 0;
  }
  pb::GetStatusResponse s;
  if (auto g = c->stub().GetStatus(c->context(std::chrono::seconds(10)).get(), {}, &s); !g.ok()) {
    return run.fail(server::from_grpc(g).with_context(c->target()));
  }
  std::printf("%s\n", s.engine_json().c_str());
  return 0;
}

}  // namespace

void add_status_command(CLI::App& app, cli_state& state) {
  auto a = std::make_shared<status_args>();
  auto* cmd = app.add_subcommand("status", "show a running daemon's status (JSON) or its metrics");
  cmd->add_option("--socket", a->conn.socket, "the daemon's unix socket")->capture_default_str();
  cmd->add_option("--connect", a->conn.target, "the daemon's TCP HOST:PORT instead");
  cmd->add_option("--token-file", a->conn.token_file, "bearer token file (TCP)");
  cmd->add_flag("--metrics", a->metrics, "print the Prometheus metrics text instead");
  cmd->callback([&state, a] { state.exit_code = run_status(*a, state.quiet); });
}

}  // namespace pp::cli
