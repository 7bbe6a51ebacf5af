// http_listener: a minimal HTTP/1.0 GET server for the daemon's monitoring endpoints (/metrics in
// Prometheus text, /status in JSON). One thread, one connection at a time with short timeouts:
// scrapes are small and rare, and nothing here may stall the prover.
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

class http_listener {
 public:
  using handler = std::function<http_response()>;

  // Binds "HOST:PORT" (port 0: any free port) and starts serving `routes` (exact paths, GET only).
  [[nodiscard]] static result<std::unique_ptr<http_listener>> start(const std::string& host_port,
                                                                    std::map<std::string, handler> routes);
  ~http_listener();
  http_listener(const http_listener&) = delete;
  http_listener& operator=(const http_listener&) = delete;

  uint16_t port() const { return port_; }
  void stop();

 private:
  http_listener(int fd, uint16_t port, std::map<std::string, handler> routes);
  void serve();
  void handle(int conn);

  int listen_fd_ = -1;
  int wake_fd_[2] = {-1, -1};
  uint16_t port_ = 0;
  std::map<std::string, handler> routes_;
  std::thread thread_;
  std::atomic<bool> stopped_{false};
};

}  // namespace pp::server
