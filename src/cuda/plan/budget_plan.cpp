// budget_plan.hpp: one key's plan under a VRAM budget, with the backend's reserves, on the host.
#include "cuda/plan/budget_plan.hpp"

#include <limits>

#include "core/status_macros.hpp"
#include "cuda/plan/key_sizing.hpp"
#include "cuda/plan/spmv_tuning.hpp"
#include "cuda/runtime/device_memory.hpp"
#include "cuda/runtime/pinned_host.hpp"

namespace pp::cuda {

result<std::vector<msm_chunking>> options_for(const key_shape& s, const cuda_backend_config& cfg) {
  return chunking_options(s, cfg.max_chunk_points);
}

matrix_row_chunks matrix_rows_for(const cuda_backend_config& cfg) {
  if (cfg.max_matrix_chunk_bytes != 0) return {cfg.max_matrix_chunk_bytes, cfg.max_matrix_chunk_bytes};
  return {spmv_tuning_sm90.stream_chunk_bytes, spmv_tuning_sm90.wide_stream_chunk_bytes};
}

uint64_t budget_pin_reserve_bytes(const cuda_backend_config& cfg) {
  if (cfg.max_pinned_bytes == 0) return 0;
  constexpr uint64_t granule = device_memory::granularity;
  return (pin_mapping_bytes(cfg.max_pinned_bytes) + granule - 1) / granule * granule;
}

uint64_t pin_reserve_bytes(const cuda_backend_config& cfg) {
  return cfg.max_vram_bytes == 0 ? 0 : budget_pin_reserve_bytes(cfg);
}

uint64_t least_budget_bytes(const key_shape& s, std::span<const msm_chunking> opts, const cuda_backend_config& cfg,
                            uint64_t driver_bytes) {
  constexpr uint64_t granule = device_memory::granularity;
  const uint64_t region = (least_plan_bytes(s, opts) + granule - 1) / granule * granule;
  return region + budget_pin_reserve_bytes(cfg) + driver_bytes;
}

std::string least_budget_message(const key_shape& s, std::span<const msm_chunking> opts,
                                 const cuda_backend_config& cfg, uint64_t driver_bytes, const std::string& why) {
  const uint64_t least = least_budget_bytes(s, opts, cfg, driver_bytes);
  return "cuda_backend: the key needs a VRAM budget of at least " + std::to_string(least) + " bytes (" +
         std::to_string(least >> 20) + " MiB, " + std::to_string(budget_pin_reserve_bytes(cfg)) +
         " of them kept for the driver's mappings of pinned memory and " + std::to_string(driver_bytes) +
         " taken by the driver for the kernels): " + why;
}

result<budget_plan> plan_for_budget(const key_shape& s, const cuda_backend_config& cfg, uint64_t driver_bytes) {
  PP_ASSIGN_OR_RETURN(const std::vector<msm_chunking> options, options_for(s, cfg));
  budget_plan b;
  b.pin_reserve = pin_reserve_bytes(cfg);
  b.driver_bytes = driver_bytes;
  b.least_budget = least_budget_bytes(s, options, cfg, driver_bytes);
  // The device region takes what the budget leaves in whole granules (device_memory).
  const uint64_t kept = b.pin_reserve + driver_bytes;
  constexpr uint64_t granule = device_memory::granularity;
  b.region = cfg.max_vram_bytes == 0    ? std::numeric_limits<uint64_t>::max()
             : cfg.max_vram_bytes > kept ? (cfg.max_vram_bytes - kept) / granule * granule
                                         : 0;
  auto plan = plan_key(s, options, b.region, cfg.lanes);
  if (!plan.ok()) {
    if (plan.error().code() != status_code::resource_exhausted) return plan.error();
    return resource_exhausted(least_budget_message(s, options, cfg, driver_bytes, plan.error().message()));
  }
  b.plan = *plan;
  return b;
}

key_footprint footprint_of(const key_shape& s, const key_plan& p) {
  key_footprint f;
  for (int t = 0; t < key_table_count; ++t) {
    if (p.resident[t]) f.points_bytes += p.resident_table_bytes(s, t);
  }
  f.streamed_bytes = p.streamed_bytes(s);
  f.matrices_bytes = pad256(p.matrices_resident ? s.matrices_bytes : s.matrix_tables_bytes);
  f.matrices_streamed = !p.matrices_resident;
  f.tables_bytes = pad256(s.qap_bytes) + pad256(s.a_index_bytes) + pad256(s.b_index_bytes);
  f.partition_bytes = p.lane.bytes;
  f.msm_workspace_bytes = p.msm.workspace_bytes;
  f.lanes = p.lanes;
  f.shared_workspaces = p.guest;
  f.plan = p.to_string(s);
  return f;
}

}  // namespace pp::cuda
