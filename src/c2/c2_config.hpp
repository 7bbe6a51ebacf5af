// c2_config: what libproofpipe_c2 takes from the daemon's TOML file (server/server_config.hpp), named
// by the environment variable PROOFPIPE_C2_CONFIG (read once, at the ABI edge); defaults without it.
// Used: engine.backend, engine.host_memory_mb, engine.host_memory_margin_mb, engine.key_memory_fraction.
#pragma once
#include <cstdint>
#include <string>

#include "core/result.hpp"
#include "server/server_config.hpp"

namespace pp::c2 {

inline constexpr const char* config_env = "PROOFPIPE_C2_CONFIG";

struct c2_config {
  // Bytes the loaded parameters files may occupy together (the key store's budget).
  uint64_t key_budget_bytes = 0;
  // Always verify each proof before returning it: the ABI has no way to say otherwise.
  bool self_verify = true;
};

// From the daemon's configuration: the key budget is key_memory_fraction of host_memory_mb (or of
// the cgroup / MemTotal limit minus host_memory_margin_mb when 0). invalid_argument when
// engine.backend asks for cuda: this library proves on the CPU backend.
result<c2_config> c2_config_from(const server::server_config& sc);

// c2_config_from(load_server_config(path)), or the defaults when path is empty.
result<c2_config> load_c2_config(const std::string& path);

}  // namespace pp::c2
