// http_listener: httplib::Server with its own per-connection loop. httplib 0.11 bounds each read by
// a timeout that restarts with every byte; deadline_server replaces the connection loop (the one
// virtual httplib offers for it, as its SSLServer does) with one whose stream also stops at a
// deadline for the whole request, and keeps the open sockets so stop() can cut them.
#include "server/http_listener.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <httplib.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <chrono>
#include <set>

#include "core/mutex.hpp"

namespace pp::server {
namespace {

using clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Scrapes are small (a few KiB) and rare; a scraper answers within milliseconds on a LAN. These
// bound what one client can hold: a pool thread for request_deadline at most.
constexpr unsigned pool_threads = 4;
constexpr milliseconds io_timeout{2000};         // one read or write
constexpr milliseconds request_deadline{5000};   // reading a request and writing its answer, together
constexpr milliseconds keep_alive_idle{5000};    // a kept-alive connection waiting for its next request
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
// a byte at a time through read(), so reads go through a small buffer.
class deadline_stream final : public httplib::Stream {
 public:
  deadline_stream(int fd, clock::time_point deadline) : fd_(fd), deadline_(deadline) {}

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
  clock::time_point deadline_;
  std::array<char, 4096> buf_{};
  size_t off_ = 0, len_ = 0;
};

}  // namespace

class deadline_server final : public httplib::Server {
 public:
  // Cuts every open connection (their threads see EOF at once and return to the pool).
  void cut_connections() {
    mutex_lock lock(mu_);
    for (int fd : open_) ::shutdown(fd, SHUT_RDWR);
  }

 private:
  bool process_and_close_socket(socket_t sock) override {
    {
      mutex_lock lock(mu_);
      open_.insert(sock);
    }
    bool ok = true;
    for (size_t n = 0; n < requests_per_connection && svr_sock_ != INVALID_SOCKET; ++n) {
      if (!wait_for(sock, POLLIN, clock::now() + keep_alive_idle)) break;
      deadline_stream strm(sock, clock::now() + request_deadline);
      bool closed = false;
      ok = process_request(strm, n + 1 == requests_per_connection, closed, nullptr);
      if (!ok || closed) break;
    }
    {
      mutex_lock lock(mu_);
      open_.erase(sock);
    }
    ::shutdown(sock, SHUT_RDWR);
    ::close(sock);
    return ok;
  }

  mutex mu_;
  std::set<int> open_ PP_GUARDED_BY(mu_);  // sockets a pool thread is serving
};

result<std::unique_ptr<http_listener>> http_listener::start(const std::string& host_port,
                                                            std::map<std::string, handler> routes) {
  const size_t colon = host_port.rfind(':');
  if (colon == std::string::npos) return invalid_argument("http listener: expected HOST:PORT, got \"" + host_port + "\"");
  std::string host = host_port.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  if (host.empty()) host = "0.0.0.0";
  const std::string port_text = host_port.substr(colon + 1);
  int port = -1;
  if (!port_text.empty() && port_text.size() <= 5 && port_text.find_first_not_of("0123456789") == std::string::npos) {
    port = std::stoi(port_text);
  }
  if (port < 0 || port > 65535) {
    return invalid_argument("http listener: expected a port number 0..65535 in \"" + host_port + "\"");
  }

  auto server = std::make_unique<deadline_server>();
  server->new_task_queue = [] { return new httplib::ThreadPool(pool_threads); };
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
  int bound = port;
  if (port == 0) {
    bound = server->bind_to_any_port(host);
  } else if (!server->bind_to_port(host, port)) {
    bound = -1;
  }
  if (bound <= 0) return unavailable("http listener: cannot listen on " + host_port + " (address unknown or port taken)");
  return std::unique_ptr<http_listener>(new http_listener(std::move(server), static_cast<uint16_t>(bound)));
}

http_listener::http_listener(std::unique_ptr<deadline_server> server, uint16_t port)
    : server_(std::move(server)), port_(port) {
  thread_ = std::thread([this] {
    server_->listen_after_bind();
    accept_loop_ended_ = true;
  });
}

http_listener::~http_listener() { stop(); }

void http_listener::stop() {
  if (!thread_.joinable()) return;
  // httplib's stop() does nothing until the accept loop has marked itself running, which it does
  // first thing; wait for that (or for a loop that already ended on an accept error).
  while (!server_->is_running() && !accept_loop_ended_) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  server_->stop();
  server_->cut_connections();
  thread_.join();
}

}  // namespace pp::server
