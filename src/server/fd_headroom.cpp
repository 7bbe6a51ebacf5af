// fd_headroom: getrlimit/setrlimit(RLIMIT_NOFILE).
#include "server/fd_headroom.hpp"

#include <sys/resource.h>

#include <string>

namespace pp::server {

uint64_t fds_needed(const listen_config& c) {
  uint64_t n = fd_reserve;
  if (!c.http.empty()) n += c.max_http_connections;
  if (!c.listen.empty()) n += 2 * uint64_t{c.max_tcp_connections};
  return n;
}

result<uint64_t> ensure_fd_headroom(uint64_t needed) {
  rlimit r{};
  if (::getrlimit(RLIMIT_NOFILE, &r) != 0) return unavailable("getrlimit(RLIMIT_NOFILE) failed");
  if (r.rlim_cur < r.rlim_max) {
    rlimit raised = r;
    raised.rlim_cur = r.rlim_max;
    if (::setrlimit(RLIMIT_NOFILE, &raised) == 0) r = raised;
  }
  const uint64_t have = r.rlim_cur == RLIM_INFINITY ? UINT64_MAX : static_cast<uint64_t>(r.rlim_cur);
  if (have >= needed) return have;
  return failed_precondition(
      "file descriptors: the limit is " + std::to_string(have) + " (hard limit included), the connection caps need " +
      std::to_string(needed) + " (server.max_http_connections + 2 x server.max_tcp_connections + " +
      std::to_string(fd_reserve) + "); raise LimitNOFILE in the systemd unit (or ulimit -n), or lower the caps");
}

}  // namespace pp::server
