// grpc_tcp_gate: one thread polls the listening socket, a wake-up pipe and the duplicates; the
// connection table is shared with gRPC's threads (authenticated()) under one mutex.
#include "server/grpc_tcp_gate.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <grpcpp/server_posix.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <thread>
#include <vector>

#include "core/log.hpp"
#include "core/mutex.hpp"
#include "core/thread_annotations.hpp"

namespace pp::server {
namespace {

using clock = std::chrono::steady_clock;

struct handed_over {
  int watch = -1;  // our duplicate of gRPC's descriptor
  clock::time_point accepted{};
  bool authenticated = false;
};

}  // namespace

class grpc_tcp_watch {
 public:
  grpc_tcp_watch(grpc::Server& server, tcp_acceptor acceptor, uint32_t max_connections)
      : server_(server), acceptor_(std::move(acceptor)), max_connections_(max_connections) {
    if (::pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) wake_[0] = wake_[1] = -1;
    thread_ = std::thread([this] { run(); });
  }
  ~grpc_tcp_watch() { stop(); }

  uint16_t port() const { return acceptor_.port(); }

  void authenticated(std::string_view peer) {
    int fd = -1;
    if (!peer.starts_with("fd:")) return;
    const std::string_view n = peer.substr(3);
    if (std::from_chars(n.data(), n.data() + n.size(), fd).ec != std::errc()) return;
    mutex_lock lock(mu_);
    if (auto it = conns_.find(fd); it != conns_.end()) it->second.authenticated = true;
  }

  void stop() {
    {
      mutex_lock lock(mu_);
      if (stopping_) return;
      stopping_ = true;
    }
    const char b = 1;
    [[maybe_unused]] const ssize_t n = wake_[1] >= 0 ? ::write(wake_[1], &b, 1) : 0;
    thread_.join();
    mutex_lock lock(mu_);
    for (auto& [fd, c] : conns_) ::close(c.watch);
    conns_.clear();
    if (wake_[0] >= 0) ::close(wake_[0]);
    if (wake_[1] >= 0) ::close(wake_[1]);
  }

 private:
  void run() {
    std::vector<pollfd> fds;
    std::vector<int> owners;  // fds[i + 2] watches owners[i]
    while (true) {
      auto next = clock::now() + grpc_tcp_gate::auth_deadline;
      fds.assign({{wake_[0], POLLIN, 0}, {acceptor_.fd(), POLLIN, 0}});
      owners.clear();
      {
        mutex_lock lock(mu_);
        if (stopping_) return;
        for (const auto& [fd, c] : conns_) {
          fds.push_back({c.watch, POLLRDHUP, 0});
          owners.push_back(fd);
          if (!c.authenticated) next = std::min(next, c.accepted + grpc_tcp_gate::auth_deadline);
        }
      }
      const int timeout = static_cast<int>(std::max<int64_t>(
          0, std::chrono::ceil<std::chrono::milliseconds>(next - clock::now()).count()));
      if (::poll(fds.data(), fds.size(), timeout) < 0) {
        // EINTR, or ENOMEM: look again (the gate must not end while the daemon serves).
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
        continue;
      }
      if (fds[0].revents != 0) {
        char drain[64];
        while (::read(wake_[0], drain, sizeof drain) > 0) {
        }
      }
      {
        mutex_lock lock(mu_);
        const auto now = clock::now();
        for (size_t i = 0; i < owners.size(); ++i) {
          auto it = conns_.find(owners[i]);
          if (it == conns_.end()) continue;
          if (fds[i + 2].revents != 0) {
            forget(it);  // ended: gRPC closed it, or the peer hung up
          } else if (!it->second.authenticated && now >= it->second.accepted + grpc_tcp_gate::auth_deadline) {
            cut(it);
          }
        }
      }
      if (fds[1].revents != 0) accept_waiting();
    }
  }

  void accept_waiting() {
    while (true) {
      const tcp_acceptor::accepted a = acceptor_.accept_one();
      if (a.what == tcp_acceptor::outcome::accepted) {
        admit(a.fd);
        continue;
      }
      if (a.what == tcp_acceptor::outcome::out_of_fds) {
        mutex_lock lock(mu_);
        if (cut_oldest_unauthenticated()) continue;
        lock.unlock();
        acceptor_.shed_one();
        warn("out of file descriptors; a new connection was closed (see LimitNOFILE)");
      }
      return;
    }
  }

  void admit(int fd) {
    {
      mutex_lock lock(mu_);
      if (conns_.size() >= max_connections_ && !cut_oldest_unauthenticated()) {
        lock.unlock();
        ::close(fd);
        warn("every one of server.max_tcp_connections is authenticated; a new connection was refused");
        return;
      }
      const int watch = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
      if (watch < 0) {
        lock.unlock();
        ::close(fd);
        warn("out of file descriptors; a new connection was closed (see LimitNOFILE)");
        return;
      }
      // A descriptor number seen before: gRPC closed that connection before its end reached poll().
      if (auto stale = conns_.find(fd); stale != conns_.end()) forget(stale);
      conns_[fd] = {watch, clock::now(), false};
    }
    grpc::AddInsecureChannelFromFd(&server_, fd);
  }

  bool cut_oldest_unauthenticated() PP_REQUIRES(mu_) {
    auto oldest = conns_.end();
    for (auto it = conns_.begin(); it != conns_.end(); ++it) {
      if (!it->second.authenticated && (oldest == conns_.end() || it->second.accepted < oldest->second.accepted)) {
        oldest = it;
      }
    }
    if (oldest == conns_.end()) return false;
    cut(oldest);
    return true;
  }

  void cut(std::map<int, handed_over>::iterator it) PP_REQUIRES(mu_) {
    ::shutdown(it->second.watch, SHUT_RDWR);  // the socket, so gRPC's descriptor sees it end too
    forget(it);
  }
  void forget(std::map<int, handed_over>::iterator it) PP_REQUIRES(mu_) {
    ::close(it->second.watch);
    conns_.erase(it);
  }

  void warn(const char* what) {
    const auto now = clock::now();
    if (now - last_warning_ < std::chrono::seconds(10)) return;
    last_warning_ = now;
    log::get("server")->warn("grpc tcp: {}", what);
  }

  grpc::Server& server_;
  tcp_acceptor acceptor_;
  const uint32_t max_connections_;
  int wake_[2] = {-1, -1};
  clock::time_point last_warning_{};  // gate thread only

  mutex mu_;
  bool stopping_ PP_GUARDED_BY(mu_) = false;
  std::map<int, handed_over> conns_ PP_GUARDED_BY(mu_);  // by gRPC's descriptor
  std::thread thread_;  // last: starts once the members above exist
};

std::unique_ptr<grpc_tcp_gate> grpc_tcp_gate::start(grpc::Server& server, tcp_acceptor acceptor,
                                                    uint32_t max_connections) {
  return std::unique_ptr<grpc_tcp_gate>(
      new grpc_tcp_gate(std::make_unique<grpc_tcp_watch>(server, std::move(acceptor), max_connections)));
}

grpc_tcp_gate::grpc_tcp_gate(std::unique_ptr<grpc_tcp_watch> watch) : watch_(std::move(watch)) {}
grpc_tcp_gate::~grpc_tcp_gate() { stop(); }
uint16_t grpc_tcp_gate::port() const { return watch_->port(); }
void grpc_tcp_gate::authenticated(std::string_view peer) { watch_->authenticated(peer); }
void grpc_tcp_gate::stop() { watch_->stop(); }

}  // namespace pp::server
