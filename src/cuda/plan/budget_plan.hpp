// budget_plan: the plan the CUDA backend (cuda_backend.hpp) makes for one key alone on a GPU whose
// VRAM budget is cfg.max_vram_bytes, made on the host alone: the MSM chunkings cfg allows, the
// region left for the plan (the budget less the pinned mappings' reserve and what the driver takes
// for the kernels), plan_key's plan (key_layout.hpp) and the least budget the key needs.
// cuda_backend::footprint() and the backend's own refusals use these functions, and so does
// `proofpipe plan` (docs/operations.md): what it prints is the backend's plan. Plain C++.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "cuda/plan/backend_config.hpp"
#include "cuda/plan/key_layout.hpp"
#include "cuda/plan/key_sizing.hpp"

namespace pp::cuda {

// The MSM chunkings cfg lets a plan pick (chunking_options under cfg.max_chunk_points).
result<std::vector<msm_chunking>> options_for(const key_shape& s, const cuda_backend_config& cfg);

// The streamed matrices' row chunks cfg asks for: cfg.max_matrix_chunk_bytes alone when set, else
// spmv_tuning's and its wider ones.
matrix_row_chunks matrix_rows_for(const cuda_backend_config& cfg);

// What a VRAM budget keeps for the driver's mappings of cfg.max_pinned_bytes of pinned memory, set
// or not (pin_reserve_bytes: only when set).
uint64_t budget_pin_reserve_bytes(const cuda_backend_config& cfg);

// The least max_vram_bytes under which s has a plan with cfg: least_plan_bytes over opts in whole
// granules of the device region (device_memory::granularity), the pinned mappings' reserve and
// driver_bytes (what the driver holds for the kernels: the device's cuda_backend::driver_bytes(), 0
// before one is opened).
uint64_t least_budget_bytes(const key_shape& s, std::span<const msm_chunking> opts, const cuda_backend_config& cfg,
                            uint64_t driver_bytes);
// The refusal of a key that does not fit: that least, in bytes and MiB, and why (plan_key's message).
std::string least_budget_message(const key_shape& s, std::span<const msm_chunking> opts,
                                 const cuda_backend_config& cfg, uint64_t driver_bytes, const std::string& why);

struct budget_plan {
  uint64_t pin_reserve = 0;   // kept out of the budget for the pinned mappings (pin_reserve_bytes)
  uint64_t driver_bytes = 0;  // kept out of it for the kernels
  uint64_t region = 0;        // what the plan had: the budget less both, in whole granules (UINT64_MAX: no budget)
  uint64_t least_budget = 0;  // least_budget_bytes
  key_plan plan;
};

// The plan of s alone under cfg's budget (cfg.max_vram_bytes, 0: none) with at most cfg.lanes lanes,
// in the region a device with that much free memory takes: resource_exhausted with
// least_budget_message when it does not fit; options_for's errors.
result<budget_plan> plan_for_budget(const key_shape& s, const cuda_backend_config& cfg, uint64_t driver_bytes);

// What plan p of s takes, as cuda_backend::footprint() reports it.
key_footprint footprint_of(const key_shape& s, const key_plan& p);

}  // namespace pp::cuda
