// cub_temp_model.hpp: CUB's temp-storage sizes from its allocation code and tunings
// (docs/cub-temp-model.md says where each constant comes from).
#include "cuda/plan/cub_temp_model.hpp"

#include <algorithm>
#include <cassert>
#include <initializer_list>

namespace pp::cuda {
namespace {

uint64_t ceil_div(uint64_t a, uint64_t b) { return (a + b - 1) / b; }

// detail::AliasTemporaries' size for one blob: every allocation rounded up to 256 bytes, plus 255
// for rounding the blob's own start up to 256.
uint64_t alias_temporaries(std::initializer_list<uint64_t> sizes) {
  uint64_t bytes = 255;
  for (const uint64_t s : sizes) bytes += ceil_div(s, 256) * 256;
  return bytes;
}

// Shared memory a block may take before CUB moves its storage to global memory (max_smem_per_block).
constexpr uint64_t max_smem_per_block = 48 * 1024;

}  // namespace

const char* to_string(cub_arch a) {
  switch (a) {
    case cub_arch::sm80: return "sm80";
    case cub_arch::sm86: return "sm86";
    case cub_arch::sm90: return "sm90";
    case cub_arch::sm100: return "sm100";
  }
  return "?";
}

std::optional<cub_arch> cub_arch_for_ptx(int ptx_version) {
  if (ptx_version >= 1000) return cub_arch::sm100;
  if (ptx_version >= 900) return cub_arch::sm90;
  if (ptx_version >= 860) return cub_arch::sm86;
  if (ptx_version >= 800) return cub_arch::sm80;
  return std::nullopt;
}

// Onesweep policies for 32-bit keys, 32-bit values and 32-bit offsets: Policy800's 384 threads x 21
// items, OnesweepSmallKeyTunedPolicy's OnesweepPolicyKey32 (Policy900, Policy1000) 384 x 23.
uint64_t cub_onesweep_tile_items(cub_arch a) {
  return a == cub_arch::sm80 || a == cub_arch::sm86 ? 384 * 21 : 384 * 23;
}

cub_select_agent cub_select_agent_for(cub_arch a, cub_select_kind k, uint64_t item_bytes) {
  switch (k) {
    case cub_select_kind::flagged_u32:
      switch (a) {
        case cub_arch::sm80: return {320 * 10, 0};   // sm80_tuning, flagged, 4-byte input
        case cub_arch::sm86: return {128 * 10, 0};   // DefaultPolicy: 10 items of 4 bytes
        case cub_arch::sm90: return {384 * 15, 0};   // sm90_tuning
        case cub_arch::sm100: return {512 * 14, 0};  // sm100_tuning, may_alias::no
      }
      break;
    case cub_select_kind::if_index:
      switch (a) {
        case cub_arch::sm80: return {256 * 18, 0};
        case cub_arch::sm86: return {128 * 10, 0};
        case cub_arch::sm90: return {384 * 17, 0};
        case cub_arch::sm100: return {384 * 15, 0};
      }
      break;
    case cub_select_kind::flagged_struct: {
      // No tuning for a non-primitive item on any architecture: DefaultPolicy, 128 threads of one
      // item. The agent's storage is then its scan storage, led by BlockDiscontinuity's two items a
      // thread, plus under 128 bytes (block scan and prefix storage); over 48 KiB CUB tries the
      // fallback policy of 64 threads, and where that does not fit either it keeps 128 threads and
      // gives each block its storage in global memory, rounded up to 128 bytes.
      assert(item_bytes % 8 == 0 && item_bytes > 20);
      if (2 * 128 * item_bytes < max_smem_per_block) return {128, 0};
      if (2 * 64 * item_bytes < max_smem_per_block) return {64, 0};
      return {128, 2 * 128 * item_bytes + 128};
    }
  }
  return {};
}

// DispatchRadixSort::Invoke: one block (temp 1 byte) up to the single-tile size, else InvokeOnesweep
// (is_overwrite_okay: no extra key or value buffers) over portions of under 2^28 items.
uint64_t cub_sort_pairs_temp_bytes(cub_arch a, uint64_t items, int key_bits) {
  if (items == 0 || key_bits <= 0 || items <= cub_single_tile_sort_items) return 1;
  constexpr uint64_t radix_digits = 256;  // ONESWEEP_RADIX_BITS = 8
  const uint64_t tile = cub_onesweep_tile_items(a);
  const uint64_t portion = ((uint64_t{1} << 28) - 1) / tile * tile;
  const uint64_t passes = ceil_div(uint64_t(key_bits), 8);
  const uint64_t portions = ceil_div(items, portion);
  const uint64_t blocks = ceil_div(std::min(items, portion), tile);
  return alias_temporaries({portions * passes * radix_digits * 4,  // bins
                            blocks * radix_digits * 4,              // lookback
                            0, 0,                                   // no extra key / value buffers
                            portions * passes * 4});                // counters
}

// DispatchSelectIf::Invoke with one partition (items below 2^31 - 1): the tile states (ScanTileState
// of int32: an 8-byte word per tile and per warp thread of padding, itself an aliased blob) and each
// tile's virtual shared memory.
uint64_t cub_select_temp_bytes(cub_arch a, cub_select_kind k, uint64_t items, uint64_t item_bytes) {
  const cub_select_agent agent = cub_select_agent_for(a, k, item_bytes);
  const uint64_t tiles = ceil_div(items, agent.tile_items);
  const uint64_t tile_states = alias_temporaries({(32 + tiles) * 8, 0, 0});
  return alias_temporaries({tile_states, tiles * agent.vsmem_per_block, 0});
}

}  // namespace pp::cuda
