// http_listener: the daemon's monitoring endpoints (/metrics in Prometheus text, /status in JSON)
// over cpp-httplib (Debian's libcpp-httplib-dev): a small thread pool, keep-alive, per-read and
// per-write timeouts, and a whole-request deadline, so a client that trickles its request a byte at
// a time holds one pool thread for at most the deadline and never blocks a scrape by itself.
#pragma once
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "core/result.hpp"

namespace pp::server {

struct http_response {
  int code = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

class deadline_server;

class http_listener {
 public:
  using handler = std::function<http_response()>;

  // Binds "HOST:PORT" (port 0: any free port; "[::1]:PORT" for IPv6) and starts serving `routes`
  // (exact paths; GET, and HEAD with the same headers and no body).
  [[nodiscard]] static result<std::unique_ptr<http_listener>> start(const std::string& host_port,
                                                                    std::map<std::string, handler> routes);
  ~http_listener();
  http_listener(const http_listener&) = delete;
  http_listener& operator=(const http_listener&) = delete;

  uint16_t port() const { return port_; }
  // Stops accepting, cuts open connections and joins every thread. Idempotent.
  void stop();

 private:
  http_listener(std::unique_ptr<deadline_server> server, uint16_t port);

  std::unique_ptr<deadline_server> server_;
  uint16_t port_ = 0;
  std::atomic<bool> accept_loop_ended_{false};
  std::thread thread_;  // runs the accept loop
};

}  // namespace pp::server
