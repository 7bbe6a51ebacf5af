// key_vram: the plan a configured key would get in one GPU's VRAM budget, as `proofpipe doctor`
// reports it. THE SEAM: estimate_key_vram is a simple stand-in, and is the one function to replace
// once the backend's own planning (src/cuda/key_layout.hpp, which `proofpipe plan` is being built
// on) can be called from here: it knows which of the key's tables stay resident, which stream from
// pinned host memory, and the least budget the key needs; the stand-in only compares the budget with
// the key's files' size. The checks (gpu_checks.cpp) take the planner as a parameter, so tests give
// them plans of every kind.
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
};

enum class key_placement {
  resident,  // every table stays in VRAM
  streamed,  // fits, some tables streamed from pinned host memory (slower, docs/perf/vram-budgets.md)
  refused,   // below the least budget the key needs: its first partition on this GPU fails
  unknown,   // the planner cannot tell
};

struct key_vram_plan {
  key_placement placement = key_placement::unknown;
  uint64_t least_bytes = 0;  // the least budget the key needs; 0 when not known
  std::string summary;       // one line for the report
};

using key_vram_planner = std::function<key_vram_plan(const key_vram_query&)>;

// The stand-in: resident when the budget holds the key's files' size (an estimate: the backend's
// tables, matrices and the lanes' workspaces are not counted), else unknown (the key would stream,
// or be refused below its least budget, which only the backend's planning knows).
key_vram_plan estimate_key_vram(const key_vram_query& q);

}  // namespace pp::doctor
