// The budget plan of a key (src/cuda/plan/key_layout.hpp) on the host: an unlimited budget keeps every
// table resident with the default chunking and the most lanes; budgets below that stream tables
// (largest chunking that fits, then tables made resident while they fit); a budget below the
// all-streamed minimum is refused naming that minimum; every plan stays inside its budget and its
// regions do not overlap where they must not; the matrices stream (row chunks through two slots)
// only when the point tables streamed do not suffice, which is what fits a 2^27 PoRep partition in
// 16 GiB, in wider row chunks only where the lane holds them anyway. Several keys share a region (plan_region): the largest hosts the workspaces, the others
// keep their resident part beside it and lay their lanes inside the host's, so a 2^27 PoRep key and
// a 2^24 WindowPoSt-sized one both fit 24 GiB. Shapes (key_shapes.hpp): PoRep at 2^27 (sizes of
// docs/perf/vram-budgets.md), the same scaled to 2^24, and randomized small ones.
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstdio>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "cuda/plan/key_layout.hpp"
#include "cuda/plan/key_sizing.hpp"
#include "cuda/plan/msm_plan.hpp"
#include "key_shapes.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

using ::testing::Not;

// Every region of the plan inside [0, total) and the per-lane ones inside the lane; the phase
// region's overlays (b / c, witness workspace, MSM workspace + slots) start at the phase and stay
// inside the lane; witness and scalars never overlap the phase region.
void check_plan(const key_shape& s, const key_plan& p, uint64_t budget) {
  ASSERT_GE(p.lanes, 1u);
  EXPECT_LE(p.total_bytes(), budget);
  const lane_layout& l = p.lane;
  EXPECT_LE(l.w + s.nv * 32, l.scalars);
  EXPECT_LE(l.scalars + s.n * 32, l.phase);
  EXPECT_LE(l.c + s.n * 32, l.bytes);
  if (p.h_in_turns) {
    EXPECT_EQ(l.c, l.b);
  } else {
    EXPECT_GE(l.c, l.b + s.n * 32);
  }
  EXPECT_LE(l.witness_ws + s.witness_ws_bytes, l.bytes);
  EXPECT_LE(l.msm_ws + p.msm.workspace_bytes, l.slot[0]);
  ASSERT_GE(l.slots, msm_min_point_slots);
  ASSERT_LE(l.slots, msm_max_point_slots);
  EXPECT_LE(l.slot[l.slots - 1] + p.slot_bytes, l.bytes);
  for (int i = 1; i < l.slots; ++i) EXPECT_LE(l.slot[i - 1] + p.slot_bytes, l.slot[i]);
  // Matrix slots: past b and c, inside the lane, disjoint; none when the matrices are resident.
  if (p.matrices_resident) {
    EXPECT_EQ(p.matrix_slot_bytes, 0u);
    EXPECT_FALSE(p.wide_matrix_rows);
  } else {
    EXPECT_GE(p.matrix_slot_bytes, p.wide_matrix_rows ? s.wide_rows.slot_bytes : s.rows.slot_bytes);
    EXPECT_GE(l.mslot[0], l.c + s.n * 32);
    EXPECT_LE(l.mslot[0] + p.matrix_slot_bytes, l.mslot[1]);
    EXPECT_LE(l.mslot[1] + p.matrix_slot_bytes, l.bytes);
    EXPECT_EQ(l.mslot[1] % layout_alignment, 0u);
  }
  // Slots clear of the H step exactly when they lie past b, c, the matrix slots and the packed
  // witness (the first chunks are then copied while H runs); never without slots.
  uint64_t h_end = std::max(l.c + s.n * 32, l.witness_ws + s.witness_ws_bytes);
  if (!p.matrices_resident) h_end = std::max(h_end, l.mslot[1] + p.matrix_slot_bytes);
  if (p.slot_bytes == 0) {
    EXPECT_FALSE(l.slots_clear_of_h);
  } else if (l.slots_clear_of_h) {
    EXPECT_GE(l.slot[0], h_end);
  } else {
    EXPECT_LT(l.slot[0], pad256(h_end));
  }

  // A streamed table's chunk fits a slot.
  for (int t = 0; t < key_table_count; ++t) {
    if (p.resident[t]) continue;
    const uint64_t chunk = t == table_b_g2 ? p.msm.g2_chunk : p.msm.g1_chunk;
    EXPECT_LE(std::min(chunk, s.points[t]) * s.point_bytes[t], p.slot_bytes) << key_table_names[t];
  }
  // Resident regions in order, disjoint.
  uint64_t end = 0;
  for (int t = 0; t < key_table_count; ++t) {
    if (!p.resident[t]) continue;
    EXPECT_GE(p.table_offset[t], end);
    end = p.table_offset[t] + s.table_bytes(t);
  }
  const uint64_t matrices = p.matrices_resident ? s.matrices_bytes : s.matrix_tables_bytes;
  for (auto [off, bytes] : {std::pair{p.matrices_offset, matrices}, std::pair{p.qap_offset, s.qap_bytes},
                            std::pair{p.a_index_offset, s.a_index_bytes}, std::pair{p.b_index_offset, s.b_index_bytes}}) {
    EXPECT_GE(off, end);
    end = off + bytes;
  }
  EXPECT_LE(end, p.resident_bytes);
  EXPECT_EQ(p.lane_offset(0), p.resident_bytes);
  for (uint64_t v : {p.resident_bytes, l.bytes, l.scalars, l.phase, l.c}) EXPECT_EQ(v % layout_alignment, 0u);
  for (int i = 0; i < l.slots; ++i) EXPECT_EQ(l.slot[i] % layout_alignment, 0u);
}

// The slots sit at the end of the phase region: with the H200's MSM workspace at 2^24-point chunks
// (5.7 GiB, more than b's 4 GiB) the 24 GiB plan's slots lie clear of the H step; with a workspace
// smaller than b they overlay it and the first copy waits for H.
TEST(KeyLayout, SlotsClearOfHWhenTheWorkspaceOutgrowsB) {
  const key_shape s = porep27();
  std::array<bool, key_table_count> none{};
  msm_chunking big{uint64_t{1} << 24, uint64_t{1} << 23, uint64_t(5.72 * double(gib))};
  const lane_layout l = make_lane_layout(s, big, slot_bytes_for(s, big, none), true);
  EXPECT_TRUE(l.slots_clear_of_h);
  EXPECT_GE(l.slot[0], l.b + s.n * 32);
  EXPECT_EQ(l.slot[1] + slot_bytes_for(s, big, none), l.bytes);
  msm_chunking small{uint64_t{1} << 24, uint64_t{1} << 23, gib};
  const lane_layout m = make_lane_layout(s, small, slot_bytes_for(s, small, none), true);
  EXPECT_FALSE(m.slots_clear_of_h);
  EXPECT_LT(m.slot[0], m.b + s.n * 32);
  // All resident: no slots, nothing to copy early.
  std::array<bool, key_table_count> all{};
  all.fill(true);
  EXPECT_FALSE(make_lane_layout(s, big, slot_bytes_for(s, big, all), false).slots_clear_of_h);
}

TEST(KeyLayout, UnlimitedKeepsEverythingResident) {
  const key_shape s = porep27();
  const auto opts = options_for();
  const auto p = plan_key(s, opts, ~uint64_t{0}, 2);
  ASSERT_THAT(p, IsOk());
  EXPECT_FALSE(p->streams());
  EXPECT_TRUE(p->matrices_resident);
  EXPECT_EQ(p->lanes, 2u);
  EXPECT_EQ(p->slot_bytes, 0u);
  EXPECT_EQ(p->msm.g1_chunk, opts[0].g1_chunk);
  EXPECT_EQ(p->streamed_bytes(s), 0u);
  check_plan(s, *p, ~uint64_t{0});
}

// Copies of H's points: with every table resident, as many as fit beside the lanes (the lanes come
// first, up to the shape's most); none in a streamed plan or in a region shared with another key.
TEST(KeyLayout, HCopiesWhereMemoryIsLeft) {
  key_shape s = porep27();
  s.h_copies_max = 4;
  const auto opts = options_for();
  const auto none = plan_key(porep27(), opts, ~uint64_t{0}, 2);
  ASSERT_THAT(none, IsOk());
  EXPECT_EQ(none->h_copies, 1u);
  const uint64_t h = s.table_bytes(table_h);
  // Room for the two lanes and one copy and a half: one copy.
  const uint64_t budget = none->total_bytes() + h + h / 2;
  const auto p = plan_key(s, opts, budget, 2);
  ASSERT_THAT(p, IsOk());
  EXPECT_EQ(p->lanes, 2u);
  EXPECT_EQ(p->h_copies, 2u);
  EXPECT_EQ(p->table_offset[table_l], p->table_offset[table_h] + pad256(2 * h));
  EXPECT_EQ(p->resident_bytes, none->resident_bytes - pad256(h) + pad256(2 * h));
  EXPECT_EQ(p->lane.bytes, none->lane.bytes);
  check_plan(s, *p, budget);
  EXPECT_NE(p->to_string(s).find("H with 1 precomputed copies"), std::string::npos) << p->to_string(s);
  // Unlimited: the most; room for the lanes alone: none; the lanes before the copies.
  const auto most = plan_key(s, opts, ~uint64_t{0}, 2);
  ASSERT_THAT(most, IsOk());
  EXPECT_EQ(most->h_copies, 4u);
  const auto tight = plan_key(s, opts, none->total_bytes() + h / 2, 2);
  ASSERT_THAT(tight, IsOk());
  EXPECT_EQ(tight->h_copies, 1u);
  EXPECT_EQ(tight->lanes, 2u);
  const auto lanes_first = plan_key(s, opts, none->total_bytes() + none->lane.bytes, 3);
  ASSERT_THAT(lanes_first, IsOk());
  EXPECT_EQ(lanes_first->lanes, 3u);
  EXPECT_EQ(lanes_first->h_copies, 1u);
  // A budget that streams tables: none.
  const auto streamed = plan_key(s, opts, 24 * gib, 2);
  ASSERT_THAT(streamed, IsOk());
  EXPECT_TRUE(streamed->streams());
  EXPECT_EQ(streamed->h_copies, 1u);
  // A region of one key is plan_key's plan, copies included; beside another key, none.
  const std::vector<std::vector<msm_chunking>> two_opts = {opts, opts};
  const auto alone = plan_region(std::span<const key_shape>(&s, 1), std::span(two_opts).first(1), ~uint64_t{0}, 2);
  ASSERT_THAT(alone, IsOk());
  EXPECT_EQ(alone->keys[0].h_copies, 4u);
  const std::vector<key_shape> shapes = {s, porep_scaled(24)};
  const auto shared = plan_region(shapes, two_opts, ~uint64_t{0}, 2);
  ASSERT_THAT(shared, IsOk());
  EXPECT_EQ(shared->keys[0].h_copies, 1u);
  EXPECT_EQ(shared->keys[1].h_copies, 1u);
}

TEST(KeyLayout, LanesAreWhatFits) {
  const key_shape s = porep27();
  const auto opts = options_for();
  const auto one = plan_key(s, opts, ~uint64_t{0}, 1);
  ASSERT_THAT(one, IsOk());
  const uint64_t one_lane = one->total_bytes();
  // Room for two and a half lanes: two of four asked for.
  const uint64_t budget = one_lane + one->lane.bytes + one->lane.bytes / 2;
  const auto p = plan_key(s, opts, budget, 4);
  ASSERT_THAT(p, IsOk());
  EXPECT_FALSE(p->streams());
  EXPECT_EQ(p->lanes, 2u);
  check_plan(s, *p, budget);
  // max_lanes 0 is taken as 1.
  const auto z = plan_key(s, opts, ~uint64_t{0}, 0);
  ASSERT_THAT(z, IsOk());
  EXPECT_EQ(z->lanes, 1u);
}

TEST(KeyLayout, BudgetsStreamAndStayInside) {
  const key_shape s = porep27();
  const auto opts = options_for();
  uint64_t last_streamed = 0;
  for (uint64_t b : {48, 32, 24, 16}) {
    const uint64_t budget = b * gib;
    const auto p = plan_key(s, opts, budget, 2);
    ASSERT_THAT(p, IsOk()) << b << " GiB: " << p.error().to_string();
    std::printf("%3llu GiB: %s\n", (unsigned long long)b, p->to_string(s).c_str());
    EXPECT_TRUE(p->streams()) << b << " GiB";
    check_plan(s, *p, budget);
    // Smaller budgets never stream less; the matrices only where the point tables do not suffice.
    EXPECT_GE(p->streamed_bytes(s), last_streamed) << b << " GiB";
    last_streamed = p->streamed_bytes(s);
    EXPECT_EQ(p->matrices_resident, b > 16) << b << " GiB";
  }
}

// The 2^27 plans of the H200 runs (docs/perf/vram-budgets.md, "Streamed matrices" and "Carried
// buckets and point slots"), with the MSM's own workspace sizes and the regions those budgets leave
// (less the driver's 460 MiB and the 128 MiB pinning reserve): at 24 GiB, resident matrices would
// cost 2^23-point chunks, so the matrices stream and the chunks are 2^24, with four point slots (the
// room B_G1 took before them); at 16 GiB everything and the matrices stream at 2^23 through two
// slots. The lanes match the device's (16.81 and 12.77 GiB with two slots, 2026-12-01's run).
TEST(KeyLayout, Porep27AtTheH200sBudgets) {
  const key_shape s = porep27();
  const auto opts = h200_options(s);
  for (const auto& m : opts) {
    std::printf("chunks 2^%d / 2^%d: workspace %.2f GiB\n", std::countr_zero(m.g1_chunk), std::countr_zero(m.g2_chunk),
                double(m.workspace_bytes) / gib);
  }
  const uint64_t driver = 460 * (uint64_t{1} << 20), reserve = 128 * (uint64_t{1} << 20);
  const auto plan24 = plan_key(s, opts, 24 * gib - driver - reserve, 2);
  ASSERT_THAT(plan24, IsOk());
  std::printf("24 GiB: %s, total %.2f GiB\n", plan24->to_string(s).c_str(), double(plan24->total_bytes()) / gib);
  check_plan(s, *plan24, 24 * gib - driver - reserve);
  EXPECT_EQ(plan24->msm.g1_chunk, uint64_t{1} << 24);
  EXPECT_FALSE(plan24->matrices_resident);
  EXPECT_EQ(plan24->lane.slots, msm_max_point_slots);
  EXPECT_FALSE(plan24->resident[table_b_g1]);
  EXPECT_TRUE(plan24->lane.slots_clear_of_h);
  // The matrices resident instead: only 2^23-point chunks fit.
  key_shape fixed = s;
  fixed.rows.slot_bytes = 0;
  const auto resident24 = plan_key(fixed, opts, 24 * gib - driver - reserve, 2);
  ASSERT_THAT(resident24, IsOk());
  EXPECT_EQ(resident24->msm.g1_chunk, uint64_t{1} << 23);

  const auto plan16 = plan_key(s, opts, 16 * gib - driver - reserve, 2);
  ASSERT_THAT(plan16, IsOk());
  std::printf("16 GiB: %s, total %.2f GiB\n", plan16->to_string(s).c_str(), double(plan16->total_bytes()) / gib);
  check_plan(s, *plan16, 16 * gib - driver - reserve);
  EXPECT_EQ(plan16->msm.g1_chunk, uint64_t{1} << 23);
  EXPECT_FALSE(plan16->matrices_resident);
  EXPECT_EQ(plan16->lane.slots, 2);
  for (const uint64_t b : {48, 32}) {
    const auto p = plan_key(s, opts, b * gib - driver - reserve, 2);
    ASSERT_THAT(p, IsOk());
    std::printf("%llu GiB: %s, total %.2f GiB\n", (unsigned long long)b, p->to_string(s).c_str(),
                double(p->total_bytes()) / gib);
    check_plan(s, *p, b * gib - driver - reserve);
  }
}

// The H100's 24 GiB (its kernels hold 62 MiB; the pinning reserve 128 MiB), chunkings as the backend
// makes them (chunking_options): a streamed split MSM's index lists cover one chunk
// (msm_config::streamed), so the 2^24-point chunks' workspace is L's and A's, not B_G1's selection
// over all its points, and the matrices stay resident beside those chunks. Sized as if the streamed
// B_G1 selected over all its points (before), they would stream.
TEST(KeyLayout, Porep27AtTheH100sTwentyFourGiBKeepsTheMatrices) {
  const key_shape s = porep27();
  const auto opts = chunking_options(s, 0);
  ASSERT_THAT(opts, IsOk());
  const uint64_t region = (24 * gib - (uint64_t{190} << 20)) / (uint64_t{2} << 20) * (uint64_t{2} << 20);
  const auto p = plan_key(s, *opts, region, 2);
  ASSERT_THAT(p, IsOk());
  std::printf("24 GiB: %s, total %.2f GiB\n", p->to_string(s).c_str(), double(p->total_bytes()) / gib);
  check_plan(s, *p, region);
  EXPECT_TRUE(p->matrices_resident);
  EXPECT_EQ(p->msm.g1_chunk, uint64_t{1} << 24);
  EXPECT_TRUE(p->lane.slots_clear_of_h);
  const msm_chunking& m = (*opts)[1];
  ASSERT_EQ(m.g1_chunk, uint64_t{1} << 24);
  EXPECT_GT(m.resident_workspace[table_b_g1], m.workspace_bytes);  // two chunks: selected at once
  EXPECT_EQ(m.resident_workspace[table_l], 0u);                     // eight: chunk by chunk either way
  EXPECT_EQ(m.resident_workspace[table_h], 0u);                     // plain
  EXPECT_EQ(p->msm.workspace_bytes, m.workspace_bytes);
  std::array<bool, key_table_count> b_g1{};
  b_g1[table_b_g1] = true;
  EXPECT_EQ(workspace_for(m, b_g1), m.resident_workspace[table_b_g1]);

  std::vector<msm_chunking> before = *opts;
  for (msm_chunking& o : before) o.workspace_bytes = workspace_for(o, {true, true, true, true, true});
  const auto q = plan_key(s, before, region, 2);
  ASSERT_THAT(q, IsOk());
  EXPECT_FALSE(q->matrices_resident);
  EXPECT_GT(q->streamed_bytes(s), p->streamed_bytes(s) + s.rows.image_bytes / 2);
}

// The smallest card: a 2^27 PoRep partition plans inside 16 GiB only with the matrices
// streamed (the plan of h11's commit needed 19.03 GiB), copying about the key plus the matrices.
TEST(KeyLayout, Porep27FitsSixteenGiBWithStreamedMatrices) {
  key_shape s = porep27();
  const auto opts = options_for();
  const auto p = plan_key(s, opts, 16 * gib, 2);
  ASSERT_THAT(p, IsOk());
  std::printf("16 GiB: %s, total %.2f GiB\n", p->to_string(s).c_str(), double(p->total_bytes()) / gib);
  EXPECT_FALSE(p->matrices_resident);
  EXPECT_EQ(p->lanes, 1u);
  check_plan(s, *p, 16 * gib);
  uint64_t points = 0;
  for (int t = 0; t < key_table_count; ++t) points += s.table_bytes(t);
  EXPECT_LE(p->streamed_bytes(s), points + s.rows.image_bytes);
  // Without the matrices streamed it does not fit (the least budget is above 16 GiB).
  s.rows.slot_bytes = 0;
  const auto q = plan_key(s, opts, 16 * gib, 2);
  ASSERT_THAT(q, Not(IsOk()));
  EXPECT_NE(q.error().message().find("at least"), std::string::npos);
}

TEST(KeyLayout, TooSmallIsRefusedNamingTheMinimum) {
  const key_shape s = porep27();
  const auto opts = options_for();
  const auto p = plan_key(s, opts, 4 * gib, 2);
  ASSERT_THAT(p, StatusIs(status_code::resource_exhausted));
  EXPECT_NE(p.error().message().find("at least"), std::string::npos) << p.error().message();
  // The minimum it names is enough (and one byte less is not).
  const std::string& m = p.error().message();
  const uint64_t least = std::stoull(m.substr(m.find("at least ") + 9));
  EXPECT_EQ(least, least_plan_bytes(s, opts));
  const auto q = plan_key(s, opts, least, 2);
  ASSERT_THAT(q, IsOk());
  check_plan(s, *q, least);
  EXPECT_THAT(plan_key(s, opts, least - 1, 2), Not(IsOk()));
  EXPECT_THAT(plan_key(s, {}, ~uint64_t{0}, 1), Not(IsOk()));
}

// b and c in turns (monomial keys) lower the least budget by one domain-sized buffer or more.
TEST(KeyLayout, HInTurnsLowersTheMinimum) {
  key_shape s = porep27();
  const auto opts = options_for();
  auto least = [&](const key_shape& k) {
    const auto p = plan_key(k, opts, 1, 1);
    EXPECT_THAT(p, Not(IsOk()));
    const std::string& m = p.error().message();
    return std::stoull(m.substr(m.find("at least ") + 9));
  };
  s.h_in_turns = false;
  const uint64_t three = least(s);
  s.h_in_turns = true;
  const uint64_t two = least(s);
  std::printf("least budget at 2^27: %.2f GiB with a, b, c; %.2f GiB with b and c in turns\n", double(three) / gib,
              double(two) / gib);
  EXPECT_LT(two + s.n * 32, three + 1);
  const auto p = plan_key(s, opts, two, 2);
  ASSERT_THAT(p, IsOk());
  EXPECT_TRUE(p->h_in_turns);
  check_plan(s, *p, two);
  // An unlimited budget keeps today's path: a, b, c at once.
  const auto u = plan_key(s, opts, ~uint64_t{0}, 2);
  ASSERT_THAT(u, IsOk());
  EXPECT_FALSE(u->h_in_turns);
}

// p, with the shape's wider rows taken or not, is q (the plan of the shape without them) in everything
// but the matrix slots: the same lanes, bytes, chunks and point slots at the same places.
void expect_same_but_matrix_rows(const key_plan& p, const key_plan& q) {
  EXPECT_EQ(p.resident, q.resident);
  EXPECT_EQ(p.matrices_resident, q.matrices_resident);
  EXPECT_EQ(p.msm.g1_chunk, q.msm.g1_chunk);
  EXPECT_EQ(p.msm.workspace_bytes, q.msm.workspace_bytes);
  EXPECT_EQ(p.slot_bytes, q.slot_bytes);
  EXPECT_EQ(p.h_in_turns, q.h_in_turns);
  EXPECT_EQ(p.lanes, q.lanes);
  EXPECT_EQ(p.h_copies, q.h_copies);
  EXPECT_EQ(p.resident_bytes, q.resident_bytes);
  EXPECT_EQ(p.lane.bytes, q.lane.bytes);
  EXPECT_EQ(p.lane.slots, q.lane.slots);
  EXPECT_EQ(p.lane.slots_clear_of_h, q.lane.slots_clear_of_h);
  for (int i = 0; i < p.lane.slots; ++i) EXPECT_EQ(p.lane.slot[i], q.lane.slot[i]);
  EXPECT_EQ(p.lane.msm_ws, q.lane.msm_ws);
  EXPECT_EQ(p.lane.mslot[0], q.lane.mslot[0]);
  EXPECT_FALSE(q.wide_matrix_rows);
}

key_shape without_wide_rows(key_shape s) {
  s.wide_rows.chunk_bytes = s.wide_rows.slot_bytes = s.wide_rows.image_bytes = 0;
  return s;
}

// The wider row chunks (spmv_tuning's 512 MiB) where the streaming plan's lane holds their two slots
// anyway: at 2^27 under 16 GiB the H step's part with them is ~5.0 GiB against the MSM phase's
// ~5.3 (the workspace and three point slots), so the plan takes them and nothing else changes; at
// the least budget the lane is as small as the H step, so wider slots would grow it and the plan
// keeps the narrow ones, and the least budget is the narrow one's. Copied bytes follow the chunking
// taken.
TEST(KeyLayout, WideMatrixRowsOnlyWhereTheLaneHoldsThem) {
  const key_shape s = porep27();
  const key_shape narrow = without_wide_rows(s);
  const auto opts = chunking_options(s, 0);
  ASSERT_THAT(opts, IsOk());
  const uint64_t region = (16 * gib - (uint64_t{190} << 20)) / (uint64_t{2} << 20) * (uint64_t{2} << 20);
  const auto p = plan_key(s, *opts, region, 2);
  const auto q = plan_key(narrow, *opts, region, 2);
  ASSERT_THAT(p, IsOk());
  ASSERT_THAT(q, IsOk());
  std::printf("16 GiB: %s\n", p->to_string(s).c_str());
  check_plan(s, *p, region);
  ASSERT_FALSE(p->matrices_resident);
  EXPECT_TRUE(p->wide_matrix_rows);
  EXPECT_EQ(p->matrix_slot_bytes, s.wide_rows.slot_bytes);
  EXPECT_EQ(p->matrix_chunk_bytes(s), s.wide_rows.chunk_bytes);
  EXPECT_EQ(p->matrix_image_bytes(s), s.wide_rows.image_bytes);
  EXPECT_EQ(p->streamed_bytes(s), q->streamed_bytes(narrow) - (s.rows.image_bytes - s.wide_rows.image_bytes));
  EXPECT_NE(p->to_string(s).find("the wider ones"), std::string::npos);
  expect_same_but_matrix_rows(*p, *q);

  const uint64_t least = least_plan_bytes(s, *opts);
  EXPECT_EQ(least, least_plan_bytes(narrow, *opts));
  const auto l = plan_key(s, *opts, least, 2);
  const auto ln = plan_key(narrow, *opts, least, 2);
  ASSERT_THAT(l, IsOk());
  ASSERT_THAT(ln, IsOk());
  check_plan(s, *l, least);
  EXPECT_FALSE(l->matrices_resident);
  EXPECT_FALSE(l->wide_matrix_rows);
  EXPECT_EQ(l->matrix_chunk_bytes(s), s.rows.chunk_bytes);
  EXPECT_EQ(l->matrix_image_bytes(s), s.rows.image_bytes);
  expect_same_but_matrix_rows(*l, *ln);

  // Resident matrices (24 GiB) stream no rows, wide or not.
  const auto r = plan_key(s, *opts, region + 8 * gib, 2);
  ASSERT_THAT(r, IsOk());
  EXPECT_TRUE(r->matrices_resident);
  EXPECT_FALSE(r->wide_matrix_rows);
  EXPECT_EQ(r->matrix_chunk_bytes(s), 0u);
  EXPECT_EQ(r->matrix_image_bytes(s), 0u);
}

// Random small shapes and budgets: whatever comes back is inside its budget and well laid out; a
// refusal only when the all-streamed plan with the smallest chunking does not fit. Wider row chunks
// never change anything in a plan but its matrix slots.
TEST(KeyLayout, RandomShapes) {
  std::mt19937_64 rng = pp::test::seeded_rng();
  for (int i = 0; i < 2000; ++i) {
    key_shape s;
    const int log_n = int(rng() % 20) + 1;
    s.n = uint64_t{1} << log_n;
    s.nv = rng() % (2 * s.n) + 1;
    for (int t = 0; t < key_table_count; ++t) s.points[t] = rng() % (s.n + 1);
    s.point_bytes = {96, 96, 96, 96, 192};
    s.matrices_bytes = rng() % (s.n * 64 + 1);
    s.matrix_tables_bytes = rng() % (s.matrices_bytes / 4 + 1);
    s.rows.slot_bytes = rng() % 3 == 0 ? 0 : rng() % (s.matrices_bytes + 1) + 1;
    s.rows.chunk_bytes = s.rows.slot_bytes;
    s.rows.image_bytes = s.matrices_bytes - s.matrix_tables_bytes;
    if (s.rows.slot_bytes != 0 && rng() % 2) {
      s.wide_rows.slot_bytes = s.rows.slot_bytes + rng() % (s.matrices_bytes + 1) + 1;
      s.wide_rows.chunk_bytes = s.wide_rows.slot_bytes;
      s.wide_rows.image_bytes = s.rows.image_bytes;
    }
    s.qap_bytes = rng() % (s.n * 64 + 1);
    s.a_index_bytes = rng() % 2 ? s.points[table_a] * 4 : 0;
    s.b_index_bytes = rng() % 2 ? s.points[table_b_g1] * 4 : 0;
    s.witness_ws_bytes = rng() % (s.nv * 40 + 1);
    s.h_in_turns = rng() % 2;
    std::vector<msm_chunking> opts;
    for (uint64_t c = uint64_t{1} << (rng() % 12 + 4); c >= 2; c /= 2) opts.push_back({c, c / 2, 80 * c + 4096});
    const auto full = plan_key(s, opts, ~uint64_t{0}, 3);
    ASSERT_THAT(full, IsOk());
    const uint64_t budget = rng() % (full->total_bytes() + 1);
    const auto p = plan_key(s, opts, budget, 3);
    if (p.ok()) {
      check_plan(s, *p, budget);
      const auto q = plan_key(without_wide_rows(s), opts, budget, 3);
      ASSERT_THAT(q, IsOk()) << "iteration " << i;
      expect_same_but_matrix_rows(*p, *q);
      if (HasFatalFailure() || HasNonfatalFailure()) FAIL() << "iteration " << i;
    } else {
      EXPECT_EQ(p.error().code(), status_code::resource_exhausted);
      std::array<bool, key_table_count> none{};
      const uint64_t slot = slot_bytes_for(s, opts.back(), none);
      const lane_layout l = make_lane_layout(s, opts.back(), slot, s.h_in_turns);
      const uint64_t fixed = pad256(s.qap_bytes) + pad256(s.a_index_bytes) + pad256(s.b_index_bytes);
      EXPECT_GT(fixed + pad256(s.matrices_bytes) + l.bytes, budget)
          << "iteration " << i << ": refused a budget the smallest plan fits";
      if (s.rows.slot_bytes != 0) {
        const lane_layout ls = make_lane_layout(s, opts.back(), slot, s.h_in_turns, pad256(s.rows.slot_bytes));
        EXPECT_GT(fixed + pad256(s.matrix_tables_bytes) + ls.bytes, budget)
            << "iteration " << i << ": refused a budget the smallest streamed-matrices plan fits";
      }
    }
  }
}

// The least budget plan_key names for s.
uint64_t least_budget(const key_shape& s, std::span<const msm_chunking> opts) {
  const auto p = plan_key(s, opts, 1, 1);
  EXPECT_THAT(p, Not(IsOk()));
  if (p.ok()) return 1;
  const std::string& m = p.error().message();
  return std::stoull(m.substr(m.find("at least ") + 9));
}

// Every key's resident part and the shared workspaces disjoint, in order, inside the budget; each
// guest's lane layout inside the host's workspace.
void check_region(std::span<const key_shape> shapes, const region_plan& r, uint64_t budget) {
  ASSERT_EQ(r.keys.size(), shapes.size());
  ASSERT_GE(r.lanes, 1u);
  EXPECT_LE(r.bytes, budget);
  const key_plan& host = r.keys[r.host];
  EXPECT_FALSE(host.guest);
  EXPECT_EQ(r.base[r.host], 0u);
  EXPECT_EQ(r.lanes_offset, host.resident_bytes);
  EXPECT_EQ(r.lane_bytes, host.lane.bytes);
  EXPECT_EQ(r.lanes, host.lanes);
  check_plan(shapes[r.host], host, budget);
  uint64_t end = r.lane_offset(r.lanes);
  for (size_t i = 0; i < shapes.size(); ++i) {
    if (i == r.host) continue;
    const key_plan& g = r.keys[i];
    EXPECT_TRUE(g.guest);
    EXPECT_EQ(g.lanes, r.lanes);
    EXPECT_LE(g.lane.bytes, r.lane_bytes) << "guest " << i;
    EXPECT_GE(r.base[i], end) << "guest " << i;
    EXPECT_EQ(r.base[i] % layout_alignment, 0u);
    end = r.base[i] + g.resident_bytes;
    EXPECT_EQ(g.total_bytes(), g.resident_bytes);
    check_plan(shapes[i], g, budget);
  }
  EXPECT_LE(end, r.bytes);
}

// The case: a 2^27 PoRep key and a 2^24 one (WindowPoSt) under 24 GiB, in either order:
// both planned at once, the 2^27 key hosting the workspaces; with room to spare (unlimited) the
// guest is wholly resident and the host keeps its single-key plan.
TEST(KeyLayout, TwoKeysShareTwentyFourGiB) {
  const std::vector<key_shape> shapes = {porep27(), porep_scaled(24)};
  const std::vector<std::vector<msm_chunking>> opts = {options_for(), options_for()};
  const auto r = plan_region(shapes, opts, 24 * gib, 2);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->host, 0u);
  std::printf("24 GiB, host 2^27: %s\n24 GiB, guest 2^24: %s; region %.2f GiB\n",
              r->keys[0].to_string(shapes[0]).c_str(), r->keys[1].to_string(shapes[1]).c_str(),
              double(r->bytes) / gib);
  check_region(shapes, *r, 24 * gib);
  const std::vector<key_shape> flipped = {shapes[1], shapes[0]};
  const auto f = plan_region(flipped, opts, 24 * gib, 2);
  ASSERT_THAT(f, IsOk());
  EXPECT_EQ(f->host, 1u);
  check_region(flipped, *f, 24 * gib);
  EXPECT_EQ(f->bytes, r->bytes);

  const auto u = plan_region(shapes, opts, ~uint64_t{0}, 2);
  ASSERT_THAT(u, IsOk());
  check_region(shapes, *u, ~uint64_t{0});
  EXPECT_FALSE(u->keys[1].streams());
  const auto alone = plan_key(shapes[0], opts[0], ~uint64_t{0}, 2);
  ASSERT_THAT(alone, IsOk());
  EXPECT_EQ(u->keys[0].total_bytes(), alone->total_bytes());
}

// One key: the region is exactly plan_key's plan; a second key that does not fit beside it is
// refused by add_guest (so the backend re-plans both), one that fits is appended without moving
// anything.
TEST(KeyLayout, RegionOfOneKeyIsPlanKeyAndGuestsAppend) {
  const std::vector<key_shape> one = {porep27()};
  const std::vector<std::vector<msm_chunking>> opts = {options_for()};
  for (const uint64_t budget : {~uint64_t{0}, 48 * gib, 24 * gib, 16 * gib}) {
    const auto r = plan_region(one, opts, budget, 2);
    const auto p = plan_key(one[0], opts[0], budget, 2);
    ASSERT_TRUE(r.ok() && p.ok());
    EXPECT_EQ(r->bytes, p->total_bytes());
    EXPECT_EQ(r->keys[0].resident, p->resident);
    EXPECT_EQ(r->keys[0].lanes, p->lanes);
    EXPECT_EQ(r->keys[0].msm.g1_chunk, p->msm.g1_chunk);
    EXPECT_EQ(r->keys[0].matrices_resident, p->matrices_resident);
  }
  const key_shape small = porep_scaled(24);
  auto u = plan_region(one, opts, ~uint64_t{0}, 2);
  ASSERT_THAT(u, IsOk());
  const uint64_t before = u->bytes;
  ASSERT_THAT(add_guest(*u, small, options_for(), ~uint64_t{0}), IsOk());
  const std::vector<key_shape> both = {porep27(), small};
  check_region(both, *u, ~uint64_t{0});
  EXPECT_EQ(u->base[1], before);
  // At the key's least budget nothing is left beside it.
  const uint64_t least = least_budget(one[0], opts[0]);
  auto t = plan_region(one, opts, least, 2);
  ASSERT_THAT(t, IsOk());
  const status st = add_guest(*t, small, options_for(), least);
  EXPECT_EQ(st.code(), status_code::resource_exhausted) << st.to_string();
  EXPECT_EQ(t->keys.size(), 1u);
}

// Two 2^27 keys do not fit one key's least budget plus 1 GiB (the second needs its NTT tables and
// index lists, 2.6 GiB): refused naming the least budget for both, which is enough.
TEST(KeyLayout, KeysThatDoNotFitTogetherNameTheirLeast) {
  const std::vector<key_shape> shapes = {porep27(), porep27()};
  const std::vector<std::vector<msm_chunking>> opts = {options_for(), options_for()};
  const auto r = plan_region(shapes, opts, least_budget(shapes[0], opts[0]) + gib, 2);
  ASSERT_THAT(r, StatusIs(status_code::resource_exhausted));
  const std::string& m = r.error().message();
  ASSERT_NE(m.find("at least "), std::string::npos) << m;
  const uint64_t least = std::stoull(m.substr(m.find("at least ") + 9));
  const auto q = plan_region(shapes, opts, least, 2);
  ASSERT_THAT(q, IsOk());
  check_region(shapes, *q, least);
  EXPECT_THAT(plan_region(shapes, {}, ~uint64_t{0}, 1), Not(IsOk()));
}

// Random sets of two or three small keys under random budgets: whatever comes back is well laid out.
TEST(KeyLayout, RandomRegions) {
  std::mt19937_64 rng = pp::test::seeded_rng();
  int planned = 0;
  for (int i = 0; i < 500; ++i) {
    std::vector<key_shape> shapes;
    std::vector<std::vector<msm_chunking>> opts;
    const int keys = int(rng() % 2) + 2;
    for (int k = 0; k < keys; ++k) {
      shapes.push_back(porep_scaled(int(rng() % 8) + 10));
      shapes.back().h_in_turns = rng() % 2;
      if (rng() % 3 == 0) shapes.back().rows.slot_bytes = 0;
      opts.push_back(options_for(uint64_t{1} << (rng() % 6 + 12)));
    }
    const auto full = plan_region(shapes, opts, ~uint64_t{0}, 3);
    ASSERT_THAT(full, IsOk());
    const uint64_t budget = rng() % (full->bytes + 1);
    const auto r = plan_region(shapes, opts, budget, 3);
    if (r.ok()) {
      ++planned;
      check_region(shapes, *r, budget);
    } else {
      EXPECT_EQ(r.error().code(), status_code::resource_exhausted) << r.error().to_string();
    }
    if (HasFatalFailure() || HasNonfatalFailure()) FAIL() << "iteration " << i;
  }
  std::printf("%d of 500 random regions planned\n", planned);
}

}  // namespace
}  // namespace pp::cuda::test
