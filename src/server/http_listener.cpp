// http_listener: poll() on the listening socket and a wake pipe; each request is read with a
// 2-second timeout, answered and closed (Connection: close).
#include "server/http_listener.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace pp::server {
namespace {

void send_all(int fd, const std::string& data) {
  size_t off = 0;
  while (off < data.size()) {
    const ssize_t n = ::send(fd, data.data() + off, data.size() - off, MSG_NOSIGNAL);
    if (n <= 0) {
      if (n < 0 && errno == EINTR) continue;
      return;
    }
    off += static_cast<size_t>(n);
  }
}

const char* reason(int code) {
  switch (code) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    default: return "Internal Server Error";
  }
}

}  // namespace

result<std::unique_ptr<http_listener>> http_listener::start(const std::string& host_port,
                                                            std::map<std::string, handler> routes) {
  const size_t colon = host_port.rfind(':');
  if (colon == std::string::npos) return invalid_argument("http listener: expected HOST:PORT, got \"" + host_port + "\"");
  std::string host = host_port.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string port = host_port.substr(colon + 1);
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE;
  addrinfo* res = nullptr;
  if (int e = ::getaddrinfo(host.empty() ? nullptr : host.c_str(), port.c_str(), &hints, &res); e != 0) {
    return invalid_argument("http listener: cannot resolve \"" + host_port + "\": " + gai_strerror(e));
  }
  int fd = -1;
  std::string err = "no address";
  for (addrinfo* a = res; a; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) continue;
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) == 0 && ::listen(fd, 16) == 0) break;
    err = std::strerror(errno);
    ::close(fd);
    fd = -1;
  }
  ::freeaddrinfo(res);
  if (fd < 0) return unavailable("http listener: cannot listen on " + host_port + ": " + err);
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len);
  const uint16_t bound = ss.ss_family == AF_INET6 ? ntohs(reinterpret_cast<sockaddr_in6*>(&ss)->sin6_port)
                                                  : ntohs(reinterpret_cast<sockaddr_in*>(&ss)->sin_port);
  return std::unique_ptr<http_listener>(new http_listener(fd, bound, std::move(routes)));
}

http_listener::http_listener(int fd, uint16_t port, std::map<std::string, handler> routes)
    : listen_fd_(fd), port_(port), routes_(std::move(routes)) {
  if (::pipe2(wake_fd_, O_CLOEXEC) != 0) wake_fd_[0] = wake_fd_[1] = -1;
  thread_ = std::thread([this] { serve(); });
}

http_listener::~http_listener() {
  stop();
  for (int fd : {listen_fd_, wake_fd_[0], wake_fd_[1]}) {
    if (fd >= 0) ::close(fd);
  }
}

void http_listener::stop() {
  if (stopped_.exchange(true)) return;
  if (wake_fd_[1] >= 0) {
    const char c = 0;
    [[maybe_unused]] ssize_t n = ::write(wake_fd_[1], &c, 1);
  }
  if (thread_.joinable()) thread_.join();
}

void http_listener::serve() {
  while (!stopped_.load()) {
    pollfd fds[2] = {{listen_fd_, POLLIN, 0}, {wake_fd_[0], POLLIN, 0}};
    const int n = ::poll(fds, wake_fd_[0] >= 0 ? 2 : 1, 500);
    if (n <= 0) continue;
    if (fds[1].revents) return;
    if (!(fds[0].revents & POLLIN)) continue;
    const int conn = ::accept4(listen_fd_, nullptr, nullptr, SOCK_CLOEXEC);
    if (conn < 0) continue;
    handle(conn);
    ::close(conn);
  }
}

void http_listener::handle(int conn) {
  timeval tv{2, 0};
  ::setsockopt(conn, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  ::setsockopt(conn, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
  std::string req;
  char buf[2048];
  while (req.find("\r\n\r\n") == std::string::npos && req.find("\n\n") == std::string::npos && req.size() < 16384) {
    const ssize_t n = ::recv(conn, buf, sizeof buf, 0);
    if (n <= 0) break;
    req.append(buf, static_cast<size_t>(n));
  }
  http_response r;
  const size_t line_end = req.find_first_of("\r\n");
  const std::string line = req.substr(0, line_end);
  const size_t sp1 = line.find(' ');
  const size_t sp2 = sp1 == std::string::npos ? std::string::npos : line.find(' ', sp1 + 1);
  if (sp1 == std::string::npos) {
    r = {400, "text/plain; charset=utf-8", "bad request\n"};
  } else {
    const std::string method = line.substr(0, sp1);
    std::string path = line.substr(sp1 + 1, sp2 == std::string::npos ? std::string::npos : sp2 - sp1 - 1);
    if (const size_t q = path.find('?'); q != std::string::npos) path.resize(q);
    const auto it = routes_.find(path);
    if (method != "GET" && method != "HEAD") {
      r = {405, "text/plain; charset=utf-8", "only GET\n"};
    } else if (it == routes_.end()) {
      std::string known;
      for (const auto& [p, h] : routes_) known += p + "\n";
      r = {404, "text/plain; charset=utf-8", "not found; endpoints:\n" + known};
    } else {
      r = it->second();
    }
    if (method == "HEAD") r.body.clear();
  }
  std::string out = "HTTP/1.0 " + std::to_string(r.code) + " " + reason(r.code) + "\r\nContent-Type: " + r.content_type +
                    "\r\nContent-Length: " + std::to_string(r.body.size()) + "\r\nConnection: close\r\n\r\n" + r.body;
  send_all(conn, out);
}

}  // namespace pp::server
