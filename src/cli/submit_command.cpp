// `proofpipe submit --socket PATH <circuit.zkey> <witness.wtns>... [--priority P] [--id KEY]`:
// registers the key by its path (once per daemon), queues one job (one witness per partition) and
// prints its id. Witnesses travel as bytes unless --by-path (then the daemon reads them).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "cli/connection_options.hpp"
#include "cli/priority_option.hpp"
#include "server/client.hpp"
#include "server/grpc_status.hpp"

namespace pp::cli {
namespace {
namespace pb = proofpipe::v1;

struct submit_args {
  server::client_options conn;
  std::string key, key_id, priority = "normal", idempotency_key;
  std::vector<std::string> witnesses;
  bool by_path = false;
};

int run_submit(const submit_args& a, bool quiet) {
  command_run run("submit", quiet);
  auto c = server::client::connect(a.conn);
  if (!c.ok()) return run.fail(c.error());
  pb::RegisterKeyRequest rk;
  rk.set_key_id(a.key_id);
  rk.set_zkey_path(std::filesystem::absolute(a.key).string());
  pb::RegisterKeyResponse rkr;
  if (auto g = c->stub().RegisterKey(c->context(std::chrono::seconds(60)).get(), rk, &rkr); !g.ok()) {
    return run.fail(server::from_grpc(g).with_context("registering " + a.key + " with " + c->target()));
  }
  pb::SubmitProofRequest req;
  req.set_key_id(rkr.key_id());
  auto priority = parse_priority(a.priority);
  if (!priority.ok()) return run.fail(priority.error().with_context("--priority"));
  req.set_priority(*priority);
  req.set_idempotency_key(a.idempotency_key);
  for (const std::string& w : a.witnesses) {
    if (a.by_path) {
      req.add_witnesses()->set_path(std::filesystem::absolute(w).string());
      continue;
    }
    std::ifstream in(w, std::ios::binary);
    if (!in) return run.fail("reading " + w + ": cannot open");
    std::ostringstream os;
    os << in.rdbuf();
    req.add_witnesses()->set_wtns(os.str());
  }
  pb::SubmitProofResponse resp;
  if (auto g = c->stub().SubmitProof(c->context(std::chrono::seconds(60)).get(), req, &resp); !g.ok()) {
    return run.fail(server::from_grpc(g).with_context("submitting to " + c->target()));
  }
  if (resp.deduplicated()) run.progress("idempotency key matched an earlier job");
  std::printf("%llu\n", static_cast<unsigned long long>(resp.job_id()));
  return 0;
}

}  // namespace

void add_submit_command(CLI::App& app, cli_state& state) {
  auto a = std::make_shared<submit_args>();
  auto* cmd = app.add_subcommand("submit", "queue a proof on a running daemon; prints the job id");
  add_connection_options(*cmd, a->conn);
  cmd->add_option("key", a->key, "proving key: snarkjs .zkey (the daemon reads it by its absolute path)")->required();
  cmd->add_option("witness", a->witnesses, "witness .wtns, one per partition")->required();
  cmd->add_option("--key-id", a->key_id, "register the key under this name (default: its absolute path)");
  add_priority_option(*cmd, a->priority);
  cmd->add_option("--id", a->idempotency_key, "idempotency key: resubmitting with it returns the same job");
  cmd->add_flag("--by-path", a->by_path, "send witness paths for the daemon to read instead of their bytes");
  cmd->callback([&state, a] { state.exit_code = run_submit(*a, state.quiet); });
}

}  // namespace pp::cli
