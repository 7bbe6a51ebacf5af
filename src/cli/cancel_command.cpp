// `proofpipe cancel --socket PATH <job>`: cancels a job at whatever stage it is; prints the job's
// state afterwards (CANCELLED, or the terminal state it had already reached).
#include <cstdio>
#include <memory>
#include <string>

#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "cli/connection_options.hpp"
#include "server/client.hpp"
#include "server/grpc_status.hpp"

namespace pp::cli {
namespace {
namespace pb = proofpipe::v1;

struct cancel_args {
  server::client_options conn;
  uint64_t job = 0;
};

int run_cancel(const cancel_args& a, bool quiet) {
  command_run run("cancel", quiet);
  auto c = server::client::connect(a.conn);
  if (!c.ok()) return run.fail(c.error());
  pb::CancelProofRequest req;
  req.set_job_id(a.job);
  pb::CancelProofResponse resp;
  if (auto g = c->stub().CancelProof(c->context(std::chrono::seconds(10)).get(), req, &resp); !g.ok()) {
    return run.fail(server::from_grpc(g).with_context("cancelling job " + std::to_string(a.job)));
  }
  std::printf("%s\n", pb::JobState_Name(resp.state()).c_str());
  return 0;
}

}  // namespace

void add_cancel_command(CLI::App& app, cli_state& state) {
  auto a = std::make_shared<cancel_args>();
  auto* cmd = app.add_subcommand("cancel", "cancel a job on a running daemon");
  add_connection_options(*cmd, a->conn);
  cmd->add_option("job", a->job, "job id")->required();
  cmd->callback([&state, a] { state.exit_code = run_cancel(*a, state.quiet); });
}

}  // namespace pp::cli
