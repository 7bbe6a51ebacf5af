// key_layout.hpp: the budget plan and the offsets of one key's tables and lane workspaces.
#include "cuda/plan/key_layout.hpp"

#include <algorithm>
#include <cstdio>
#include <optional>

namespace pp::cuda {
namespace {

// Tables made resident first when memory is left after streaming: the copy-bound ones (split MSMs
// over mostly 0/1 scalars run ~4x faster per point than H's dense MSM, docs/perf/partition-h200.md).
constexpr key_table residency_order[] = {table_l, table_a, table_b_g1, table_b_g2, table_h};

std::string gib(uint64_t b) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.2f GiB", double(b) / double(uint64_t{1} << 30));
  return buf;
}

// Offsets of the resident part (tables marked resident, then matrices, NTT tables, index lists).
void place_resident(const key_shape& s, key_plan& p) {
  uint64_t at = 0;
  for (int t = 0; t < key_table_count; ++t) {
    p.table_offset[t] = at;
    if (p.resident[t]) at += p.resident_table_bytes(s, t);
  }
  p.matrices_offset = at;
  at += pad256(p.matrices_resident ? s.matrices_bytes : s.matrix_tables_bytes);
  p.qap_offset = at;
  at += pad256(s.qap_bytes);
  p.a_index_offset = at;
  at += pad256(s.a_index_bytes);
  p.b_index_offset = at;
  at += pad256(s.b_index_bytes);
  p.resident_bytes = at;
}

key_plan make_plan(const key_shape& s, const msm_chunking& m, const std::array<bool, key_table_count>& resident,
                   bool h_in_turns, bool matrices_resident, int slots = msm_min_point_slots) {
  key_plan p;
  p.resident = resident;
  p.matrices_resident = matrices_resident;
  p.msm = m;
  p.msm.workspace_bytes = workspace_for(m, resident);
  p.slot_bytes = slot_bytes_for(s, m, resident);
  p.matrix_slot_bytes = matrices_resident ? 0 : pad256(s.rows.slot_bytes);
  p.h_in_turns = h_in_turns;
  p.lane = make_lane_layout(s, p.msm, p.slot_bytes, h_in_turns, p.matrix_slot_bytes, slots);
  place_resident(s, p);
  return p;
}

// The smaller of the two smallest plans (streaming tiny matrices can take more than keeping them).
key_plan least_plan(const key_shape& s, std::span<const msm_chunking> options) {
  std::array<bool, key_table_count> none{};
  key_plan least = make_plan(s, options.back(), none, s.h_in_turns, true);
  if (s.rows.slot_bytes != 0) {
    const key_plan streamed = make_plan(s, options.back(), none, s.h_in_turns, false);
    if (streamed.resident_bytes + streamed.lane.bytes < least.resident_bytes + least.lane.bytes) least = streamed;
  }
  return least;
}

uint32_t lanes_that_fit(const key_plan& p, uint64_t budget, uint32_t max_lanes) {
  if (p.resident_bytes + p.lane.bytes > budget) return 0;
  const uint64_t fit = (budget - p.resident_bytes) / p.lane.bytes;
  return uint32_t(std::min<uint64_t>(fit, max_lanes));
}

// More point slots per lane while all of p's lanes still fit. Each lets the copies run one chunk further
// ahead of the kernels: with two slots a chunk's copy waits for the kernels of the chunk two before it,
// so a streamed MSM bound by its copies starts behind its first chunk's kernels and only its first two
// chunks are copied under the step before it (docs/perf/vram-budgets.md, "Carried buckets and point slots").
void add_point_slots(const key_shape& s, key_plan& p, uint64_t budget) {
  if (p.slot_bytes == 0 || p.lanes == 0) return;
  while (p.lane.slots < msm_max_point_slots) {
    const lane_layout more =
        make_lane_layout(s, p.msm, p.slot_bytes, p.h_in_turns, p.matrix_slot_bytes, p.lane.slots + 1);
    if (p.resident_bytes + uint64_t{p.lanes} * more.bytes > budget) return;
    p.lane = more;
  }
}

// Copies of H's points while they fit beside p's lanes (p: every table resident, lanes set).
void add_h_copies(const key_shape& s, key_plan& p, uint64_t budget) {
  while (p.h_copies < s.h_copies_max) {
    key_plan more = p;
    ++more.h_copies;
    place_resident(s, more);
    if (more.total_bytes() > budget) return;
    p = more;
  }
}

// The shape's wider row chunks for p's streamed matrices where they leave p's lane bytes and its point
// slots' place as they are: fewer, longer copies and SpMV launches for nothing else in the plan.
void widen_matrix_rows(const key_shape& s, key_plan& p) {
  if (p.matrices_resident || s.wide_rows.slot_bytes == 0) return;
  const uint64_t wide = pad256(s.wide_rows.slot_bytes);
  if (wide <= p.matrix_slot_bytes) return;
  const lane_layout l = make_lane_layout(s, p.msm, p.slot_bytes, p.h_in_turns, wide, p.lane.slots);
  if (l.bytes != p.lane.bytes || l.slots_clear_of_h != p.lane.slots_clear_of_h) return;
  p.lane = l;
  p.matrix_slot_bytes = wide;
  p.wide_matrix_rows = true;
}

}  // namespace

uint64_t workspace_for(const msm_chunking& m, const std::array<bool, key_table_count>& resident) {
  uint64_t ws = m.workspace_bytes;
  for (int t = 0; t < key_table_count; ++t) {
    if (resident[t]) ws = std::max(ws, m.resident_workspace[t]);
  }
  return ws;
}

uint64_t slot_bytes_for(const key_shape& s, const msm_chunking& m, const std::array<bool, key_table_count>& resident) {
  uint64_t slot = 0;
  for (int t = 0; t < key_table_count; ++t) {
    if (resident[t]) continue;
    const uint64_t chunk = t == table_b_g2 ? m.g2_chunk : m.g1_chunk;
    slot = std::max(slot, std::min(chunk, s.points[t]) * s.point_bytes[t]);
  }
  return pad256(slot);
}

lane_layout make_lane_layout(const key_shape& s, const msm_chunking& m, uint64_t slot_bytes, bool h_in_turns,
                             uint64_t matrix_slot_bytes, int slots) {
  constexpr uint64_t fr = key_shape::fr_bytes;
  lane_layout l;
  uint64_t at = 0;
  l.w = at;
  at += pad256(s.nv * fr);
  // a, then h, then the gathered A and B scalars (one at a time): the largest of the domain and the
  // filtered queries.
  l.scalars = at;
  at += pad256(std::max({s.n, s.points[table_a], s.points[table_b_g1]}) * fr);
  l.phase = at;
  l.witness_ws = at;
  l.b = at;
  l.c = h_in_turns ? l.b : at + pad256(s.n * fr);
  const uint64_t bc = (h_in_turns ? 1 : 2) * pad256(s.n * fr);
  // The matrix slots lie past b and c (the SpMV writes b while it reads them); they are dead, like
  // b and c, once H is done.
  l.mslot[0] = at + bc;
  l.mslot[1] = l.mslot[0] + matrix_slot_bytes;
  const uint64_t h_live = std::max(bc + 2 * matrix_slot_bytes, pad256(s.witness_ws_bytes));
  l.slots = std::clamp(slots, msm_min_point_slots, msm_max_point_slots);
  const uint64_t phase = std::max(h_live, pad256(m.workspace_bytes) + uint64_t(l.slots) * slot_bytes);
  // The MSM workspace at the phase's start, the slots at its end: where the workspace is larger than
  // what the H step uses, the slots stay clear of it.
  l.msm_ws = at;
  for (int i = 0; i < l.slots; ++i) l.slot[i] = at + phase - uint64_t(l.slots - i) * slot_bytes;
  l.slots_clear_of_h = slot_bytes != 0 && l.slot[0] >= at + h_live;
  l.bytes = at + phase;
  return l;
}

uint64_t key_plan::streamed_bytes(const key_shape& s) const {
  uint64_t b = 0;
  for (int t = 0; t < key_table_count; ++t) {
    if (!resident[t]) b += s.table_bytes(t);
  }
  return b + matrix_image_bytes(s);
}

std::string key_plan::to_string(const key_shape& s) const {
  std::string r = "resident " + gib(resident_bytes) + " (";
  for (int t = 0; t < key_table_count; ++t) {
    r += std::string(t ? ", " : "") + key_table_names[t] + (resident[t] ? " resident" : " streamed");
  }
  r += matrices_resident ? ", matrices resident"
                          : ", matrices streamed in row chunks of " + gib(matrix_slot_bytes) +
                                (wide_matrix_rows ? " (the wider ones)" : "");
  if (h_copies > 1) r += ", H with " + std::to_string(h_copies - 1) + " precomputed copies";
  r += std::string(h_in_turns ? "), b and c in turns, " : "), ") + std::to_string(lanes) + " lane(s) x " +
       gib(lane.bytes) + (guest ? " (the host key's workspaces)" : "") +
       (lane.slots_clear_of_h ? ", first chunks copied under H" : "") +
       (slot_bytes != 0 ? ", " + std::to_string(lane.slots) + " point slots of " + gib(slot_bytes) : "") +
       ", MSM chunks 2^" +
       std::to_string(std::max(0, 63 - __builtin_clzll(msm.g1_chunk | 1))) + " G1 / 2^" +
       std::to_string(std::max(0, 63 - __builtin_clzll(msm.g2_chunk | 1))) + " G2, streamed " +
       gib(streamed_bytes(s)) + " per partition";
  return r;
}

uint64_t least_plan_bytes(const key_shape& s, std::span<const msm_chunking> options) {
  if (options.empty()) return 0;
  const key_plan p = least_plan(s, options);
  return p.resident_bytes + p.lane.bytes;
}

result<key_plan> plan_key(const key_shape& s, std::span<const msm_chunking> options, uint64_t budget,
                          uint32_t max_lanes) {
  if (options.empty()) return invalid_argument("plan_key: no MSM chunking to choose from");
  max_lanes = std::max<uint32_t>(max_lanes, 1);
  std::array<bool, key_table_count> all{};
  all.fill(true);
  key_plan p = make_plan(s, options[0], all, false, true);
  if (const uint32_t lanes = lanes_that_fit(p, budget, max_lanes); lanes > 0) {
    p.lanes = lanes;
    add_h_copies(s, p, budget);
    return p;
  }
  std::array<bool, key_table_count> none{};
  const bool turns = s.h_in_turns;
  // The largest chunking whose all-streamed plan fits one lane, with point_slots_before_residency
  // slots where that fits, then tables resident while one lane still fits (the slots shrink to the
  // streamed tables' chunks).
  const auto streamed_plan = [&](bool matrices_resident) -> std::optional<key_plan> {
    for (const msm_chunking& m : options) {
      if (lanes_that_fit(make_plan(s, m, none, turns, matrices_resident), budget, 1) == 0) continue;
      const int slots =
          lanes_that_fit(make_plan(s, m, none, turns, matrices_resident, point_slots_before_residency), budget, 1) > 0
              ? point_slots_before_residency
              : msm_min_point_slots;
      std::array<bool, key_table_count> res = none;
      for (const key_table t : residency_order) {
        std::array<bool, key_table_count> more = res;
        more[t] = true;
        if (lanes_that_fit(make_plan(s, m, more, turns, matrices_resident, slots), budget, 1) > 0) res = more;
      }
      return make_plan(s, m, res, turns, matrices_resident, slots);
    }
    return std::nullopt;
  };
  // Matrices resident first: their copies would not overlap (the SpMV is short), the point tables'
  // run under the MSMs; streamed when nothing else fits or when that buys chunks of
  // stream_matrices_below_g1_chunk and more.
  std::optional<key_plan> best = streamed_plan(true);
  if (s.rows.slot_bytes != 0 && (!best || best->msm.g1_chunk < stream_matrices_below_g1_chunk)) {
    const std::optional<key_plan> q = streamed_plan(false);
    if (q && (!best || q->msm.g1_chunk > best->msm.g1_chunk)) best = q;
  }
  if (best) {
    best->lanes = lanes_that_fit(*best, budget, max_lanes);
    add_point_slots(s, *best, budget);
    widen_matrix_rows(s, *best);
    return *best;
  }
  const key_plan least = least_plan(s, options);
  return resource_exhausted("the key needs at least " + std::to_string(least.resident_bytes + least.lane.bytes) +
                            " bytes (" + gib(least.resident_bytes + least.lane.bytes) +
                            ") of device memory with every point table" +
                            (least.matrices_resident ? "" : " and the matrices") + " streamed (resident tables " +
                            gib(least.resident_bytes) + ", one partition workspace " + gib(least.lane.bytes) +
                            "); the budget is " + std::to_string(budget) + " bytes (" + gib(budget) + ")");
}

namespace {

// The smallest workspace any plan of s can have: every table streamed with the smallest chunking,
// b and c in turns where allowed, the matrices resident (streaming them only adds slots).
uint64_t least_lane_bytes(const key_shape& s, std::span<const msm_chunking> options) {
  std::array<bool, key_table_count> none{};
  return make_lane_layout(s, options.back(), slot_bytes_for(s, options.back(), none), s.h_in_turns).bytes;
}

// The least resident part of s as a guest whose workspace must fit lane_cap; none when none fits.
std::optional<uint64_t> least_guest_resident(const key_shape& s, std::span<const msm_chunking> options,
                                             uint64_t lane_cap) {
  std::array<bool, key_table_count> none{};
  std::optional<uint64_t> least;
  for (const bool matrices_resident : {true, false}) {
    if (!matrices_resident && s.rows.slot_bytes == 0) break;
    const key_plan q = make_plan(s, options.back(), none, s.h_in_turns, matrices_resident);
    if (q.lane.bytes > lane_cap) continue;
    if (!least || q.resident_bytes < *least) least = q.resident_bytes;
  }
  return least;
}

}  // namespace

result<key_plan> plan_guest_key(const key_shape& s, std::span<const msm_chunking> options, uint64_t resident_budget,
                                uint64_t lane_cap) {
  if (options.empty()) return invalid_argument("plan_guest_key: no MSM chunking to choose from");
  const auto fits = [&](const key_plan& q) { return q.resident_bytes <= resident_budget && q.lane.bytes <= lane_cap; };
  std::array<bool, key_table_count> none{};
  for (const bool matrices_resident : {true, false}) {
    if (!matrices_resident && s.rows.slot_bytes == 0) break;
    for (const msm_chunking& m : options) {
      for (const bool turns : {false, true}) {
        if (turns && !s.h_in_turns) continue;
        if (!fits(make_plan(s, m, none, turns, matrices_resident))) continue;
        std::array<bool, key_table_count> res = none;
        for (const key_table t : residency_order) {
          std::array<bool, key_table_count> more = res;
          more[t] = true;
          if (fits(make_plan(s, m, more, turns, matrices_resident))) res = more;
        }
        key_plan q = make_plan(s, m, res, turns, matrices_resident);
        q.guest = true;
        return q;
      }
    }
  }
  const std::optional<uint64_t> least = least_guest_resident(s, options, lane_cap);
  if (!least) {
    return resource_exhausted("a guest key's smallest workspace is larger than the host key's (" + gib(lane_cap) + ")");
  }
  return resource_exhausted("a guest key needs at least " + gib(*least) +
                            " of device memory beside the others (every table streamed); " + gib(resident_budget) +
                            " are left");
}

result<region_plan> plan_region(std::span<const key_shape> shapes, std::span<const std::vector<msm_chunking>> options,
                                uint64_t budget, uint32_t max_lanes) {
  if (shapes.empty() || options.size() != shapes.size()) {
    return invalid_argument("plan_region: one list of MSM chunkings per key, at least one key");
  }
  for (const auto& o : options) {
    if (o.empty()) return invalid_argument("plan_region: no MSM chunking to choose from");
  }
  region_plan r;
  for (size_t i = 1; i < shapes.size(); ++i) {
    if (least_lane_bytes(shapes[i], options[i]) > least_lane_bytes(shapes[r.host], options[r.host])) r.host = i;
  }
  // What every guest needs at the least, inside the smallest workspace the host can have.
  const uint64_t host_least_lane = least_lane_bytes(shapes[r.host], options[r.host]);
  std::vector<uint64_t> least(shapes.size(), 0);
  uint64_t reserve = 0;
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (i == r.host) continue;
    const std::optional<uint64_t> l = least_guest_resident(shapes[i], options[i], host_least_lane);
    if (!l) {
      return resource_exhausted("plan_region: key " + std::to_string(i) +
                                "'s smallest workspace is larger than the largest key's (" + gib(host_least_lane) +
                                ")");
    }
    least[i] = *l;
    reserve += least[i];
  }
  const uint64_t host_budget = budget > reserve ? budget - reserve : 0;
  key_shape host_shape = shapes[r.host];
  if (shapes.size() > 1) host_shape.h_copies_max = 1;
  auto host = plan_key(host_shape, options[r.host], host_budget, max_lanes);
  if (!host.ok()) {
    const std::string& m = host.error().message();
    const size_t at = m.find("at least ");
    const uint64_t need = at == std::string::npos ? 0 : std::stoull(m.substr(at + 9));
    return resource_exhausted("the " + std::to_string(shapes.size()) + " keys need at least " +
                              std::to_string(need + reserve) + " bytes (" + gib(need + reserve) +
                              ") together; the budget is " + gib(budget) + " (" + m + ")");
  }
  r.keys.resize(shapes.size());
  r.base.assign(shapes.size(), 0);
  r.keys[r.host] = *host;
  r.lanes = host->lanes;
  r.lane_bytes = host->lane.bytes;
  r.lanes_offset = host->resident_bytes;
  r.bytes = host->total_bytes();
  uint64_t left = budget - r.bytes - reserve;
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (i == r.host) continue;
    left += least[i];
    auto g = plan_guest_key(shapes[i], options[i], left, r.lane_bytes);
    if (!g.ok()) return internal_error("plan_region: a guest's least plan did not fit: " + g.error().message());
    g->lanes = r.lanes;
    r.keys[i] = *g;
    r.base[i] = r.bytes;
    r.bytes += g->resident_bytes;
    left -= g->resident_bytes;
  }
  return r;
}

status add_guest(region_plan& r, const key_shape& s, std::span<const msm_chunking> options, uint64_t budget) {
  if (r.keys.empty()) return invalid_argument("add_guest: the region has no host key");
  if (r.bytes > budget) return resource_exhausted("add_guest: the region is full");
  auto g = plan_guest_key(s, options, budget - r.bytes, r.lane_bytes);
  if (!g.ok()) return g.error();
  g->lanes = r.lanes;
  r.keys.push_back(*g);
  r.base.push_back(r.bytes);
  r.bytes += g->resident_bytes;
  return ok_status();
}

}  // namespace pp::cuda
