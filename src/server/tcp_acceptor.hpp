// tcp_acceptor: a listening TCP socket whose accept loop never gives up. Out of file descriptors
// (EMFILE, ENFILE), accept() says so; the caller cuts a connection it can spare, or shed_one() takes
// the waiting connection with a descriptor kept in reserve and closes it at once, so the listen
// queue keeps moving and the port answers again as soon as descriptors come back. (libgrpc's own
// accept loop stops for good on EMFILE; http_listener and grpc_tcp_gate accept through this.)
#pragma once
#include <cstdint>
#include <string>

#include "core/result.hpp"

namespace pp::server {

class tcp_acceptor {
 public:
  // Binds "HOST:PORT" (port 0: any free port; "[::1]:PORT" for IPv6; empty host: every IPv4
  // address) and listens, non-blocking. invalid_argument for a malformed address, unavailable when
  // the address is unknown or the port taken; `field` names the knob in errors.
  [[nodiscard]] static result<tcp_acceptor> listen(const std::string& host_port, const std::string& field);

  tcp_acceptor(tcp_acceptor&& o) noexcept;
  tcp_acceptor& operator=(tcp_acceptor&& o) noexcept;
  tcp_acceptor(const tcp_acceptor&) = delete;
  tcp_acceptor& operator=(const tcp_acceptor&) = delete;
  ~tcp_acceptor();

  [[nodiscard]] int fd() const { return fd_; }
  [[nodiscard]] uint16_t port() const { return port_; }

  enum class outcome { accepted, none_waiting, out_of_fds, failed };
  struct accepted {
    outcome what = outcome::none_waiting;
    int fd = -1;  // when accepted: non-blocking, close-on-exec, TCP_NODELAY
  };
  // One waiting connection, without blocking.
  [[nodiscard]] accepted accept_one();
  // Out of descriptors with none to spare: takes the oldest waiting connection with the reserve
  // descriptor and closes it (its client sees the connection reset), then re-arms the reserve.
  void shed_one();

 private:
  tcp_acceptor(int fd, uint16_t port);
  void close_all();

  int fd_ = -1;
  int reserve_ = -1;  // /dev/null, held so that one descriptor is always free for shed_one()
  uint16_t port_ = 0;
};

}  // namespace pp::server
