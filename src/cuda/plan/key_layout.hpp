// key_layout: where one (key, circuit) lives in a CUDA backend's device region, planned under a VRAM
// budget before anything is allocated. Pure host arithmetic (tests/cuda/key_layout_test.cpp runs it
// without a GPU); key_sizing.hpp fills key_shape and the MSM chunkings from the key's sizes, the
// backend carves the region at the plan's offsets. Plain C++.
//
// Resident: the NTT tables and the density index lists, always; the compact matrices when they fit
// (else only their coefficient tables, the rows streamed through two matrix slots per lane during
// the SpMV); each of the five point tables (H, L, A, B_G1, B_G2) when it fits, else streamed from
// pinned host memory through two chunk slots per lane (up to msm_max_point_slots where the budget
// has room). Several keys share one region (plan_region): the key with the largest workspace owns
// the lanes' workspaces, the others keep only their resident part and lay their own lane layout
// inside those. A lane's workspace is laid out by phase: the witness and the MSM scalars (a, later
// h, later the gathered A and B scalars) live throughout; b and c (H phase; one buffer in turns for
// streamed monomial keys) share their memory with the packed-witness workspace (upload) and with
// the MSM workspace and slots (MSM phase).
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "cuda/plan/msm_plan.hpp"
#include "cuda/plan/msm_workspace.hpp"

namespace pp::cuda {

enum key_table : int { table_h, table_l, table_a, table_b_g1, table_b_g2, key_table_count };
inline constexpr const char* key_table_names[key_table_count] = {"H", "L", "A", "B_G1", "B_G2"};

inline constexpr uint64_t layout_alignment = 256;
constexpr uint64_t pad256(uint64_t b) { return (b + layout_alignment - 1) / layout_alignment * layout_alignment; }

// One MSM chunking the backend can run: the points per pass and the largest workspace of the five MSMs
// (msm_workspace.hpp) with it, streamed. Options are tried largest chunks first.
struct msm_chunking {
  uint64_t g1_chunk = 0, g2_chunk = 0;
  // With every table streamed; in a plan (key_plan::msm) the plan's, workspace_for its residency.
  uint64_t workspace_bytes = 0;
  // A table whose MSM needs more when its points are resident (a split MSM of few enough chunks
  // selects over all its points at once: msm_shape::select_all): that workspace, else 0.
  std::array<uint64_t, key_table_count> resident_workspace{};
};

// The MSM workspace of a plan with these tables resident: the streamed one, or a resident table's
// larger one.
uint64_t workspace_for(const msm_chunking& m, const std::array<bool, key_table_count>& resident);

// The compact matrices cut into row chunks of at most chunk_bytes (make_spmv_chunking), as they
// stream through a lane's two matrix slots.
struct streamed_rows {
  uint64_t chunk_bytes = 0;  // the most a row chunk may take
  uint64_t slot_bytes = 0;   // the largest row chunk: a matrix slot's size
  uint64_t image_bytes = 0;  // all row chunks: copied per partition when streamed
};

// What the plan needs to know of a (key, circuit), in bytes unless a count.
struct key_shape {
  uint64_t n = 0;                                // domain size
  uint64_t nv = 0;                               // witness variables
  std::array<uint64_t, key_table_count> points{};  // points per table
  std::array<uint64_t, key_table_count> point_bytes{};  // bytes of one point (BLS12-381: G1 96, G2 192)
  msm_group g1 = msm_g1, g2 = msm_g2;                   // the key's curve's groups (BN254's or BLS12-381's)
  uint64_t matrices_bytes = 0;                   // compact A, B, C
  uint64_t matrix_tables_bytes = 0;              // their coefficient tables (resident when streamed)
  streamed_rows rows;       // slot_bytes 0: the matrices cannot stream
  // Wider row chunks, which plan_key takes where the lane holds their slots anyway (all 0: none).
  streamed_rows wide_rows;
  uint64_t qap_bytes = 0;                        // NTT (and coset shift) tables
  uint64_t a_index_bytes = 0, b_index_bytes = 0;  // density index lists (0 when unfiltered)
  uint64_t witness_ws_bytes = 0;                 // packed-witness upload workspace
  bool h_in_turns = false;  // H can be computed with one buffer besides a (monomial basis)
  // Most copies of H's points (precomputed MSM bases, cuda/msm/msm_precompute.hpp; the points themselves
  // count as one) the plan may keep resident where memory is left: 1, none (the operator's choice,
  // cuda_backend_config::h_copies).
  uint32_t h_copies_max = 1;
  static constexpr uint64_t fr_bytes = 32;
  [[nodiscard]] uint64_t table_bytes(int t) const { return points[t] * point_bytes[t]; }
};

struct lane_layout {  // offsets inside one lane's workspace
  uint64_t w = 0, scalars = 0, phase = 0;  // witness, MSM scalars (a -> h -> A / B scalars), phase region
  uint64_t b = 0, c = 0;                   // H phase (inside the phase region; c = b in turns)
  uint64_t mslot[2] = {0, 0};              // streamed matrix rows (H phase, after b and c)
  uint64_t witness_ws = 0;                 // upload (inside the phase region)
  uint64_t msm_ws = 0;                     // MSM phase (inside the phase region)
  uint64_t slot[msm_max_point_slots] = {};  // the point slots, at the phase region's end
  int slots = msm_min_point_slots;          // point slots in use
  uint64_t bytes = 0;
  // The point slots lie past everything the SpMV and H steps use (b, c, the matrix slots): a
  // partition's first chunks may be copied while its H is computed, not only once b and c are dead.
  bool slots_clear_of_h = false;
};

struct key_plan {
  std::array<bool, key_table_count> resident{};
  bool matrices_resident = true;  // else their rows stream through the lane's matrix slots
  msm_chunking msm;
  uint64_t slot_bytes = 0;  // each of a lane's streaming slots (0 when every table is resident)
  uint64_t matrix_slot_bytes = 0;  // each of a lane's two matrix slots (0 when the matrices are resident)
  bool wide_matrix_rows = false;   // the streamed matrices in the shape's wider row chunks
  bool h_in_turns = false;  // b and c share one buffer (streamed plans of monomial keys)
  uint32_t lanes = 0;       // partition workspaces (a guest: those of its region's host key)
  bool guest = false;       // runs in another key's workspaces (plan_region): only the resident part is its own
  // Copies of H's points resident (the points themselves count as one; H resident): the H table
  // holds h_copies x its points. More than one only in a plan with every table resident, alone in
  // its region, in the memory the lanes leave (plan_key).
  uint32_t h_copies = 1;
  // Offsets from the key's base in the region.
  std::array<uint64_t, key_table_count> table_offset{};  // resident tables only
  uint64_t matrices_offset = 0;  // the compact matrices, or only their tables when streamed
  uint64_t qap_offset = 0, a_index_offset = 0, b_index_offset = 0;
  uint64_t resident_bytes = 0;  // everything above
  lane_layout lane;
  [[nodiscard]] uint64_t lane_offset(uint32_t i) const { return resident_bytes + uint64_t{i} * lane.bytes; }
  // Device bytes table t takes when resident: its points (H's with its copies), 256-aligned.
  [[nodiscard]] uint64_t resident_table_bytes(const key_shape& s, int t) const {
    return pad256(s.table_bytes(t) * (t == table_h ? h_copies : 1));
  }
  [[nodiscard]] uint64_t total_bytes() const { return resident_bytes + (guest ? 0 : uint64_t{lanes} * lane.bytes); }
  [[nodiscard]] bool streams() const {
    if (!matrices_resident) return true;
    for (bool r : resident) {
      if (!r) return true;
    }
    return false;
  }
  // The streamed matrices' row chunks, at most this many bytes each, and all of them (0, 0: resident).
  [[nodiscard]] uint64_t matrix_chunk_bytes(const key_shape& s) const {
    return matrices_resident ? 0 : (wide_matrix_rows ? s.wide_rows : s.rows).chunk_bytes;
  }
  [[nodiscard]] uint64_t matrix_image_bytes(const key_shape& s) const {
    return matrices_resident ? 0 : (wide_matrix_rows ? s.wide_rows : s.rows).image_bytes;
  }
  // Bytes copied to the device per partition besides the witness (streamed tables and matrices).
  [[nodiscard]] uint64_t streamed_bytes(const key_shape& s) const;
  [[nodiscard]] std::string to_string(const key_shape& s) const;
};

// The lane layout for a chunking and the streamed tables; h_in_turns: one buffer for b and c;
// matrix_slot_bytes: each matrix slot (0 when the matrices are resident); slots: point slots
// (msm_min_point_slots to msm_max_point_slots).
lane_layout make_lane_layout(const key_shape& s, const msm_chunking& m, uint64_t slot_bytes, bool h_in_turns,
                             uint64_t matrix_slot_bytes = 0, int slots = msm_min_point_slots);
// Slot size for a chunking: the largest chunk of any streamed table.
uint64_t slot_bytes_for(const key_shape& s, const msm_chunking& m, const std::array<bool, key_table_count>& resident);

// The plan of one key inside `budget` bytes with at most max_lanes lanes (>= 1):
// - every table resident with options[0] (the default chunking) and as many lanes as fit, when one
//   lane fits: the plan of an unlimited budget;
// - else the largest chunking whose all-streamed plan with resident matrices fits one lane (b and c
//   in turns when the key allows it); then tables made resident while they fit (L, A, B_G1, B_G2, H:
//   the ones whose copies take longest against their MSMs first), then more lanes while they fit;
// - the same with the matrices streamed too (when the shape allows it: matrix_slot_bytes > 0) when
//   no plan with resident matrices fits, or when that one's G1 chunks are below
//   stream_matrices_below_g1_chunk and streaming the matrices makes room for larger ones;
// - point_slots_before_residency point slots per lane before any table is made resident (where one
//   lane fits with them), and after the lanes more while every lane still fits (up to
//   msm_max_point_slots): the copies run further ahead of the MSMs that are bound by them.
// - with every table resident, copies of H's points (up to s.h_copies_max, counting the points)
//   while they fit beside the lanes;
// - with the matrices streamed, the shape's wider row chunks where the lane's bytes and its point
//   slots' place stay as they are (its phase region holds the wider matrix slots anyway): nothing
//   else in the plan changes, and the least budget stays the narrow chunks'.
// resource_exhausted naming the smallest budget that would do, when even the smallest chunking
// streaming every table and the matrices does not fit one lane. options: at least one, largest chunks first.
result<key_plan> plan_key(const key_shape& s, std::span<const msm_chunking> options, uint64_t budget,
                          uint32_t max_lanes);

// Point slots a streaming plan keeps before it makes tables resident (where one lane fits with them;
// more are added after, while they fit): at 2^27 under 24 GiB a third and fourth slot save more
// than keeping B_G1 resident would (docs/perf/vram-budgets.md, "Carried buckets and point slots").
inline constexpr int point_slots_before_residency = 3;

// Below this many G1 points per chunk, H's per-chunk passes cost more than streaming the compact
// matrices: at 2^27 on the H200, 2^23-point chunks against 2^24 cost H +149 ms and L, A, B_G2
// +166 ms, the streamed matrices +61 ms (docs/perf/vram-budgets.md, "Streamed matrices").
inline constexpr uint64_t stream_matrices_below_g1_chunk = uint64_t{1} << 24;

// The least budget any plan of s fits (one lane, every table streamed with the smallest chunking,
// the matrices streamed where that takes less): what plan_key's refusal names.
uint64_t least_plan_bytes(const key_shape& s, std::span<const msm_chunking> options);

// A guest key's plan: its resident part inside resident_budget bytes, its lane layout inside
// lane_cap bytes (the host key's workspace), the fastest that fits: matrices resident first, then
// the largest chunking, a, b, c at once before b and c in turns, then tables made resident while
// they fit (as plan_key). resource_exhausted when even the all-streamed one does not. The plan has
// guest set and lanes 0 (the caller sets the host's).
result<key_plan> plan_guest_key(const key_shape& s, std::span<const msm_chunking> options,
                                uint64_t resident_budget, uint64_t lane_cap);

// Several keys in one region (a GPU serving a PoRep key and a WindowPoSt key). The host, the key
// whose smallest possible workspace is the largest, is planned by plan_key in the budget less
// what the others need at the least (every table and, where possible, the matrices streamed);
// then each other key, in order, by plan_guest_key in what is left, inside the host's workspace.
// Layout: the host's resident part, the lanes' workspaces, then each guest's resident part. One
// key: exactly plan_key's plan; with more, no copies of H's points (they would take the guests'
// room). resource_exhausted naming the least budget for the set when the
// keys do not fit together.
struct region_plan {
  std::vector<key_plan> keys;  // in the order of the shapes
  std::vector<uint64_t> base;  // offset of each key's resident part
  size_t host = 0;
  uint64_t lanes_offset = 0;   // the workspaces: lanes of lane_bytes each from here
  uint64_t lane_bytes = 0;
  uint32_t lanes = 0;
  uint64_t bytes = 0;          // the region's planned end
  [[nodiscard]] uint64_t lane_offset(uint32_t i) const { return lanes_offset + uint64_t{i} * lane_bytes; }
};
result<region_plan> plan_region(std::span<const key_shape> shapes, std::span<const std::vector<msm_chunking>> options,
                                uint64_t budget, uint32_t max_lanes);
// One more guest at the region's end without moving anything: resource_exhausted when it does not
// fit in budget - r.bytes (or its workspace does not fit the host's).
status add_guest(region_plan& r, const key_shape& s, std::span<const msm_chunking> options, uint64_t budget);

}  // namespace pp::cuda
