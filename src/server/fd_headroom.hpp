// fd_headroom: the file descriptors the daemon may hold, checked at start against what its
// connection caps can take, so a flood of connections up to the caps leaves descriptors for
// everything else (unix-socket clients, keys and witnesses being read, PostgreSQL, devices, logs).
#pragma once
#include <cstdint>

#include "core/result.hpp"
#include "server/server_config.hpp"

namespace pp::server {

// Descriptors kept for everything but the TCP and HTTP connections.
inline constexpr uint64_t fd_reserve = 256;

// What the caps of `c` need: max_http_connections (when http is on), 2 x max_tcp_connections
// (when listen is on: gRPC's descriptor and the gate's duplicate of it), plus fd_reserve.
[[nodiscard]] uint64_t fds_needed(const listen_config& c);

// Raises the soft RLIMIT_NOFILE to the hard limit (a service's usual start-up, as Go's runtime
// does) and returns the limit now in force; failed_precondition when it is below `needed`, naming
// both and how to raise it.
[[nodiscard]] result<uint64_t> ensure_fd_headroom(uint64_t needed);

}  // namespace pp::server
