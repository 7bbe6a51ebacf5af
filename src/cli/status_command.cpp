// `proofpipe status --socket PATH [--metrics | --cluster]`: the daemon's status (JSON: queues,
// devices, memory, keys, job counts), its Prometheus metrics text, or (on a cluster node) a table of
// every node of the cluster with its devices and claims, and the queue by priority.
#include <cstdio>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "cli/connection_options.hpp"
#include "server/client.hpp"
#include "server/grpc_status.hpp"

namespace pp::cli {
namespace {
namespace pb = proofpipe::v1;

struct status_args {
  server::client_options conn;
  bool metrics = false;
  bool cluster = false;
};

std::string device_list(const nlohmann::json& devices) {
  std::string out;
  for (const auto& d : devices) {
    if (!out.empty()) out += ",";
    out += d.value("name", "?") + (d.value("healthy", true) ? "" : "(faulty)");
  }
  return out.empty() ? "-" : out;
}

// A node's keys with their curves, "bn (bn128), k (bls12381)"; "-" when it holds none.
std::string key_list(const nlohmann::json& node) {
  std::string out;
  for (const auto& id : node.value("keys", nlohmann::json::array())) {
    const std::string name = id.get<std::string>();
    out += (out.empty() ? "" : ", ") + name;
    if (const auto& curves = node.value("key_curves", nlohmann::json::object()); curves.contains(name)) {
      out += " (" + curves[name].get<std::string>() + ")";
    }
  }
  return out.empty() ? "-" : out;
}

// The "cluster" member of the status JSON as tables; invalid_argument when it is missing.
int print_cluster(command_run& run, const std::string& engine_json) {
  const auto j = nlohmann::json::parse(engine_json, nullptr, false);
  if (j.is_discarded() || !j.contains("cluster")) {
    return run.fail("this daemon is not a cluster node (its config has no [cluster] section)");
  }
  const auto& c = j["cluster"];
  if (c.contains("error")) return run.fail("cluster status: " + c["error"].get<std::string>());
  std::printf("%-24s %-5s %-8s %-10s %-24s %-7s %-7s %s\n", "node", "live", "draining", "heartbeat", "devices", "claims",
              "proved", "keys");
  for (const auto& n : c["nodes"]) {
    std::printf("%-24s %-5s %-8s %8.1f s %-24s %-7llu %-7llu %s\n", n["name"].get<std::string>().c_str(),
                n["live"].get<bool>() ? "yes" : "no", n["draining"].get<bool>() ? "yes" : "no",
                n["heartbeat_age_s"].get<double>(), device_list(n["devices"]).c_str(),
                static_cast<unsigned long long>(n["claims"].get<uint64_t>()),
                static_cast<unsigned long long>(n["partitions_proved"].get<uint64_t>()), key_list(n).c_str());
  }
  const auto& q = c["queued_partitions"];
  std::printf("queued partitions: critical %llu, high %llu, normal %llu, low %llu\n",
              static_cast<unsigned long long>(q["critical"].get<uint64_t>()),
              static_cast<unsigned long long>(q["high"].get<uint64_t>()),
              static_cast<unsigned long long>(q["normal"].get<uint64_t>()),
              static_cast<unsigned long long>(q["low"].get<uint64_t>()));
  const auto& jobs = c["jobs"];
  std::printf("jobs: running %llu, succeeded %llu, failed %llu, cancelled %llu\n",
              static_cast<unsigned long long>(jobs["running"].get<uint64_t>()),
              static_cast<unsigned long long>(jobs["succeeded"].get<uint64_t>()),
              static_cast<unsigned long long>(jobs["failed"].get<uint64_t>()),
              static_cast<unsigned long long>(jobs["cancelled"].get<uint64_t>()));
  return 0;
}

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
  if (a.cluster) return print_cluster(run, s.engine_json());
  std::printf("%s\n", s.engine_json().c_str());
  return 0;
}

}  // namespace

void add_status_command(CLI::App& app, cli_state& state) {
  auto a = std::make_shared<status_args>();
  auto* cmd = app.add_subcommand("status", "show a running daemon's status (JSON) or its metrics");
  add_connection_options(*cmd, a->conn);
  auto* metrics = cmd->add_flag("--metrics", a->metrics, "print the Prometheus metrics text instead");
  cmd->add_flag("--cluster", a->cluster, "on a cluster node: every node, its devices and claims, the queue by priority")
      ->excludes(metrics);
  cmd->callback([&state, a] { state.exit_code = run_status(*a, state.quiet); });
}

}  // namespace pp::cli
