// grpc_tcp_gate: the accept loop of the gRPC TCP port, in place of libgrpc's, which stops accepting
// for good once the process runs out of file descriptors (while /status still says healthy). It
// accepts through tcp_acceptor (never gives up on EMFILE) and hands each connection to the gRPC
// server (AddInsecureChannelFromFd), keeping a duplicate of its descriptor only to see the
// connection end (gRPC shuts the socket down before closing it) and to cut it (shutdown(2) on the
// duplicate ends the socket for gRPC too). Before its first call with the bearer token (reported
// by proof_service through authenticated()) a connection is anyone's: it is cut after
// auth_deadline, and at max_connections the oldest such connection is cut to admit a new one, so
// idle or unauthenticated clients can neither hold the port nor push out authenticated ones. When
// every connection has authenticated, a new one is refused. An authenticated connection without
// calls is closed by gRPC after the daemon's idle limit (GRPC_ARG_MAX_CONNECTION_IDLE_MS,
// daemon.cpp).
#pragma once
#include <chrono>
#include <cstdint>
#include <memory>
#include <string_view>

#include <grpcpp/server.h>

#include "server/tcp_acceptor.hpp"

namespace pp::server {

class grpc_tcp_watch;

class grpc_tcp_gate {
 public:
  static constexpr std::chrono::seconds auth_deadline{10};

  // Starts accepting on `acceptor` for `server` (already started).
  [[nodiscard]] static std::unique_ptr<grpc_tcp_gate> start(grpc::Server& server, tcp_acceptor acceptor,
                                                            uint32_t max_connections);
  ~grpc_tcp_gate();
  grpc_tcp_gate(const grpc_tcp_gate&) = delete;
  grpc_tcp_gate& operator=(const grpc_tcp_gate&) = delete;

  [[nodiscard]] uint16_t port() const;
  // A call on `peer` (grpc::ServerContext::peer(), "fd:N" for a connection this gate handed over)
  // carried the bearer token. Thread-safe.
  void authenticated(std::string_view peer);
  // Stops accepting (connections already handed over stay gRPC's). Idempotent.
  void stop();

 private:
  explicit grpc_tcp_gate(std::unique_ptr<grpc_tcp_watch> watch);
  std::unique_ptr<grpc_tcp_watch> watch_;
};

}  // namespace pp::server
