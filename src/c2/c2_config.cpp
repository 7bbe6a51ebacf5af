#include "c2/c2_config.hpp"

#include "core/status_macros.hpp"
#include "engine/host_memory_limit.hpp"

namespace pp::c2 {

result<c2_config> c2_config_from(const server::server_config& sc) {
  const server::engine_section& e = sc.engine;
  uint64_t host = e.host_memory_mb << 20;
  if (host == 0) {
    PP_ASSIGN_OR_RETURN(const engine::host_memory_limit lim,
                        engine::read_host_memory_limit({}, e.host_memory_margin_mb << 20));
    host = lim.usable;
  }
  c2_config c;
  c.key_budget_bytes = static_cast<uint64_t>(static_cast<double>(host) * e.key_memory_fraction);
  c.backend = e.backend;
  constexpr uint64_t mib = uint64_t{1} << 20;
  c.gpu.ordinals = e.gpus;
  c.gpu.vram_share = e.gpu_vram_share;
  c.gpu.max_vram_bytes = e.gpu_vram_max_mb * mib;
  c.gpu.staging_bytes = e.gpu_staging_mb * mib;
  c.gpu.lanes = e.workers_per_device != 0 ? e.workers_per_device : c.gpu.lanes;
  return c;
}

result<c2_config> load_c2_config(const std::string& path) {
  if (path.empty()) return c2_config_from(server::server_config{});
  PP_ASSIGN_OR_RETURN(const server::server_config sc, server::load_server_config(path));
  auto c = c2_config_from(sc);
  if (!c.ok()) return std::move(c).take_status().with_context(path);
  return c;
}

}  // namespace pp::c2
