// Shared plumbing of the daemon tests (daemon_harness.hpp).
#include "server/daemon_harness.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <thread>

#include "formats/key_circuit.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "groth16/setup_insecure.hpp"
#include "support/files.hpp"
#include "support/status_matchers.hpp"

namespace pp::server::testing {
namespace fs = std::filesystem;
namespace pb = proofpipe::v1;
using namespace std::chrono_literals;

groth16::verifying_key write_insecure_zkey(const r1cs::constraint_system& cs, uint64_t seed, const fs::path& path) {
  auto pk = groth16::setup_insecure(cs, groth16::h_basis::odd_coset_lagrange,
                                    groth16::toxic_waste_from_seed_insecure(seed));
  EXPECT_THAT(pk, IsOk());
  if (!pk.ok()) return {};
  formats::snarkjs_zkey z;
  z.pk = std::move(pk).value();
  z.coefficients = formats::zkey_coefficients(cs);
  const status w = formats::write_snarkjs_zkey_file(z, path);
  EXPECT_THAT(w, IsOk());
  return z.pk.vk;
}

fs::path temp_socket(const std::string& name) {
  return fs::path("/tmp") / ("pp_" + std::to_string(::getpid()) + "_" + name + ".sock");
}

client_options unix_options(const fs::path& socket) {
  client_options o;
  o.socket = socket.string();
  return o;
}

int connect_http(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    return -1;
  }
  timeval tv{60, 0};  // a bound on every wait, far above any answer
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  return fd;
}

std::string http(int port, const std::string& method, const std::string& path) {
  const int fd = connect_http(port);
  if (fd < 0) return {};
  const std::string req = method + " " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";
  [[maybe_unused]] auto n = ::send(fd, req.data(), req.size(), MSG_NOSIGNAL);
  std::string out;
  char buf[4096];
  ssize_t k;
  while ((k = ::recv(fd, buf, sizeof buf, 0)) > 0) out.append(buf, static_cast<size_t>(k));
  ::close(fd);
  return out;
}

server_config cpu_daemon_config(const fs::path& socket) {
  server_config cfg;
  cfg.server.socket = socket.string();
  cfg.engine.backend = "cpu";
  cfg.engine.config.host_memory_bytes = uint64_t{1024} << 20;
  cfg.engine.config.host_memory_margin = 0;
  return cfg;
}

std::string register_key(const client& c, const fs::path& zkey, const std::string& key_id) {
  pb::RegisterKeyRequest req;
  req.set_zkey_path(zkey.string());
  if (!key_id.empty()) req.set_key_id(key_id);
  pb::RegisterKeyResponse resp;
  const grpc::Status s = c.stub().RegisterKey(c.context(30s).get(), req, &resp);
  EXPECT_TRUE(s.ok()) << s.error_code() << " " << s.error_message();
  return resp.key_id();
}

::testing::AssertionResult submit_job(const client& c, const std::string& key_id, const std::string& wtns,
                                      int partitions, uint64_t* id) {
  pb::SubmitProofRequest req;
  req.set_key_id(key_id);
  for (int p = 0; p < partitions; ++p) req.add_witnesses()->set_wtns(wtns);
  pb::SubmitProofResponse r;
  const grpc::Status s = c.stub().SubmitProof(c.context(10s).get(), req, &r);
  if (!s.ok()) return ::testing::AssertionFailure() << "SubmitProof: " << s.error_code() << " " << s.error_message();
  *id = r.job_id();
  return ::testing::AssertionSuccess();
}

void daemon_fixture::SetUp() {
  socket_ = temp_socket(::testing::UnitTest::GetInstance()->current_test_info()->name());
  cfg_ = cpu_daemon_config(socket_);
  cfg_.server.http = "127.0.0.1:0";
  cfg_.server.drain_timeout_s = 30;
}

void daemon_fixture::start_daemon() {
  auto d = daemon::start(cfg_);
  ASSERT_THAT(d, IsOk());
  daemon_ = std::move(d).value();
  auto c = client::connect(unix_options(socket_));
  ASSERT_THAT(c, IsOk());
  client_ = std::make_unique<client>(std::move(c).value());
}

void daemon_fixture::TearDown() {
  if (!daemon_) return;
  daemon_->stop(false);
  EXPECT_THAT(daemon_->wait(), IsOk());
  daemon_.reset();
}

grpc::Status daemon_fixture::prove(const pb::SubmitProofRequest& sub, pb::AwaitProofResponse* resp) {
  pb::ProveRequest req;
  *req.mutable_submit() = sub;
  req.set_timeout_ms(60000);
  return client_->stub().Prove(client_->context(90s).get(), req, resp);
}

serve_child::serve_child(const fs::path& config, const fs::path& socket, const fs::path& log, rlim_t nofile)
    : socket_(socket) {
  const std::string bin = (test::binary_dir() / "proofpipe").string();
  pid_ = ::fork();
  if (pid_ != 0) return;
  if (nofile != 0) {
    const rlimit r{nofile, nofile};
    ::setrlimit(RLIMIT_NOFILE, &r);
  }
  if (!log.empty()) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    ::dup2(fd, 1);
    ::dup2(fd, 2);
  }
  if (socket.empty()) {
    ::execl(bin.c_str(), bin.c_str(), "serve", "--config", config.c_str(), static_cast<char*>(nullptr));
  } else {
    ::execl(bin.c_str(), bin.c_str(), "serve", "--socket", socket.c_str(), "--config", config.c_str(),
            static_cast<char*>(nullptr));
  }
  std::_Exit(127);
}

serve_child::~serve_child() {
  kill_now();
  if (!socket_.empty()) ::unlink(socket_.c_str());
}

void serve_child::signal(int sig) {
  if (pid_ > 0 && !exited()) ::kill(pid_, sig);
}

void serve_child::kill_now() {
  if (pid_ <= 0 || exited()) return;
  ::kill(pid_, SIGKILL);
  wait_exit(std::chrono::milliseconds::max());
}

int serve_child::wait_exit(std::chrono::milliseconds limit) {
  const auto start = std::chrono::steady_clock::now();
  while (!exited() && pid_ > 0) {
    int st = 0;
    if (::waitpid(pid_, &st, WNOHANG) == pid_) {
      exit_status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
      break;
    }
    if (std::chrono::steady_clock::now() - start >= limit) break;
    std::this_thread::sleep_for(20ms);
  }
  return exit_status_;
}

::testing::AssertionResult serve_child::ready(const client& c, std::chrono::milliseconds limit) {
  const auto start = std::chrono::steady_clock::now();
  while (std::chrono::steady_clock::now() - start < limit) {
    pb::GetStatusResponse st;
    if (c.stub().GetStatus(c.context(1s).get(), {}, &st).ok()) return ::testing::AssertionSuccess();
    if (wait_exit(0ms) >= 0) {
      return ::testing::AssertionFailure() << "proofpipe serve exited with " << exit_status_ << " before serving";
    }
    std::this_thread::sleep_for(50ms);
  }
  return ::testing::AssertionFailure() << "proofpipe serve did not answer GetStatus within " << limit.count() << " ms";
}

}  // namespace pp::server::testing
