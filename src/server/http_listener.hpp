// http_listener: the daemon's monitoring endpoints (/metrics in Prometheus text, /status in JSON),
// served to anyone who can reach the port (no authentication), so no client may hold what a scrape
// needs. A gate thread accepts (tcp_acceptor: never stops on EMFILE) and holds every connection
// that is waiting for its first or next request in one poll() set, without a thread: a connection
// idle for keep_alive_idle is closed, and past max_connections the longest-waiting idle one is
// closed to admit the new one. Only a connection with request bytes waiting goes to the small pool
// that parses and answers it (cpp-httplib's request handling), under a deadline for the whole
// request, and comes back to the gate afterwards. So hundreds of idle or trickling clients cost a
// descriptor each, up to the cap, and never delay a scrape by more than one request's deadline.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "core/result.hpp"

namespace pp::server {

struct http_response {
  int code = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
};

class http_gate;

class http_listener {
 public:
  using handler = std::function<http_response()>;

  // Scrapes are small (a few KiB) and rare; a scraper answers within milliseconds on a LAN.
  static constexpr std::chrono::milliseconds keep_alive_idle{5000};  // waiting for a first or next request
  static constexpr std::chrono::milliseconds request_deadline{5000};  // reading a request and writing its answer

  // Binds "HOST:PORT" (port 0: any free port; "[::1]:PORT" for IPv6) and starts serving `routes`
  // (exact paths; GET, and HEAD with the same headers and no body) to at most max_connections
  // connections at once.
  [[nodiscard]] static result<std::unique_ptr<http_listener>> start(const std::string& host_port,
                                                                    std::map<std::string, handler> routes,
                                                                    uint32_t max_connections);
  ~http_listener();
  http_listener(const http_listener&) = delete;
  http_listener& operator=(const http_listener&) = delete;

  uint16_t port() const;
  // Stops accepting, cuts open connections and joins every thread. Idempotent.
  void stop();

 private:
  explicit http_listener(std::unique_ptr<http_gate> gate);
  std::unique_ptr<http_gate> gate_;
};

}  // namespace pp::server
