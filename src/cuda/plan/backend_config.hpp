// backend_config: the CUDA backend's settings (cuda_backend_config) and what a key takes on it
// (key_footprint). Plain C++ apart from the backend (cuda_backend.hpp), so that the plan on the host
// (budget_plan.hpp, `proofpipe plan`, the doctor) reads the same settings without linking it.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "core/result.hpp"

namespace pp::cuda {

// The most lanes a backend takes (cuda_backend_config::lanes, `proofpipe plan --lanes`): every lane
// pins a staging buffer of staging_bytes, so the bound caps what a configuration can page-lock.
inline constexpr uint32_t max_lanes = 16;

struct cuda_backend_config {
  int device = 0;
  // The device region: vram_share of the free memory at create(), capped at max_vram_bytes (0: no cap).
  double vram_share = 0.9;
  uint64_t max_vram_bytes = 0;
  // Pinned host staging for the packed witness (pack_witness fails with resource_exhausted, naming
  // the size it needs, when a witness does not fit). PoRep's 2^27 witness packs into ~0.5 GiB.
  uint64_t staging_bytes = uint64_t{512} << 20;
  // Partitions in flight at once (the engine's workers per GPU); each lane costs one staging buffer,
  // and the region gets up to this many partition workspaces (as many as its plan fits), shared by its keys.
  uint32_t lanes = 2;
  // Cap on the G1 points per MSM chunk (G2: half) the plan may choose (0: the tuning's 2^25):
  // tests force many streamed chunks on small keys with it.
  uint64_t max_chunk_points = 0;
  // Bytes of a streamed matrices' row chunk at most (0: spmv_tuning's 256 MiB, or its 512 MiB where
  // the plan's lane holds them; at least 512): tests force many chunks on small circuits with it,
  // `bench --porep --matrix-chunk-mib` compares sizes. Set, it is the only chunking.
  uint64_t max_matrix_chunk_bytes = 0;
  // Page-lock streamed tables (and the streamed matrices' image) for full-speed copies; false streams
  // them from pageable memory, as a host that refuses to pin does (benchmarks measure that path).
  bool pin_streamed = true;
  // Host memory this backend may page-lock for the streamed tables and matrices of the keys it
  // holds (whoever sets it counts it in the host's memory budget); a table beyond it streams from
  // pageable memory, with a warning. The driver's mappings of page-locked memory take device memory
  // outside the region (pin_mapping_bytes: 2 MiB per GiB), so a budget (max_vram_bytes) is taken
  // that much smaller (pin_reserve_bytes) and the process stays inside it. 0: no cap, no reserve.
  // 64 GiB: one 2^27 PoRep key streamed whole (44 GiB of points, 4.5 GiB of matrices).
  uint64_t max_pinned_bytes = uint64_t{64} << 30;
  // Most copies of H's points (counting the points: 1 = none) a key alone on this GPU with every
  // table resident keeps where memory is left beside the lanes: precomputed bases of H's MSM
  // (cuda/msm/msm_precompute.hpp), made at key upload. Each copy costs H's table again (12 GiB at 2^27)
  // and its making at upload; what they give per count: docs/perf/msm-h200.md (precomputed bases).
  uint32_t h_copies = 1;
  // A measurement aid: host-to-device copies of partitions (witness uploads, streamed key chunks and
  // matrix rows) held to this rate in bytes/s, as on a slower link (link_pacer.hpp); 0: the link's own.
  // Key uploads are not paced (a key's load is reported apart from its partitions).
  double h2d_cap_bytes_per_s = 0;
};

// The part of a budget kept for the driver's mappings of pinned memory (0 without a budget).
uint64_t pin_reserve_bytes(const cuda_backend_config& cfg);

// Device memory one (key, circuit) takes on this backend, as planned.
struct key_footprint {
  uint64_t points_bytes = 0;     // the resident ones of H, L, A, B_G1, B_G2 (affine points; H with its copies)
  uint64_t streamed_bytes = 0;   // the streamed ones: copied to the device in every partition
  uint64_t matrices_bytes = 0;   // compact CSR of A, B, C (streamed: only their coefficient tables)
  bool matrices_streamed = false;  // their rows copied to the device in every partition (in streamed_bytes)
  uint64_t tables_bytes = 0;     // NTT twiddles, coset / shift tables, density index lists
  uint64_t partition_bytes = 0;  // witness (+ its upload workspace), a/b/c, filtered scalars, MSM scratch
  uint64_t msm_workspace_bytes = 0;  // the largest of the five MSMs' workspaces (part of partition_bytes)
  uint32_t lanes = 1;                 // partition workspaces (at most one per lane)
  bool shared_workspaces = false;     // they are another key's (a guest of its region): not counted here
  std::string plan;                   // which tables are resident, chunks, lanes (for logs)
  [[nodiscard]] uint64_t resident_bytes() const { return points_bytes + matrices_bytes + tables_bytes; }
  [[nodiscard]] uint64_t total_bytes() const {
    return resident_bytes() + (shared_workspaces ? 0 : uint64_t{lanes} * partition_bytes);
  }
};

// Charges host memory the backend takes for a key beyond the key's own vectors to whoever owns the
// host budget (cuda_backend::set_host_charge): the token it returns is held while the key is placed.
using host_charge_fn = std::function<result<std::shared_ptr<void>>(uint64_t bytes)>;

}  // namespace pp::cuda
