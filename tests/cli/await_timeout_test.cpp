// `proofpipe await --timeout S` against a fake daemon whose job never ends and whose AwaitProof
// waits as long as each call asks (up to 30 s): the command must give up after about S seconds.
// It used to send 30 s whatever S was (seconds and nanoseconds mixed in one duration), so
// `--timeout 1` took 30 s.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include <grpcpp/grpcpp.h>

#include "cli/cli_process.hpp"
#include "server/proofpipe.grpc.pb.h"
#include "support/files.hpp"

namespace pp {
namespace {
namespace fs = std::filesystem;
namespace pb = proofpipe::v1;
using namespace std::chrono_literals;

// AwaitProof: the job is still running after every call, answered when the call's timeout_ms has
// passed (or its client went away).
class never_done final : public pb::ProofPipe::Service {
 public:
  grpc::Status AwaitProof(grpc::ServerContext* ctx, const pb::AwaitProofRequest* req, pb::AwaitProofResponse* resp) override {
    longest_ms = std::max<uint32_t>(longest_ms, req->timeout_ms());
    const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(std::min<uint32_t>(req->timeout_ms(), 30000));
    while (std::chrono::steady_clock::now() < until && !ctx->IsCancelled()) std::this_thread::sleep_for(10ms);
    resp->set_job_id(req->job_id());
    resp->set_state(pb::JOB_STATE_RUNNING);
    return grpc::Status::OK;
  }
  std::atomic<uint32_t> longest_ms{0};
};

TEST(AwaitCommand, TimeoutIsInSeconds) {
  const fs::path dir = test::binary_temp_dir("await_timeout");
  const fs::path socket = fs::path("/tmp") / ("pp_await_" + std::to_string(::getpid()) + ".sock");
  never_done service;
  grpc::ServerBuilder b;
  b.AddListeningPort("unix:" + socket.string(), grpc::InsecureServerCredentials());
  b.RegisterService(&service);
  const std::unique_ptr<grpc::Server> server = b.BuildAndStart();
  ASSERT_TRUE(server);
  const auto t0 = std::chrono::steady_clock::now();
  const cli_test::outcome r = cli_test::run({"await", "--socket", socket.string(), "7", (dir / "p.json").string(),
                                             (dir / "q.json").string(), "--timeout", "1"},
                                            90s);
  const auto took = std::chrono::steady_clock::now() - t0;
  server->Shutdown(std::chrono::system_clock::now() + 1s);
  ASSERT_TRUE(r.exited) << cli_test::describe(r);
  EXPECT_EQ(r.code, 1) << cli_test::describe(r);
  EXPECT_NE(r.err.find("still running after"), std::string::npos) << cli_test::describe(r);
  EXPECT_LT(took, 10s) << "--timeout 1 took " << std::chrono::duration<double>(took).count() << " s";
  EXPECT_LE(service.longest_ms.load(), 1000u);
  EXPECT_FALSE(fs::exists(dir / "p.json"));
  fs::remove(socket);
}

}  // namespace
}  // namespace pp
