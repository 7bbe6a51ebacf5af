// http_listener: httplib::Server for routing and request parsing only (its process_request, the
// hook its SSLServer uses too); accepting, keep-alive and the thread pool are http_gate's, because
// httplib 0.11's own loop gives every accepted connection a pool thread for as long as it is idle
// and queues the rest without bound (200 idle connections delayed a scrape by 99 s).
#include "server/http_listener.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <httplib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <condition_variable>
#include <deque>
#include <set>
#include <thread>
#include <vector>

#include "core/log.hpp"
#include "core/mutex.hpp"
#include "core/thread_annotations.hpp"
#include "server/tcp_acceptor.hpp"

namespace pp::server {
namespace {

using clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

constexpr unsigned pool_threads = 4;             // requests being answered at once
constexpr milliseconds io_timeout{2000};         // one read or write
constexpr size_t requests_per_connection = 100;  // then the connection is closed

// Waits for `events` on fd until min(now + io_timeout, deadline); false on timeout, error or hang-up.
bool wait_for(int fd, short events, clock::time_point deadline) {
  while (true) {
    const auto left = std::min<clock::duration>(io_timeout, deadline - clock::now());
    if (left <= clock::duration::zero()) return false;
    pollfd p{fd, events, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::chrono::ceil<milliseconds>(left).count()));
    if (n < 0 && errno == EINTR) continue;
    return n > 0 && (p.revents & events) != 0;
  }
}

void address_of(int fd, bool peer, std::string& ip, int& port) {
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  auto* sa = reinterpret_cast<sockaddr*>(&ss);
  if ((peer ? ::getpeername(fd, sa, &len) : ::getsockname(fd, sa, &len)) != 0) return;
  char buf[INET6_ADDRSTRLEN] = {};
  if (ss.ss_family == AF_INET6) {
    const auto* a = reinterpret_cast<const sockaddr_in6*>(&ss);
    ::inet_ntop(AF_INET6, &a->sin6_addr, buf, sizeof buf);
    port = ntohs(a->sin6_port);
  } else if (ss.ss_family == AF_INET) {
    const auto* a = reinterpret_cast<const sockaddr_in*>(&ss);
    ::inet_ntop(AF_INET, &a->sin_addr, buf, sizeof buf);
    port = ntohs(a->sin_port);
  }
  ip = buf;
}

// A socket stream whose every read and write also stops at one deadline. httplib reads requests
// a byte at a time through read(), so reads go through a small buffer; bytes of a next request
// already read (a pipelining client) stay in it for the next request on the same stream.
class deadline_stream final : public httplib::Stream {
 public:
  explicit deadline_stream(int fd) : fd_(fd) {}

  void set_deadline(clock::time_point deadline) { deadline_ = deadline; }
  bool has_buffered() const { return off_ < len_; }

  bool is_readable() const override { return wait_for(fd_, POLLIN, deadline_); }
  bool is_writable() const override { return wait_for(fd_, POLLOUT, deadline_); }

  ssize_t read(char* ptr, size_t size) override {
    if (off_ == len_) {
      if (!is_readable()) return -1;
      ssize_t n;
      do {
        n = ::recv(fd_, buf_.data(), buf_.size(), 0);
      } while (n < 0 && errno == EINTR);
      if (n <= 0) return n;
      off_ = 0;
      len_ = static_cast<size_t>(n);
    }
    const size_t k = std::min(size, len_ - off_);
    std::copy_n(buf_.data() + off_, k, ptr);
    off_ += k;
    return static_cast<ssize_t>(k);
  }

  ssize_t write(const char* ptr, size_t size) override {
    if (!is_writable()) return -1;
    ssize_t n;
    do {
      n = ::send(fd_, ptr, size, MSG_NOSIGNAL);
    } while (n < 0 && errno == EINTR);
    return n;
  }

  void get_remote_ip_and_port(std::string& ip, int& port) const override { address_of(fd_, true, ip, port); }
  void get_local_ip_and_port(std::string& ip, int& port) const override { address_of(fd_, false, ip, port); }
  socket_t socket() const override { return fd_; }

 private:
  int fd_;
  clock::time_point deadline_{};
  std::array<char, 4096> buf_{};
  size_t off_ = 0, len_ = 0;
};

// httplib's routing and request handling, called on one stream at a time.
class request_server final : public httplib::Server {
 public:
  // One request: false when the connection is to be closed (an error, "Connection: close", the last).
  bool serve(deadline_stream& strm, bool last) {
    bool closed = false;
    return process_request(strm, last, closed, nullptr) && !closed && !last;
  }
};

struct connection {
  int fd = -1;
  size_t served = 0;              // requests answered on it
  clock::time_point idle_since{};  // when it began waiting for its next request
};

}  // namespace

class http_gate {
 public:
  http_gate(tcp_acceptor acceptor, std::unique_ptr<request_server> server, uint32_t max_connections)
      : acceptor_(std::move(acceptor)), server_(std::move(server)), max_connections_(max_connections) {
    if (::pipe2(wake_, O_CLOEXEC | O_NONBLOCK) != 0) wake_[0] = wake_[1] = -1;
    for (unsigned i = 0; i < pool_threads; ++i) workers_.emplace_back([this] { work(); });
    gate_ = std::thread([this] { run_gate(); });
  }
  ~http_gate() { stop(); }

  uint16_t port() const { return acceptor_.port(); }

  void stop() {
    {
      mutex_lock lock(mu_);
      if (stopping_) return;
      stopping_ = true;
      for (int fd : busy_) ::shutdown(fd, SHUT_RDWR);  // their workers see EOF at once
      cv_.notify_all();
    }
    wake();
    gate_.join();
    for (auto& t : workers_) t.join();
    mutex_lock lock(mu_);
    for (const connection& c : ready_) ::close(c.fd);
    for (const connection& c : returned_) ::close(c.fd);
    ready_.clear();
    returned_.clear();
    if (wake_[0] >= 0) ::close(wake_[0]);
    if (wake_[1] >= 0) ::close(wake_[1]);
  }

 private:
  void wake() {
    const char b = 1;
    // A full pipe means a wake-up is pending already.
    [[maybe_unused]] const ssize_t n = wake_[1] >= 0 ? ::write(wake_[1], &b, 1) : 0;
  }

  // The gate thread: owns the idle connections (waiting for a request) and the acceptor.
  void run_gate() {
    std::vector<connection> idle;  // oldest first
    std::vector<pollfd> fds;
    while (true) {
      size_t elsewhere = 0;  // connections the pool holds
      {
        mutex_lock lock(mu_);
        if (stopping_) break;
        for (connection& c : returned_) {
          c.idle_since = clock::now();
          idle.push_back(c);
        }
        returned_.clear();
        elsewhere = ready_.size() + busy_.size();
      }
      const auto now = clock::now();
      auto next = now + http_listener::keep_alive_idle;
      fds.assign({{wake_[0], POLLIN, 0}, {acceptor_.fd(), POLLIN, 0}});
      for (const connection& c : idle) {
        fds.push_back({c.fd, POLLIN, 0});
        next = std::min(next, c.idle_since + http_listener::keep_alive_idle);
      }
      const int timeout = static_cast<int>(std::max<int64_t>(
          0, std::chrono::ceil<milliseconds>(next - now).count()));
      if (::poll(fds.data(), fds.size(), timeout) < 0) {
        // EINTR, or ENOMEM: look again (the gate must not end while the daemon serves).
        std::this_thread::sleep_for(milliseconds(10));
        continue;
      }
      if (fds[0].revents != 0) {
        char drain[64];
        while (::read(wake_[0], drain, sizeof drain) > 0) {
        }
      }
      // Requests waiting go to the pool; connections idle past the deadline are closed.
      const auto after = clock::now();
      std::vector<connection> kept;
      kept.reserve(idle.size());
      for (size_t i = 0; i < idle.size(); ++i) {
        if (fds[i + 2].revents != 0) {
          dispatch(idle[i]);
          ++elsewhere;
        } else if (after >= idle[i].idle_since + http_listener::keep_alive_idle) {
          ::close(idle[i].fd);
        } else {
          kept.push_back(idle[i]);
        }
      }
      idle.swap(kept);
      if (fds[1].revents != 0) accept_waiting(idle, elsewhere);
    }
    for (const connection& c : idle) ::close(c.fd);
  }

  // Takes every waiting connection. At the cap the longest-idle connection makes room (a flood of
  // idle clients churns through the cap; a scraper's connection, which sends its request at once,
  // reaches the pool first); when the pool holds them all, the new one is closed.
  void accept_waiting(std::vector<connection>& idle, size_t elsewhere) {
    while (true) {
      const tcp_acceptor::accepted a = acceptor_.accept_one();
      if (a.what == tcp_acceptor::outcome::accepted) {
        if (idle.size() + elsewhere >= max_connections_) {
          if (idle.empty()) {
            ::close(a.fd);
            continue;
          }
          ::close(idle.front().fd);
          idle.erase(idle.begin());
        }
        idle.push_back({a.fd, 0, clock::now()});
        continue;
      }
      if (a.what == tcp_acceptor::outcome::out_of_fds) {
        if (!idle.empty()) {
          ::close(idle.front().fd);
          idle.erase(idle.begin());
          continue;
        }
        acceptor_.shed_one();
        warn_out_of_fds();
      }
      return;  // none waiting, or a failure poll() reports again
    }
  }

  void warn_out_of_fds() {
    const auto now = clock::now();
    if (now - last_warning_ < std::chrono::seconds(10)) return;
    last_warning_ = now;
    log::get("server")->warn("http: out of file descriptors; a new connection was closed (see LimitNOFILE)");
  }

  void dispatch(const connection& c) {
    mutex_lock lock(mu_);
    ready_.push_back(c);
    cv_.notify_one();
  }

  // A pool thread: answers the requests waiting on a connection, then gives it back to the gate.
  void work() {
    while (true) {
      connection c;
      {
        mutex_lock lock(mu_);
        lock.wait(cv_, [this]() PP_REQUIRES(mu_) { return stopping_ || !ready_.empty(); });
        if (stopping_) return;
        c = ready_.front();
        ready_.pop_front();
        busy_.insert(c.fd);
      }
      deadline_stream strm(c.fd);
      bool keep = true;
      do {
        strm.set_deadline(clock::now() + http_listener::request_deadline);
        keep = server_->serve(strm, ++c.served >= requests_per_connection);
      } while (keep && strm.has_buffered());
      mutex_lock lock(mu_);
      busy_.erase(c.fd);
      if (keep && !stopping_) {
        returned_.push_back(c);
        lock.unlock();
        wake();
      } else {
        ::shutdown(c.fd, SHUT_RDWR);
        ::close(c.fd);
      }
    }
  }

  tcp_acceptor acceptor_;
  const std::unique_ptr<request_server> server_;
  const uint32_t max_connections_;
  int wake_[2] = {-1, -1};  // a byte written here wakes the gate's poll()
  clock::time_point last_warning_{};  // gate thread only

  mutex mu_;
  std::condition_variable cv_;  // ready_ grew, or stopping_
  bool stopping_ PP_GUARDED_BY(mu_) = false;
  std::deque<connection> ready_ PP_GUARDED_BY(mu_);      // a request waits on each: for the pool
  std::vector<connection> returned_ PP_GUARDED_BY(mu_);  // answered, kept alive: for the gate
  std::set<int> busy_ PP_GUARDED_BY(mu_);                // being answered (cut by stop())
  std::vector<std::thread> workers_;
  std::thread gate_;  // last: starts once the members above exist
};

result<std::unique_ptr<http_listener>> http_listener::start(const std::string& host_port,
                                                            std::map<std::string, handler> routes,
                                                            uint32_t max_connections) {
  auto acceptor = tcp_acceptor::listen(host_port, "http listener");
  if (!acceptor.ok()) return acceptor.error();
  auto server = std::make_unique<request_server>();
  auto known = std::make_shared<std::string>();
  for (const auto& [path, h] : routes) {
    *known += path + "\n";
    // Exact paths: httplib matches regexes, so the path is escaped.
    std::string pattern;
    for (char c : path) {
      if (std::string_view("\\^$.|?*+()[]{}").find(c) != std::string_view::npos) pattern += '\\';
      pattern += c;
    }
    // A named copy: clang 14 cannot capture a structured binding.
    server->Get(pattern, [handler = h](const httplib::Request&, httplib::Response& res) {
      http_response r = handler();
      res.status = r.code;
      res.set_content(std::move(r.body), r.content_type.c_str());
    });
  }
  server->set_error_handler([known](const httplib::Request&, httplib::Response& res) {
    if (res.status == 404) res.set_content("not found; endpoints:\n" + *known, "text/plain; charset=utf-8");
  });
  // A handler that throws answers 500 without the exception's text (httplib's default puts it in
  // a header); nothing escapes a pool thread.
  server->set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    res.status = 500;
    res.set_content("internal error\n", "text/plain; charset=utf-8");
  });
  return std::unique_ptr<http_listener>(
      new http_listener(std::make_unique<http_gate>(std::move(acceptor).value(), std::move(server), max_connections)));
}

http_listener::http_listener(std::unique_ptr<http_gate> gate) : gate_(std::move(gate)) {}

http_listener::~http_listener() { stop(); }

uint16_t http_listener::port() const { return gate_->port(); }

void http_listener::stop() { gate_->stop(); }

}  // namespace pp::server
