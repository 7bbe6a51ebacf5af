// cub_temp_model: the temp storage CUB asks for in the GPU MSM's size queries (msm_run.cuh,
// query_cub_temp), computed on the host. CUB's own queries need a device (they read the PTX version
// of the code that would run); the VRAM plan (key_layout.hpp) and `proofpipe plan` must not. The
// formulas and tunings are CCCL 3.0.1's (CUDA 13.0) for the policies it picks on sm_80 to sm_120,
// derived in docs/cub-temp-model.md; tests/cuda/cub_temp_model_cub_test.cu checks them against CUB's
// own types on any host with nvcc, cub_temp_model_gpu_test.cu against its queries on a device.
// Plain C++.
#pragma once
#include <cstdint>
#include <optional>

namespace pp::cuda {

// The CCCL release (CUB_VERSION) the tunings below come from: the tests fail on another, which may
// tune differently.
inline constexpr int cub_model_version = 300001;

// The tuning policies CUB picks by the PTX version of the code that runs (a device runs the newest
// architecture of the build that it can). Radix sort: Policy800 for sm80 and sm86, Policy900 and
// Policy1000 (the same onesweep tile for 32-bit keys) for sm90 and sm100. Select: Policy800 (sm80),
// Policy860 (sm86: sm_86 and sm_89), Policy900 (sm90), Policy1000 (sm100: sm_100 and sm_120).
enum class cub_arch { sm80, sm86, sm90, sm100 };
inline constexpr cub_arch cub_archs[] = {cub_arch::sm80, cub_arch::sm86, cub_arch::sm90, cub_arch::sm100};
const char* to_string(cub_arch a);

// The family of code compiled for PTX version ptx_version (cub::PtxVersion: 900 for sm_90); none
// below 800 (the backend builds for sm_80 and later).
std::optional<cub_arch> cub_arch_for_ptx(int ptx_version);

// Items one thread block of each algorithm takes (a tile), and the global memory a block of the
// select agent takes as virtual shared memory (CUB's vsmem: its shared storage is above 48 KiB).
uint64_t cub_onesweep_tile_items(cub_arch a);
inline constexpr uint64_t cub_single_tile_sort_items = 256 * 19;  // up to this many, one block sorts
enum class cub_select_kind {
  flagged_u32,     // DeviceSelect::Flagged over uint32_t items, uint8_t flags
  flagged_struct,  // the same over a non-primitive item (the MSM's XYZZ buckets)
  if_index,        // DeviceSelect::If over a counting_iterator<uint32_t> into uint32_t
};
struct cub_select_agent {
  uint64_t tile_items = 0;
  uint64_t vsmem_per_block = 0;
};
// item_bytes: flagged_struct's item size, a multiple of 8 above 20 (one item a thread); ignored else.
cub_select_agent cub_select_agent_for(cub_arch a, cub_select_kind k, uint64_t item_bytes = 0);

// temp_storage_bytes of the MSM's queries, `items` < 2^31 (their int item count):
// DeviceRadixSort::SortPairs over uint32_t keys and values, bits [0, key_bits) (key_bits <= 32).
uint64_t cub_sort_pairs_temp_bytes(cub_arch a, uint64_t items, int key_bits);
// DeviceSelect::Flagged / If of kind k (item_bytes as cub_select_agent_for).
uint64_t cub_select_temp_bytes(cub_arch a, cub_select_kind k, uint64_t items, uint64_t item_bytes = 0);

}  // namespace pp::cuda
