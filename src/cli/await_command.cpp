// `proofpipe await --socket PATH <job> <proof.json> <public.json> [--timeout S]`: waits for a job
// and writes its proof and public signals (partition i > 0 to proof.<i>.json / public.<i>.json).
// Exit 0 only when the job succeeded; a failed, cancelled or unknown job is an error.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "cli/command_run.hpp"
#include "cli/commands.hpp"
#include "cli/connection_options.hpp"
#include "core/output_file.hpp"
#include "server/client.hpp"
#include "server/grpc_status.hpp"

namespace pp::cli {
namespace {
namespace pb = proofpipe::v1;

struct await_args {
  server::client_options conn;
  uint64_t job = 0;
  std::string proof, pub;
  double timeout_s = 0;  // 0: until the job ends
};

std::string nth(const std::string& path, int i) {
  if (i == 0) return path;
  const std::filesystem::path p(path);
  return (p.parent_path() / (p.stem().string() + "." + std::to_string(i) + p.extension().string())).string();
}

std::span<const uint8_t> text_bytes(const std::string& text) {
  return {reinterpret_cast<const uint8_t*>(text.data()), text.size()};
}

int run_await(const await_args& a, bool quiet) {
  command_run run("await", quiet);
  auto c = server::client::connect(a.conn);
  if (!c.ok()) return run.fail(c.error());
  const auto start = std::chrono::steady_clock::now();
  const auto limit = std::chrono::duration<double>(a.timeout_s);
  pb::AwaitProofResponse resp;
  while (true) {
    pb::AwaitProofRequest req;
    req.set_job_id(a.job);
    req.set_timeout_ms(30000);
    if (a.timeout_s > 0) {
      // In seconds: limit - elapsed alone takes the clock's unit (nanoseconds).
      const std::chrono::duration<double> left = limit - (std::chrono::steady_clock::now() - start);
      req.set_timeout_ms(static_cast<uint32_t>(std::clamp(left.count() * 1000, 1.0, 30000.0)));
    }
    resp.Clear();
    if (auto g = c->stub().AwaitProof(c->context(std::chrono::seconds(60)).get(), req, &resp); !g.ok()) {
      return run.fail(server::from_grpc(g).with_context("awaiting job " + std::to_string(a.job) + " on " + c->target()));
    }
    if (resp.state() != pb::JOB_STATE_RUNNING && resp.state() != pb::JOB_STATE_QUEUED) break;
    if (a.timeout_s > 0 && std::chrono::steady_clock::now() - start >= limit) {
      return run.fail(deadline_exceeded("job " + std::to_string(a.job) + " still running after " +
                                        std::to_string(a.timeout_s) + " s"));
    }
  }
  if (resp.state() != pb::JOB_STATE_SUCCEEDED) {
    const char* what = resp.state() == pb::JOB_STATE_CANCELLED ? "was cancelled" : "failed";
    return run.fail(status(static_cast<status_code>(resp.error().code()), resp.error().message())
                        .with_context("job " + std::to_string(a.job) + " " + what));
  }
  // Every partition's files are staged together: when one path is refused, none is written.
  std::vector<output_bytes> outputs;
  for (int i = 0; i < resp.proofs_size(); ++i) {
    outputs.push_back({nth(a.proof, i), text_bytes(resp.proofs(i).proof_json())});
    outputs.push_back({nth(a.pub, i), text_bytes(resp.proofs(i).public_json())});
  }
  if (status s = write_output_files(outputs); !s.ok()) return run.fail(s);
  run.progress("job " + std::to_string(a.job) + " succeeded: " + std::to_string(resp.proofs_size()) + " proof(s) written");
  return 0;
}

}  // namespace

void add_await_command(CLI::App& app, cli_state& state) {
  auto a = std::make_shared<await_args>();
  auto* cmd = app.add_subcommand("await", "wait for a job on a running daemon and write its proof");
  add_connection_options(*cmd, a->conn);
  cmd->add_option("job", a->job, "job id (from proofpipe submit)")->required();
  cmd->add_option("proof", a->proof, "proof output: proof.json")->required();
  cmd->add_option("public", a->pub, "public signals output: public.json")->required();
  cmd->add_option("--timeout", a->timeout_s, "give up after this many seconds (default: wait until the job ends)");
  cmd->callback([&state, a] { state.exit_code = run_await(*a, state.quiet); });
}

}  // namespace pp::cli
