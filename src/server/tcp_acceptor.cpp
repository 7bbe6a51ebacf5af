// tcp_acceptor: getaddrinfo + bind + listen, accept4 with SOCK_NONBLOCK | SOCK_CLOEXEC.
#include "server/tcp_acceptor.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <utility>

namespace pp::server {
namespace {

constexpr int backlog = 1024;

int open_reserve() { return ::open("/dev/null", O_RDONLY | O_CLOEXEC); }

}  // namespace

result<tcp_acceptor> tcp_acceptor::listen(const std::string& host_port, const std::string& field) {
  const size_t colon = host_port.rfind(':');
  if (colon == std::string::npos) return invalid_argument(field + ": expected HOST:PORT, got \"" + host_port + "\"");
  std::string host = host_port.substr(0, colon);
  if (host.size() >= 2 && host.front() == '[' && host.back() == ']') host = host.substr(1, host.size() - 2);
  const std::string port = host_port.substr(colon + 1);
  if (port.empty() || port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos ||
      std::stoi(port) > 65535) {
    return invalid_argument(field + ": expected a port number 0..65535 in \"" + host_port + "\"");
  }
  addrinfo hints{};
  hints.ai_family = host.empty() ? AF_INET : AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (const int e = ::getaddrinfo(host.empty() ? nullptr : host.c_str(), port.c_str(), &hints, &found); e != 0) {
    return unavailable(field + ": cannot resolve \"" + host_port + "\": " + ::gai_strerror(e));
  }
  std::string why = "no address";
  int fd = -1;
  for (addrinfo* a = found; a != nullptr && fd < 0; a = a->ai_next) {
    fd = ::socket(a->ai_family, a->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC, a->ai_protocol);
    if (fd < 0) {
      why = std::strerror(errno);
      continue;
    }
    const int one = 1;
    ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (::bind(fd, a->ai_addr, a->ai_addrlen) != 0 || ::listen(fd, backlog) != 0) {
      why = std::strerror(errno);
      ::close(fd);
      fd = -1;
    }
  }
  ::freeaddrinfo(found);
  if (fd < 0) return unavailable(field + ": cannot listen on " + host_port + ": " + why);
  sockaddr_storage ss{};
  socklen_t len = sizeof ss;
  ::getsockname(fd, reinterpret_cast<sockaddr*>(&ss), &len);
  const uint16_t bound = ss.ss_family == AF_INET6 ? ntohs(reinterpret_cast<const sockaddr_in6*>(&ss)->sin6_port)
                                                  : ntohs(reinterpret_cast<const sockaddr_in*>(&ss)->sin_port);
  return tcp_acceptor(fd, bound);
}

tcp_acceptor::tcp_acceptor(int fd, uint16_t port) : fd_(fd), reserve_(open_reserve()), port_(port) {}

tcp_acceptor::tcp_acceptor(tcp_acceptor&& o) noexcept
    : fd_(std::exchange(o.fd_, -1)), reserve_(std::exchange(o.reserve_, -1)), port_(o.port_) {}

tcp_acceptor& tcp_acceptor::operator=(tcp_acceptor&& o) noexcept {
  if (this != &o) {
    close_all();
    fd_ = std::exchange(o.fd_, -1);
    reserve_ = std::exchange(o.reserve_, -1);
    port_ = o.port_;
  }
  return *this;
}

tcp_acceptor::~tcp_acceptor() { close_all(); }

void tcp_acceptor::close_all() {
  if (fd_ >= 0) ::close(std::exchange(fd_, -1));
  if (reserve_ >= 0) ::close(std::exchange(reserve_, -1));
}

tcp_acceptor::accepted tcp_acceptor::accept_one() {
  while (true) {
    const int c = ::accept4(fd_, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (c >= 0) {
      const int one = 1;
      ::setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
      return {outcome::accepted, c};
    }
    switch (errno) {
      case EINTR:
      case ECONNABORTED:  // the client gave up while waiting: take the next one
        continue;
      case EAGAIN: return {outcome::none_waiting, -1};
      case EMFILE:
      case ENFILE:
      case ENOBUFS:
      case ENOMEM: return {outcome::out_of_fds, -1};
      default: return {outcome::failed, -1};
    }
  }
}

void tcp_acceptor::shed_one() {
  if (reserve_ >= 0) ::close(std::exchange(reserve_, -1));
  const int c = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
  if (c >= 0) ::close(c);
  reserve_ = open_reserve();
}

}  // namespace pp::server
