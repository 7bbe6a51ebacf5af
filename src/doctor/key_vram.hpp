// key_vram: the plan a configured key would get in one GPU's VRAM budget, as `proofpipe doctor`
// reports it: the CUDA backend's own planning (src/cuda/plan/budget_plan.hpp, which `proofpipe plan`
// prints), run on the key's files read as the engine reads them, with the key's curve's point sizes
// (a snarkjs zkey of either curve). The checks (gpu_checks.cpp) take
// the planner as a parameter, so tests give them plans of every kind.
#pragma once
#include <cstdint>
#include <functional>
#include <string>

#include "server/server_config.hpp"

namespace pp::doctor {

struct key_vram_query {
  const server::key_entry& key;
  uint64_t key_bytes = 0;     // the key's files together (zkey, or params and r1cs)
  uint64_t budget_bytes = 0;  // the GPU's region: free VRAM x gpu_vram_share, capped by gpu_vram_max_mb
  uint32_t lanes = 0;         // workers on the GPU, each with its partition workspace
  uint32_t h_copies = 1;      // engine.gpu_h_copies
};

enum class key_placement {
  resident,  // every table stays in VRAM
  streamed,  // fits, some tables streamed from pinned host memory (slower, docs/perf/vram-budgets.md)
  refused,   // below the least budget the key needs: its first partition on this GPU fails
  unknown,   // the planner cannot tell (the key's files could not be read)
};

struct key_vram_plan {
  key_placement placement = key_placement::unknown;
  uint64_t least_bytes = 0;  // the least budget the key needs; 0 when not known
  std::string summary;       // one line for the report
};

using key_vram_planner = std::function<key_vram_plan(const key_vram_query&)>;

// The backend's plan of the key alone under a budget of q.budget_bytes with q.lanes lanes: resident,
// streamed (with the bytes each partition copies) or refused (with the least budget). Reads the
// key's files whole, as the daemon's first load of it will. unknown, saying why, when they cannot be
// read or do not match.
key_vram_plan plan_key_vram(const key_vram_query& q);

}  // namespace pp::doctor
