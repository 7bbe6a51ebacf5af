// What the daemon tests (tests/server, tests/cluster) share: an insecure key written as a .zkey,
// temp unix sockets, the config of a CPU-backend test daemon, key registration through a client, an
// in-process daemon fixture with a connected client, and `proofpipe serve` as a child process.
#pragma once
#include <gtest/gtest.h>

#include <sys/resource.h>
#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "groth16/keys.hpp"
#include "r1cs/constraint_system.hpp"
#include "server/client.hpp"
#include "server/daemon.hpp"

namespace pp::server::testing {

// An insecure key for cs (toxic waste from seed, snarkjs's odd-coset Lagrange H basis) written as a
// snarkjs .zkey at path; its verifying key. Expectations fail (and the key is empty) on error.
groth16::verifying_key write_insecure_zkey(const r1cs::constraint_system& cs, uint64_t seed,
                                           const std::filesystem::path& path);

// "/tmp/pp_<pid>_<name>.sock": unique per test binary and short enough for sun_path (108 bytes).
std::filesystem::path temp_socket(const std::string& name);

client_options unix_options(const std::filesystem::path& socket);

// A TCP connection to 127.0.0.1:port whose reads give up after 60 s (far above any answer); -1 when
// nothing accepts.
int connect_http(int port);
// One HTTP/1.1 request (Connection: close) over a plain socket; the whole response, empty when the
// connection fails.
std::string http(int port, const std::string& method, const std::string& path);

// A daemon on this unix socket with the CPU backend, 1 GiB of host memory and no margin.
server_config cpu_daemon_config(const std::filesystem::path& socket);

// Registers zkey through c (key_id empty: the daemon names it); the key id, "" after a failed expectation.
std::string register_key(const client& c, const std::filesystem::path& zkey, const std::string& key_id = {});

// Submits a job of `partitions` copies of wtns under key_id through c and stores its id:
// ASSERT_TRUE(submit_job(*c, key, wtns, 1, &id)); a failure names the gRPC error.
::testing::AssertionResult submit_job(const client& c, const std::string& key_id, const std::string& wtns,
                                      int partitions, uint64_t* id);

// An in-process daemon (cpu_daemon_config on a socket named after the test, HTTP on 127.0.0.1:0,
// drain 30 s) with a connected client, stopped without drain after the test. A fixture changes
// cfg_ in its SetUp, after this one's, and then calls start_daemon().
class daemon_fixture : public ::testing::Test {
 protected:
  void SetUp() override;
  void TearDown() override;
  void start_daemon();
  // One ProveRequest (60 s to prove, 90 s for the call).
  grpc::Status prove(const proofpipe::v1::SubmitProofRequest& sub, proofpipe::v1::AwaitProofResponse* resp);

  std::filesystem::path socket_;
  server_config cfg_;
  std::unique_ptr<daemon> daemon_;
  std::unique_ptr<client> client_;
};

// `proofpipe serve --config <config>` (plus --socket when given) as a child process, its output
// appended to log when given (else inherited), its file descriptors capped at `nofile` (soft and
// hard RLIMIT_NOFILE) when non-zero; killed with SIGKILL when destroyed still running, and the
// --socket path removed then.
class serve_child {
 public:
  serve_child(const std::filesystem::path& config, const std::filesystem::path& socket = {},
              const std::filesystem::path& log = {}, rlim_t nofile = 0);
  ~serve_child();
  serve_child(const serve_child&) = delete;
  serve_child& operator=(const serve_child&) = delete;

  bool exited() const { return exit_status_ >= 0; }
  void signal(int sig);
  void kill_now();
  // The exit status (128 + signal when killed), or -1 while it still runs after `limit`.
  int wait_exit(std::chrono::milliseconds limit);
  // Polls GetStatus through c until it answers; fails when the child exits first or after limit.
  ::testing::AssertionResult ready(const client& c, std::chrono::milliseconds limit = std::chrono::seconds(30));

 private:
  std::filesystem::path socket_;
  pid_t pid_ = -1;
  int exit_status_ = -1;
};

}  // namespace pp::server::testing
