// c2_config: what libproofpipe_c2 takes from the daemon's TOML file (server/server_config.hpp), named
// by the environment variable PROOFPIPE_C2_CONFIG (read once, at the ABI edge); defaults without it.
// Used: engine.backend, engine.host_memory_mb, engine.host_memory_margin_mb, engine.key_memory_fraction,
// and for the GPUs engine.gpus, gpu_vram_share, gpu_vram_max_mb, gpu_staging_mb, gpu_h_copies,
// workers_per_device.
#pragma once
#include <cstdint>
#include <string>

#include "core/result.hpp"
#include "devices/gpu_devices.hpp"
#include "server/server_config.hpp"

namespace pp::c2 {

inline constexpr const char* config_env = "PROOFPIPE_C2_CONFIG";

struct c2_config {
  // Bytes the loaded parameters files may occupy together (the key store's budget).
  uint64_t key_budget_bytes = 0;
  // Always verify each proof before returning it: the ABI has no way to say otherwise.
  bool self_verify = true;
  // engine.backend: "auto" (every GPU's lanes when a GPU is present, else the CPU), "cpu" or "cuda"
  // (the GPUs; every call fails, saying why, when there are none).
  std::string backend = "auto";
  // The GPUs and their lanes (workers_per_device 0: 2 per GPU), as the daemon sizes them.
  devices::gpu_device_options gpu;
};

// From the daemon's configuration: the key budget is key_memory_fraction of host_memory_mb (or of
// the cgroup / MemTotal limit minus host_memory_margin_mb when 0).
result<c2_config> c2_config_from(const server::server_config& sc);

// c2_config_from(load_server_config(path)), or the defaults when path is empty.
result<c2_config> load_c2_config(const std::string& path);

}  // namespace pp::c2
