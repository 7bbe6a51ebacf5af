// The daemon under faulty clients and inputs, in process on a temp unix socket with the CPU backend:
// a client that trickles its HTTP request cannot silence /metrics and is cut at the request
// deadline; HEAD sends the real Content-Length; counters exist at 0; an unsatisfied witness is not
// blamed on a constraint the daemon cannot know; a witness path that is a directory or a FIFO says
// so; idle clients past the connection caps on the HTTP and TCP ports, unauthenticated ones
// against authenticated ones; caps the descriptor limit cannot cover. Every wait is bounded; the
// timing assertions have seconds of slack.
#include <gtest/gtest.h>

#include <poll.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "formats/circom_wtns.hpp"
#include "r1cs/constraint_system_builder.hpp"
#include "r1cs/satisfaction.hpp"
#include "server/client.hpp"
#include "server/daemon.hpp"
#include "server/daemon_harness.hpp"
#include "server/fd_headroom.hpp"
#include "support/files.hpp"
#include "support/status_matchers.hpp"

namespace pp::server {
namespace {
namespace fs = std::filesystem;
namespace pb = proofpipe::v1;
using namespace std::chrono_literals;
using testing::connect_http;
using testing::http;

// x0 -> x1 = x0^2 -> x2 = x1^2 -> x3 = x2^2, and y = x3 (public): four constraints in a chain, so a
// wrong x2 breaks constraint 1 first, while constraint 0 (x0 * x0 = x1) still holds.
struct chain_fixture {
  fs::path dir, zkey;
  std::vector<ff::fr> witness;  // 1, y, x0, x1, x2, x3
  r1cs::constraint_system cs;
};

const chain_fixture& chain() {
  static const chain_fixture f = [] {
    chain_fixture f;
    f.dir = test::binary_temp_dir("daemon_faults");
    r1cs::constraint_system_builder b(1, 4);
    const ff::fr one = ff::fr::one();
    for (uint64_t i = 0; i < 3; ++i) {
      const r1cs::term x[] = {{b.aux_var(i), one}};
      const r1cs::term next[] = {{b.aux_var(i + 1), one}};
      EXPECT_THAT(b.add_constraint(x, x, next), IsOk());
    }
    const r1cs::term x3[] = {{b.aux_var(3), one}};
    const r1cs::term c1[] = {{r1cs::constraint_system_builder::one(), one}};
    const r1cs::term y[] = {{b.public_var(0), one}};
    EXPECT_THAT(b.add_constraint(x3, c1, y), IsOk());
    auto cs = std::move(b).build();
    EXPECT_THAT(cs, IsOk());
    f.cs = std::move(cs).value();
    const ff::fr x0 = ff::fr::from_uint(3), x1 = x0 * x0, x2 = x1 * x1, x3v = x2 * x2;
    f.witness = {one, x3v, x0, x1, x2, x3v};
    EXPECT_THAT(r1cs::check_satisfied(f.cs, f.witness), IsOk());
    f.zkey = f.dir / "chain.zkey";
    testing::write_insecure_zkey(f.cs, 11, f.zkey);
    return f;
  }();
  return f;
}

std::string header(const std::string& response, const std::string& name) {
  const size_t at = response.find("\r\n" + name + ": ");
  if (at == std::string::npos) return {};
  const size_t b = at + name.size() + 4;
  return response.substr(b, response.find("\r\n", b) - b);
}

class DaemonFaults : public testing::daemon_fixture {
 protected:
  void SetUp() override {
    daemon_fixture::SetUp();
    start_daemon();
  }
  int port() const { return daemon_->http_port(); }
  std::string register_chain() { return testing::register_key(*client_, chain().zkey, "chain"); }
};

// A client that sends its request line one byte every 100 ms and never finishes it.
class trickler {
 public:
  explicit trickler(int port) : fd_(connect_http(port)) {
    thread_ = std::thread([this] {
      const std::string line = "GET /metrics HTTP/1.1\r\nX-Slow: ";
      for (size_t i = 0; !stop_; ++i) {
        const char c = i < line.size() ? line[i] : 'a';
        if (::send(fd_, &c, 1, MSG_NOSIGNAL) != 1) break;
        // The server cut us when it closed its end: a 0-byte read (or reset) means disconnected.
        pollfd p{fd_, POLLIN, 0};
        if (::poll(&p, 1, 100) > 0) {
          char b;
          if (::recv(fd_, &b, 1, MSG_DONTWAIT) <= 0) break;
        }
      }
      cut_ = !stop_;
    });
  }
  ~trickler() {
    stop_ = true;
    thread_.join();
    ::close(fd_);
  }
  bool connected() const { return fd_ >= 0 && !cut_; }
  bool cut() const { return cut_; }
  // Waits (bounded) until the server cuts the connection.
  bool wait_cut(std::chrono::seconds limit) const {
    const auto until = std::chrono::steady_clock::now() + limit;
    while (!cut_ && std::chrono::steady_clock::now() < until) std::this_thread::sleep_for(50ms);
    return cut_;
  }

 private:
  int fd_;
  std::atomic<bool> stop_{false}, cut_{false};
  std::thread thread_;
};

TEST_F(DaemonFaults, ATricklingClientDoesNotBlockMetrics) {
  trickler slow(port());
  ASSERT_TRUE(slow.connected());
  std::this_thread::sleep_for(300ms);  // the trickler's connection is accepted and being read
  // Several scrapes in a row, each a new connection, all answered while the trickler still holds
  // its connection open.
  for (int i = 0; i < 3; ++i) {
    const std::string m = http(port(), "GET", "/metrics");
    EXPECT_NE(m.find(" 200 "), std::string::npos) << m;
    EXPECT_NE(m.find("pp_jobs_total"), std::string::npos) << m;
  }
  EXPECT_TRUE(slow.connected()) << "the trickler was cut before the scrapes were answered";
}

TEST_F(DaemonFaults, ATricklingClientIsCutAtTheRequestDeadline) {
  trickler slow(port());
  ASSERT_TRUE(slow.connected());
  // Every byte arrives well within the per-read timeout; only a whole-request deadline ends it.
  EXPECT_TRUE(slow.wait_cut(120s));
}

TEST_F(DaemonFaults, HeadSendsTheLengthOfTheBodyGetWouldSend) {
  for (const char* path : {"/metrics", "/status"}) {
    const std::string get = http(port(), "GET", path);
    const std::string head = http(port(), "HEAD", path);
    ASSERT_NE(head.find(" 200 "), std::string::npos) << head;
    const std::string length = header(head, "Content-Length");
    ASSERT_FALSE(length.empty()) << head;
    EXPECT_GT(std::stoul(length), 0u) << head;
    EXPECT_EQ(head.substr(head.find("\r\n\r\n") + 4), "") << "HEAD sent a body";
    const size_t body = get.size() - (get.find("\r\n\r\n") + 4);
    EXPECT_EQ(header(get, "Content-Length"), std::to_string(body)) << get;
  }
  EXPECT_NE(http(port(), "GET", "/nope").find(" 404 "), std::string::npos);
}

TEST_F(DaemonFaults, EveryCounterIsExportedAtZeroBeforeItsFirstEvent) {
  const std::string m = http(port(), "GET", "/metrics");
  for (const char* series : {"pp_jobs_total{state=\"cancelled\"} 0", "pp_jobs_total{state=\"failed\"} 0",
                             "pp_jobs_total{state=\"succeeded\"} 0", "pp_partitions_total{result=\"cancelled\"} 0",
                             "pp_partition_retries_total 0"}) {
    EXPECT_NE(m.find(series), std::string::npos) << series << "\n" << m;
  }
}

TEST_F(DaemonFaults, AnUnsatisfiedWitnessIsNotBlamedOnAConstraintThatHolds) {
  const std::string key = register_chain();
  std::vector<ff::fr> w = chain().witness;
  w[4] = w[4] + ff::fr::one();  // x2 wrong: constraint 1 (x1 * x1 = x2) is the first that fails
  const status local = r1cs::check_satisfied(chain().cs, w);
  ASSERT_NE(local.message().find("constraint 1 "), std::string::npos) << local.to_string();
  auto bytes = formats::write_circom_wtns(w);
  ASSERT_THAT(bytes, IsOk());
  pb::SubmitProofRequest sub;
  sub.set_key_id(key);
  sub.add_witnesses()->set_wtns(std::string(bytes->begin(), bytes->end()));
  pb::AwaitProofResponse resp;
  const grpc::Status s = prove(sub, &resp);
  const std::string msg = s.ok() ? resp.error().message() : s.error_message();
  EXPECT_FALSE(s.ok() && resp.state() == pb::JOB_STATE_SUCCEEDED);
  EXPECT_EQ(msg.find("constraint 0 "), std::string::npos) << msg;
  EXPECT_NE(msg.find("does not satisfy"), std::string::npos) << msg;
}

TEST_F(DaemonFaults, AWitnessPathThatIsADirectoryOrAFifoSaysWhatItIs) {
  const std::string key = register_chain();
  const fs::path fifo = chain().dir / ("w_" + std::to_string(::getpid()) + ".fifo");
  fs::remove(fifo);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const auto& [path, what] : {std::pair{chain().dir, "is a directory"}, std::pair{fifo, "is a FIFO"}}) {
    pb::SubmitProofRequest sub;
    sub.set_key_id(key);
    sub.add_witnesses()->set_path(path.string());
    pb::AwaitProofResponse resp;
    const grpc::Status s = prove(sub, &resp);
    const std::string msg = s.ok() ? resp.error().message() : s.error_message();
    EXPECT_FALSE(s.ok() && resp.state() == pb::JOB_STATE_SUCCEEDED);
    EXPECT_NE(msg.find(what), std::string::npos) << msg;
    EXPECT_EQ(msg.find("does not exist"), std::string::npos) << msg;
  }
  fs::remove(fifo);
}

// Descriptors this process holds (the in-process daemon's and the test's own).
size_t open_fds() {
  size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator("/proc/self/fd")) ++n;
  return n;
}

// A key or witness path with a NUL byte names another file to the system calls (the part before
// it): refused, not truncated.
TEST_F(DaemonFaults, APathWithAnEmbeddedNulIsRefused) {
  const std::string zkey = chain().zkey.string() + std::string(1, '\0') + ".other";
  pb::RegisterKeyRequest reg;
  reg.set_zkey_path(zkey);
  reg.set_key_id("nul");
  pb::RegisterKeyResponse rr;
  const grpc::Status r = client_->stub().RegisterKey(client_->context(30s).get(), reg, &rr);
  EXPECT_EQ(r.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << r.error_message();
  EXPECT_NE(r.error_message().find("NUL"), std::string::npos) << r.error_message();

  const std::string key = register_chain();
  const fs::path w = chain().dir / ("w_" + std::to_string(::getpid()) + ".wtns");
  auto bytes = formats::write_circom_wtns(chain().witness);
  ASSERT_THAT(bytes, IsOk());
  std::ofstream(w, std::ios::binary).write(reinterpret_cast<const char*>(bytes->data()), static_cast<std::streamsize>(bytes->size()));
  pb::SubmitProofRequest sub;
  sub.set_key_id(key);
  sub.add_witnesses()->set_path(w.string() + std::string(1, '\0') + ".other");
  pb::SubmitProofResponse sr;
  const grpc::Status s = client_->stub().SubmitProof(client_->context(30s).get(), sub, &sr);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
  EXPECT_NE(s.error_message().find("NUL"), std::string::npos) << s.error_message();
  fs::remove(w);
}

// A TCP connection to 127.0.0.1:port that never sends a byte; -1 when it cannot be made.
int idle_connection(int port) {
  const int fd = connect_http(port);
  if (fd >= 0) {
    timeval tv{30, 0};  // every wait below is bounded by this
    ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }
  return fd;
}

// True when the server closes `fd` (a read sees end of file or a reset) within the socket's timeout;
// what it sends first (gRPC's HTTP/2 settings) is read and dropped.
bool closed_by_server(int fd) {
  char b[256];
  ssize_t n;
  while ((n = ::recv(fd, b, sizeof b, 0)) > 0) {
  }
  return n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK);
}

// The daemon with TCP (token) and HTTP on small connection caps.
class DaemonConnectionCaps : public testing::daemon_fixture {
 protected:
  void SetUp() override {
    daemon_fixture::SetUp();
    token_ = test::binary_temp_dir("daemon_faults") / "caps.token";
    std::ofstream(token_) << "caps-token\n";
    ::chmod(token_.c_str(), 0600);
    cfg_.server.listen = "127.0.0.1:0";
    cfg_.server.token_file = token_.string();
    cfg_.server.max_http_connections = 16;
    cfg_.server.max_tcp_connections = 8;
    start_daemon();
  }
  fs::path token_;
};

// 100 idle clients on a port capped at 16: the daemon holds at most 16 of them (the longest idle
// make room), a scrape is answered at once, and an idle connection is closed after 5 s.
TEST_F(DaemonConnectionCaps, IdleHttpClientsBeyondTheCapNeitherHoldDescriptorsNorDelayAScrape) {
  const int port = daemon_->http_port();
  const size_t before = open_fds();
  std::vector<int> idle;
  for (int i = 0; i < 100; ++i) {
    if (const int fd = idle_connection(port); fd >= 0) idle.push_back(fd);
  }
  ASSERT_EQ(idle.size(), 100u);
  std::this_thread::sleep_for(300ms);
  const auto t0 = std::chrono::steady_clock::now();
  const std::string m = http(port, "GET", "/metrics");
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 2s);
  EXPECT_NE(m.find(" 200 "), std::string::npos) << m.substr(0, 200);
  // Ours (100) and the daemon's (at most the cap, 16), and a few of gRPC's or the scrape's.
  EXPECT_LE(open_fds() - before, 100u + 16u + 8u);
  EXPECT_TRUE(closed_by_server(idle.back())) << "an idle connection was kept past keep_alive_idle";
  for (int fd : idle) ::close(fd);
}

// A TCP connection that sends nothing is cut once grpc_tcp_gate::auth_deadline has passed.
TEST_F(DaemonConnectionCaps, AnUnauthenticatedTcpConnectionIsCutAtTheDeadline) {
  const int fd = idle_connection(daemon_->tcp_port());
  ASSERT_GE(fd, 0);
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(closed_by_server(fd));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 25s);
  ::close(fd);
}

// An authenticated TCP client keeps its connection while unauthenticated ones flood past the cap,
// and a new client gets in during the flood.
TEST_F(DaemonConnectionCaps, UnauthenticatedFloodsDoNotPushOutAuthenticatedClients) {
  client_options o;
  o.target = "127.0.0.1:" + std::to_string(daemon_->tcp_port());
  o.token = "caps-token";
  auto first = client::connect(o);
  ASSERT_THAT(first, IsOk());
  pb::GetStatusResponse st;
  ASSERT_TRUE(first->stub().GetStatus(first->context(5s).get(), {}, &st).ok());
  std::vector<int> idle;
  for (int i = 0; i < 50; ++i) {
    if (const int fd = idle_connection(daemon_->tcp_port()); fd >= 0) idle.push_back(fd);
  }
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(first->channel().GetState(false), GRPC_CHANNEL_READY) << "the authenticated connection was cut";
  EXPECT_TRUE(first->stub().GetStatus(first->context(5s).get(), {}, &st).ok());
  auto second = client::connect(o);
  ASSERT_THAT(second, IsOk());
  EXPECT_TRUE(second->stub().GetStatus(second->context(5s).get(), {}, &st).ok());
  // The flood's oldest connections made room: they were cut, not kept.
  EXPECT_TRUE(closed_by_server(idle.front()));
  for (int fd : idle) ::close(fd);
}

// Caps the descriptor limit cannot cover stop the start, naming LimitNOFILE.
TEST(FdHeadroom, CapsBeyondTheLimitRefuseToStart) {
  server_config cfg = testing::cpu_daemon_config(testing::temp_socket("headroom"));
  const fs::path token = test::binary_temp_dir("daemon_faults") / "headroom.token";
  std::ofstream(token) << "t\n";
  cfg.server.listen = "127.0.0.1:0";
  cfg.server.token_file = token.string();
  cfg.server.max_tcp_connections = 65536;
  rlimit r{};
  ASSERT_EQ(::getrlimit(RLIMIT_NOFILE, &r), 0);
  if (r.rlim_max != RLIM_INFINITY && r.rlim_max >= fds_needed(cfg.server)) GTEST_SKIP() << "the hard limit covers the caps";
  auto d = daemon::start(cfg);
  EXPECT_THAT(d, StatusIs(status_code::failed_precondition, ::testing::HasSubstr("LimitNOFILE")));
  EXPECT_EQ(fds_needed(cfg.server), fd_reserve + 2 * 65536u);
}

}  // namespace
}  // namespace pp::server
