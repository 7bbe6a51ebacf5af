// GPU MSM plan (src/cuda/plan/msm_plan.hpp, msm_workspace.hpp): chunk counts and shapes, the sort pairs that
// hold a chunked plain MSM's later buckets, the groups' sizes (BLS12-381's and BN254's G1 and G2
// against the host's point types), the workspace of the PoRep sizes (2^27, 2^28 points) for every
// group under the default chunk limits, the passes of the split MSM that selects over all points,
// the accumulation's and the scalar-1 sums' threads in whole waves, and input checks. Host only: the shape, CUB's temp sizes (msm_workspace.hpp) and the layout
// need no device.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <random>
#include <string>
#include <utility>

#include "cuda/plan/msm_plan.hpp"
#include "cuda/plan/msm_workspace.hpp"
#include "ec/ec.hpp"
#include "msm/booth.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

using ::testing::Not;

constexpr uint64_t gib = uint64_t{1} << 30;
constexpr uint64_t g1_bucket = sizeof(ec::xyzz<ec::g1_curve>);
constexpr uint64_t g2_bucket = sizeof(ec::xyzz<ec::g2_curve>);
constexpr uint64_t bn254_g1_bucket = sizeof(ec::xyzz<ec::bn254::g1_curve>);
constexpr uint64_t bn254_g2_bucket = sizeof(ec::xyzz<ec::bn254::g2_curve>);
constexpr msm_group all_groups[] = {msm_g1, msm_g2, msm_bn254_g1, msm_bn254_g2};

// Every count of a shorter chunk stays within the counts the layout was made for.
void expect_fits(const msm_shape& chunk, const msm_shape& full) {
  EXPECT_LE(chunk.n, full.n);
  EXPECT_EQ(chunk.window_bits, full.window_bits);
  EXPECT_EQ(chunk.key_bits, full.key_bits);
  EXPECT_EQ(chunk.segment_len, full.segment_len);
  EXPECT_LE(chunk.entries, full.entries);
  EXPECT_LE(chunk.accumulate_threads, full.accumulate_threads);
  EXPECT_LE(chunk.slots, full.slots);
  EXPECT_LE(chunk.ones_partials, full.ones_partials);
}

TEST(MsmPlan, ChunkCounts) {
  struct row {
    uint64_t n, limit, chunks, per, last;
  };
  const row rows[] = {
      {0, 1000, 1, 0, 0},          {1, 1000, 1, 1, 1},         {999, 1000, 1, 999, 999},
      {1000, 1000, 1, 1000, 1000}, {1001, 1000, 2, 1000, 1},   {4097, 777, 6, 777, 212},
      {3, 1, 3, 1, 1},             {50000, 777, 65, 777, 272}, {uint64_t{1} << 27, uint64_t{1} << 25, 4,
                                                                  uint64_t{1} << 25, uint64_t{1} << 25},
      {(uint64_t{1} << 32) - 1, uint64_t{1} << 25, 128, uint64_t{1} << 25, (uint64_t{1} << 25) - 1},
  };
  for (const row& r : rows) {
    for (bool split : {false, true}) {
      const auto s = make_msm_shape(r.n, 0, split, r.limit);
      ASSERT_THAT(s, IsOk()) << "n=" << r.n << ": " << s.error().to_string();
      EXPECT_EQ(s->total, r.n);
      EXPECT_EQ(s->chunks, r.chunks) << "n=" << r.n << " limit=" << r.limit;
      EXPECT_EQ(s->n, r.per) << "n=" << r.n << " limit=" << r.limit;
      EXPECT_EQ(s->last_n, r.last) << "n=" << r.n << " limit=" << r.limit;
      EXPECT_EQ((s->chunks - 1) * s->n + s->last_n, r.n);
      EXPECT_EQ(s->window_bits, msm_window_bits(r.per));
      EXPECT_EQ(s->entries, uint64_t(s->windows) * r.per);
      const msm_shape last = make_msm_chunk_shape(*s, s->last_n);
      EXPECT_EQ(last.n, r.last);
      EXPECT_EQ(last.entries, uint64_t(s->windows) * r.last);
      EXPECT_EQ(last.chunks, s->chunks);
      EXPECT_EQ(last.split, split);
      expect_fits(last, *s);
    }
  }
}

TEST(MsmPlan, ForcedWindowAppliesToEveryChunk) {
  const auto s = make_msm_shape(5000, 13, true, 1024);
  ASSERT_THAT(s, IsOk());
  EXPECT_EQ(s->window_bits, 13);
  EXPECT_EQ(s->chunks, 5u);
  EXPECT_EQ(make_msm_chunk_shape(*s, s->last_n).window_bits, 13);
}

// A forced narrow width fixes W = ceil(256 / c); the chunks shrink so that W x chunk < 2^31.
TEST(MsmPlan, ForcedNarrowWidthShortensChunks) {
  const uint64_t n = uint64_t{1} << 27;
  const auto s = make_msm_shape(n, 2, false, uint64_t{1} << 25);
  ASSERT_THAT(s, IsOk());
  EXPECT_EQ(s->windows, 128);
  EXPECT_EQ(s->n, ((uint64_t{1} << 31) - 1) / 128);
  EXPECT_LT(s->entries, uint64_t{1} << 31);
  EXPECT_EQ((s->chunks - 1) * s->n + s->last_n, n);
  const auto wide = make_msm_shape(n, 16, false, uint64_t{1} << 25);
  ASSERT_THAT(wide, IsOk());
  EXPECT_EQ(wide->n, uint64_t{1} << 25);  // 16 x 2^25 fits: the limit stands
}

TEST(MsmPlan, InputChecks) {
  EXPECT_THAT(make_msm_shape(uint64_t{1} << 32, 0, false, uint64_t{1} << 25), Not(IsOk()));
  EXPECT_THAT(make_msm_shape(16, 0, false, 0), Not(IsOk()));
  EXPECT_THAT(make_msm_shape(uint64_t{1} << 31, 0, false, uint64_t{1} << 31), Not(IsOk()));  // n per chunk
  EXPECT_THAT(make_msm_shape(uint64_t{1} << 28, 0, false, uint64_t{1} << 28), Not(IsOk()));  // W * n
  EXPECT_THAT(make_msm_shape(16, msm_max_window_bits + 1, false, 16), Not(IsOk()));
  EXPECT_THAT(make_msm_shape(uint64_t{1} << 31, 0, false, uint64_t{1} << 25), IsOk());
  EXPECT_THAT(make_msm_shape((uint64_t{1} << 32) - 1, 0, true, uint64_t{1} << 24), IsOk());
}

// The sort's buffers lie as two pairs, [keys, vals] and [keys_alt, vals_alt], of pair_bytes each; a
// chunked plain MSM's pair holds a bucket array (its later chunks' buckets go to the pair the sort
// left unused). H's chunks under the VRAM plans (G1, 2^23 to 2^25 points) need no more bytes for it.
TEST(MsmPlan, SortPairsHoldTheLaterBuckets) {
  struct row {
    uint64_t n, limit, bucket_bytes;
    bool split;
  };
  const row rows[] = {{50003, 777, g1_bucket, false}, {50003, 777, g2_bucket, false}, {50003, 777, g1_bucket, true},
                      {999, 1000, g1_bucket, false},  {uint64_t{1} << 27, uint64_t{1} << 25, g1_bucket, false},
                      {uint64_t{1} << 27, uint64_t{1} << 24, g1_bucket, false},
                      {uint64_t{1} << 27, uint64_t{1} << 23, g1_bucket, false},
                      {uint64_t{1} << 27, uint64_t{1} << 24, g2_bucket, false},
                      {50003, 777, bn254_g1_bucket, false},  {50003, 777, bn254_g2_bucket, false},
                      {uint64_t{1} << 27, uint64_t{1} << 23, bn254_g1_bucket, false},
                      {uint64_t{1} << 27, uint64_t{1} << 24, bn254_g2_bucket, false}};
  for (const row& r : rows) {
    const auto s = make_msm_shape(r.n, 0, r.split, r.limit);
    ASSERT_THAT(s, IsOk());
    const msm_layout l = make_msm_plan(*s, r.bucket_bytes, 4096, 4096).layout;
    const uint64_t keys = (4 * s->entries + 255) / 256 * 256;
    const uint64_t array = r.bucket_bytes * s->windows * s->buckets_per_window;
    EXPECT_EQ(l.vals, l.keys + keys);
    EXPECT_EQ(l.keys_alt, l.keys + l.pair_bytes);
    EXPECT_EQ(l.vals_alt, l.keys_alt + keys);
    EXPECT_LE(l.vals_alt + (l.pair_bytes - keys), l.sort_temp);
    EXPECT_EQ(l.pair_bytes % 256, 0u);
    if (!r.split && s->chunks > 1) {
      EXPECT_GE(l.pair_bytes, array) << "n=" << r.n << " limit=" << r.limit;
    }
    if (r.split || s->chunks == 1 || (r.bucket_bytes <= g1_bucket && s->n >= (uint64_t{1} << 23))) {
      EXPECT_EQ(l.pair_bytes, 2 * keys) << "n=" << r.n << " limit=" << r.limit;
    }
  }
}

// The layout without CUB's temp storage (a few MiB at these sizes) under the default limits.
TEST(MsmPlan, DefaultChunksBoundTheLayout) {
  for (int log_n : {24, 26, 27, 28}) {
    const uint64_t n = uint64_t{1} << log_n;
    for (bool split : {false, true}) {
      const auto s1 = make_msm_shape(n, 0, split, msm_tuning_sm90.max_chunk_points_g1);
      const auto s2 = make_msm_shape(n, 0, split, msm_tuning_sm90.max_chunk_points_g2);
      ASSERT_TRUE(s1.ok() && s2.ok());
      const uint64_t b1 = make_msm_plan(*s1, g1_bucket, 0, 0).layout.total;
      const uint64_t b2 = make_msm_plan(*s2, g2_bucket, 0, 0).layout.total;
      std::printf("2^%d %s: G1 %llu x 2^%d points c=%d %.2f GiB, G2 %llu x 2^%d points c=%d %.2f GiB\n", log_n,
                  split ? "split" : "plain", (unsigned long long)s1->chunks, __builtin_ctzll(s1->n),
                  s1->window_bits, double(b1) / gib, (unsigned long long)s2->chunks, __builtin_ctzll(s2->n),
                  s2->window_bits, double(b2) / gib);
      // The split MSM's index lists cover all n points (8 bytes each) beside one chunk's layout.
      const uint64_t lists = split ? 8 * n : 0;
      EXPECT_LT(b1, 12 * gib + lists);
      EXPECT_LT(b2, 12 * gib + lists);
    }
  }
}

// The split MSM below 2^31 points in at most split_select_all_max_chunks chunks selects over all of
// them (its index lists sized for n); past either limit each chunk selects its own.
TEST(MsmPlan, SplitSelectsOverAllPointsBelow2e31) {
  const auto s = make_msm_shape(uint64_t{1} << 27, 0, true, uint64_t{1} << 25);
  ASSERT_THAT(s, IsOk());
  EXPECT_TRUE(s->select_all);
  EXPECT_EQ(s->select_n, uint64_t{1} << 27);
  EXPECT_EQ(s->ones_partials, (uint64_t{1} << 27) / msm_tuning_sm90.ones_chunk);
  const msm_plan p = make_msm_plan(*s, g1_bucket, 0, 0);
  EXPECT_GE(p.layout.idx_others - p.layout.idx_ones, 4 * s->select_n);
  const auto big = make_msm_shape(uint64_t{1} << 31, 0, true, uint64_t{1} << 25);
  ASSERT_THAT(big, IsOk());
  EXPECT_FALSE(big->select_all);
  EXPECT_EQ(big->select_n, uint64_t{1} << 25);
  const auto plain = make_msm_shape(uint64_t{1} << 27, 0, false, uint64_t{1} << 25);
  ASSERT_THAT(plain, IsOk());
  EXPECT_FALSE(plain->select_all);
  // Small chunks (a tight VRAM budget): one chunk's lists, so the workspace stays one chunk's.
  const uint64_t most = msm_tuning_sm90.split_select_all_max_chunks;
  const auto small = make_msm_shape(uint64_t{1} << 27, 0, true, (uint64_t{1} << 27) / (2 * most));
  ASSERT_THAT(small, IsOk());
  EXPECT_EQ(small->chunks, 2 * most);
  EXPECT_FALSE(small->select_all);
  EXPECT_EQ(small->select_n, small->n);
  const auto edge = make_msm_shape(most * 1000, 0, true, 1000);
  ASSERT_THAT(edge, IsOk());
  EXPECT_TRUE(edge->select_all);
  const auto past = make_msm_shape(most * 1000 + 1, 0, true, 1000);
  ASSERT_THAT(past, IsOk());
  EXPECT_FALSE(past->select_all);
}

// A streamed split MSM's chunks select their own points (msm_config::streamed): one chunk's lists
// even where the resident MSM selects over all its points, and a workspace smaller by the rest of
// them (B_G1 of a 2^27 PoRep key: 32.6M points in two 2^24-point chunks), the counts otherwise the
// same; a random size and chunk each run.
TEST(MsmPlan, StreamedSplitSelectsChunkByChunk) {
  std::mt19937_64 rng(pp::test::test_seed());
  const uint64_t chunk = uint64_t{1} << (12 + rng() % 4);
  const uint64_t n = chunk + 1 + rng() % ((msm_tuning_sm90.split_select_all_max_chunks - 1) * chunk);
  SCOPED_TRACE("n " + std::to_string(n) + ", chunks of " + std::to_string(chunk));
  for (const auto& [points, limit] : {std::pair{uint64_t{32'600'000}, uint64_t{1} << 24}, std::pair{n, chunk}}) {
    const auto resident = make_msm_shape(points, 0, true, limit);
    const auto streamed = make_msm_shape(points, 0, true, limit, {}, msm_tuning_sm90, true);
    ASSERT_THAT(resident, IsOk());
    ASSERT_THAT(streamed, IsOk());
    EXPECT_TRUE(resident->select_all);
    EXPECT_FALSE(streamed->select_all);
    EXPECT_EQ(streamed->select_n, streamed->n);
    EXPECT_EQ(streamed->n, resident->n);
    EXPECT_EQ(streamed->chunks, resident->chunks);
    EXPECT_EQ(streamed->window_bits, resident->window_bits);
    EXPECT_EQ(streamed->entries, resident->entries);
    msm_config c{0, limit};
    const auto whole = gpu_msm_workspace_bytes(points, true, c, msm_g1);
    c.streamed = true;
    const auto own = gpu_msm_workspace_bytes(points, true, c, msm_g1);
    ASSERT_THAT(whole, IsOk());
    ASSERT_THAT(own, IsOk());
    EXPECT_GE(*whole, *own + 8 * (points - streamed->n));
  }
  // Plain MSMs select nothing: the same plan either way.
  msm_config c{0, uint64_t{1} << 24};
  const auto plain = gpu_msm_workspace_bytes(32'600'000, false, c, msm_g1);
  c.streamed = true;
  const auto plain_streamed = gpu_msm_workspace_bytes(32'600'000, false, c, msm_g1);
  ASSERT_THAT(plain, IsOk());
  ASSERT_THAT(plain_streamed, IsOk());
  EXPECT_EQ(*plain_streamed, *plain);
}

// A pass of the selected split MSM over len points takes the table's width for len whenever it fits
// the layout (a forced width always stays), and every pass fits the layout.
TEST(MsmPlan, SelectedPassesFitTheLayout) {
  struct row {
    uint64_t total, limit;
    int forced;
  };
  const row rows[] = {{uint64_t{1} << 27, uint64_t{1} << 25, 0}, {uint64_t{1} << 27, uint64_t{1} << 24, 0},
                      {50003, 1000, 0}, {50003, 777, 0}, {4097, 1, 0}, {5000, 1024, 13}, {1 << 20, 1 << 20, 0}};
  for (const row& r : rows) {
    const auto s = make_msm_shape(r.total, r.forced, true, r.limit);
    ASSERT_THAT(s, IsOk());
    for (uint64_t len : {uint64_t{0}, uint64_t{1}, uint64_t{2}, s->n / 3, s->n / 2, s->n - 1, s->n, s->n + 5,
                         uint64_t{13} << 20, uint64_t{3} << 20}) {
      const msm_shape pass = make_msm_selected_pass(*s, len);
      const uint64_t want_n = len < s->n ? len : s->n;
      EXPECT_EQ(pass.n, want_n) << "total=" << r.total << " len=" << len;
      EXPECT_TRUE(msm_pass_fits(*s, pass)) << "total=" << r.total << " len=" << len;
      EXPECT_FALSE(pass.split);
      if (r.forced != 0) {
        EXPECT_EQ(pass.window_bits, r.forced);
      } else if (pass.window_bits != msm_window_bits(want_n)) {
        EXPECT_EQ(pass.window_bits, s->window_bits) << "total=" << r.total << " len=" << len;
      }
    }
  }
  // The PoRep L / A shape: ~13M others of 2^27 take the 2^24 width, ~3M the 2^22 width.
  const auto s = make_msm_shape(uint64_t{1} << 27, 0, true, uint64_t{1} << 25);
  ASSERT_THAT(s, IsOk());
  EXPECT_EQ(make_msm_selected_pass(*s, 13000000).window_bits, msm_window_bits(13000000));
  EXPECT_EQ(make_msm_selected_pass(*s, 3000000).window_bits, msm_window_bits(3000000));
}

// A streamed split MSM's chunks carry their buckets at the cheapest width (points' additions, a
// merge a later chunk, one reduction) between the table's for the largest chunk's and for all
// selected points whose pass fits the layout and whose bucket array fits the sort pair. At the
// PoRep budgets' chunks (8 to 16 of them, ~10% of the points selected) the merges make c = 16 the
// cheapest (c = 20 at 24 GiB: 7 merges of 6.8M buckets); with two chunks of many selected points
// the wider width wins; with small G2 chunks the buckets never fit (window_bits 0: each chunk
// reduces its own); a forced width is the only one.
TEST(MsmPlan, CarriedPassesFitTheLayoutAndThePair) {
  struct row {
    uint64_t total, limit, bucket_bytes, others, most;
    int forced, want;  // want: the width expected, 0 none
  };
  const uint64_t m = uint64_t{1} << 20;
  const row rows[] = {
      // 16 GiB: B_G2 (2^25 points in 2^22-point chunks, ~11% others), L (G1, 2^23-point chunks).
      {uint64_t{1} << 25, uint64_t{1} << 22, g2_bucket, 3600000, 460000, 0, 16},
      {uint64_t{1} << 27, uint64_t{1} << 23, g1_bucket, 13 * m, 900000, 0, 16},
      // 24 GiB: B_G2 in 2^23-point chunks, L in 2^24-point chunks.
      {uint64_t{1} << 25, uint64_t{1} << 23, g2_bucket, 3600000, 920000, 0, 16},
      {uint64_t{1} << 27, uint64_t{1} << 24, g1_bucket, 13 * m, 1800000, 0, 16},
      // Two chunks, half their points selected: c = 20 (13 windows) over 19 (14).
      {uint64_t{1} << 25, uint64_t{1} << 24, g1_bucket, uint64_t{1} << 24, uint64_t{1} << 23, 0, 20},
      {50003, 777, g2_bucket, 50003, 777, 0, 0},
      {30007, 5000, g2_bucket, 20007, 5000, 6, 6},
      {30007, 5000, g1_bucket, 20007, 5000, 11, 0},
  };
  for (const row& r : rows) {
    const auto s = make_msm_shape(r.total, r.forced, true, r.limit);
    ASSERT_THAT(s, IsOk());
    const msm_plan plan = make_msm_plan(*s, r.bucket_bytes, 0, 0);
    const msm_shape pass = make_msm_carried_pass(plan, r.bucket_bytes, r.others, r.most);
    EXPECT_EQ(pass.window_bits, r.want) << "total=" << r.total << " limit=" << r.limit << " others=" << r.others;
    const auto array = [&](int c) {
      return r.bucket_bytes * uint64_t(msm::num_windows(c)) * (uint64_t{1} << (c - 1));
    };
    if (pass.window_bits == 0) continue;
    EXPECT_EQ(pass.n, r.most);
    EXPECT_FALSE(pass.split);
    EXPECT_TRUE(msm_pass_fits(*s, pass));
    EXPECT_LE(array(pass.window_bits), plan.layout.pair_bytes);
    // A vector of msm_streamed_vectors carries its buckets in its own state: the carried array fits
    // the state's full size; given less, the pass fits that or there is none.
    const msm_vector_layout v = make_msm_vector_layout(plan, r.bucket_bytes);
    EXPECT_LE(array(pass.window_bits), v.total - v.buckets);
    const uint64_t capacity = array(pass.window_bits) - 1;
    const msm_shape capped = make_msm_carried_pass(plan, r.bucket_bytes, r.others, r.most, msm_tuning_sm90, capacity);
    if (capped.window_bits != 0) {
      EXPECT_LE(array(capped.window_bits), capacity);
    }
    EXPECT_GE(pass.window_bits, r.forced != 0 ? r.forced : msm_window_bits(r.most));
    EXPECT_LE(pass.window_bits, r.forced != 0 ? r.forced : msm_window_bits(r.others));
    // Every chunk's pass at that width fits too.
    for (uint64_t len : {uint64_t{0}, uint64_t{1}, r.most / 2}) {
      EXPECT_TRUE(msm_pass_fits(*s, make_msm_chunk_shape(pass, len)));
    }
    // Partitions taken together (k = 3, six where the budgets allow) reduce their vectors together.
    EXPECT_TRUE(reductions_fit_together(plan, pass, 6, r.bucket_bytes, v.total - v.buckets)) << "total=" << r.total;
  }
}

// Which vectors' reductions share one launch a kernel: those of one reduction shape, two to 65535
// (the grid's y), whose running sums fit the workspace's bucket array (every vector's) and each
// vector's own buckets.
TEST(MsmPlan, ReductionsTogether) {
  const auto s = make_msm_shape(uint64_t{1} << 24, 0, true, uint64_t{1} << 24);
  ASSERT_THAT(s, IsOk());
  const msm_plan plan = make_msm_plan(*s, g1_bucket, 0, 0);
  EXPECT_TRUE(same_reduction(*s, *s));
  EXPECT_TRUE(same_reduction(*s, make_msm_chunk_shape(*s, 1000))) << "a shorter chunk reduces alike";
  const auto narrower = make_msm_shape(uint64_t{1} << 24, s->window_bits - 1, true, uint64_t{1} << 24);
  ASSERT_THAT(narrower, IsOk());
  EXPECT_FALSE(same_reduction(*s, *narrower));

  const uint64_t area = 2 * g1_bucket * s->windows * s->segments_per_window;
  EXPECT_EQ(2 * g1_bucket * running_sum_buckets(*s), area);
  EXPECT_GE(plan.layout.seg_s[0] - plan.layout.seg_t[0], area / 2) << "the workspace's T area holds them";
  const uint64_t array = g1_bucket * s->windows * s->buckets_per_window;
  const uint64_t most = array / area;  // vectors whose first areas fit the bucket array
  ASSERT_GE(most, 2u);
  EXPECT_FALSE(reductions_fit_together(plan, *s, 1, g1_bucket, UINT64_MAX)) << "one vector reduces alone";
  EXPECT_TRUE(reductions_fit_together(plan, *s, 2, g1_bucket, UINT64_MAX));
  EXPECT_TRUE(reductions_fit_together(plan, *s, std::min<uint64_t>(most, 65535), g1_bucket, UINT64_MAX));
  EXPECT_FALSE(reductions_fit_together(plan, *s, most + 1, g1_bucket, UINT64_MAX));
  EXPECT_FALSE(reductions_fit_together(plan, *s, 65536, g1_bucket, UINT64_MAX));
  EXPECT_TRUE(reductions_fit_together(plan, *s, 2, g1_bucket, area)) << "a vector's own buckets hold its area";
  EXPECT_FALSE(reductions_fit_together(plan, *s, 2, g1_bucket, area - 1));

  // Width 2: one segment of the two buckets a window, as large as the array itself; nothing to share.
  const auto tiny = make_msm_shape(1000, 2, true, 1000);
  ASSERT_THAT(tiny, IsOk());
  EXPECT_FALSE(reductions_fit_together(make_msm_plan(*tiny, g2_bucket, 0, 0), *tiny, 2, g2_bucket, UINT64_MAX));
}

// The accumulation's threads fill whole waves where there is more than one: fewer threads than the
// layout's slots hold, each with less than twice the tuning's entries, covering every entry.
TEST(MsmPlan, AccumulationFillsWholeWaves) {
  const uint64_t base = msm_tuning_sm90.accumulate_chunk;
  // An H100's G1 accumulation: 132 SMs x 3 blocks of 128. A 2^23-point streamed chunk's 838,861
  // selected points at 16 windows: 410 blocks of 256 entries a thread, one wave and 14 blocks.
  const uint64_t h100 = 132 * 3 * 128, chunk_entries = uint64_t{838861} * 16;
  const uint32_t c = accumulate_chunk_for(chunk_entries, h100);
  EXPECT_EQ(c, 265u);
  EXPECT_LE((chunk_entries + c - 1) / c, h100);
  // G1 2^26 at 2^25-point chunks, 13 windows: 33.6 waves, a last wave too full to spread.
  EXPECT_EQ(accumulate_chunk_for((uint64_t{1} << 25) * 13, h100), base);
  // Unknown device, less than a wave, whole waves already: the tuning's.
  EXPECT_EQ(accumulate_chunk_for(chunk_entries, 0), base);
  EXPECT_EQ(accumulate_chunk_for(h100 * base - 1, h100), base);
  EXPECT_EQ(accumulate_chunk_for(3 * h100 * base, h100), base);
  EXPECT_EQ(accumulate_chunk_for(0, h100), base);
  std::mt19937_64 rng = pp::test::seeded_rng();
  for (int i = 0; i < 20000; ++i) {
    const uint64_t wave = 1 + rng() % 100000, entries = rng() % (uint64_t{1} << (20 + rng() % 12));
    const uint64_t chunk = accumulate_chunk_for(entries, wave);
    const uint64_t threads = (entries + chunk - 1) / chunk, plain = (entries + base - 1) / base;
    ASSERT_GE(chunk, base);
    ASSERT_LT(chunk, 2 * base) << entries << " entries, wave " << wave;
    ASSERT_LE(threads, plain) << entries << " entries, wave " << wave;
    ASSERT_GE(threads * chunk, entries);
    // Spread only a last wave at most a quarter full, over the whole waves before it.
    const uint64_t waves = (threads + wave - 1) / wave;
    if (chunk != base) {
      ASSERT_GE(plain, wave);
      ASSERT_LE(plain % wave, wave / 4) << entries << " entries, wave " << wave;
      ASSERT_LE(waves, plain / wave) << entries << " entries, wave " << wave;
    } else if (plain > wave && plain % wave != 0) {
      ASSERT_GT(plain % wave, wave / 4) << entries << " entries, wave " << wave;
    }
  }
}

// The scalar-1 sum's threads: whole waves for half the points, within the layout's partial sums.
TEST(MsmPlan, OnesSumThreads) {
  const uint64_t ones = msm_tuning_sm90.ones_chunk, wave = 132 * 3 * 128;
  EXPECT_EQ(ones_threads_for(uint64_t{1} << 23, 0), (uint64_t{1} << 23) / ones);
  EXPECT_EQ(ones_threads_for(uint64_t{1} << 23, wave), wave);
  EXPECT_EQ(ones_threads_for(uint64_t{1} << 27, wave), 21 * wave);
  EXPECT_EQ(ones_threads_for(0, wave), 1u);
  EXPECT_EQ(ones_threads_for(1000, wave), (1000 + ones - 1) / ones);
  std::mt19937_64 rng = pp::test::seeded_rng();
  for (int i = 0; i < 20000; ++i) {
    const uint64_t w = 1 + rng() % 100000, n = rng() % (uint64_t{1} << (10 + rng() % 22));
    const uint64_t upper = n > 0 ? (n + ones - 1) / ones : 1, t = ones_threads_for(n, w);
    ASSERT_GE(t, 1u);
    ASSERT_LE(t, upper) << n << " points, wave " << w;
    if (t != upper) {
      ASSERT_EQ(t % w, 0u) << n << " points, wave " << w;
    }
  }
}

// A vector's state (msm_streamed_vectors): a packed vector's chunk of scalars, the scalar-1 sum, the
// result, then the buckets, the plan's array (plain MSMs carry at the plan's width), each 256-aligned:
// at 2^27 points in the chunks a 16 GiB plan streams (2^23 points, 19-bit windows) 672 MiB for G1,
// 1344 MiB for G2, 256 MiB more for a packed vector's scalars.
TEST(MsmPlan, VectorLayout) {
  for (const msm_group& g : all_groups) {
    for (bool split : {false, true}) {
      for (uint64_t n : {uint64_t{1}, uint64_t{30007}, uint64_t{1} << 27}) {
        const auto plan = plan_gpu_msm(n, split, {.max_chunk_points = uint64_t{1} << 23}, g);
        ASSERT_THAT(plan, IsOk());
        const msm_vector_layout v = make_msm_vector_layout(*plan, g.bucket_bytes);
        const uint64_t array = g.bucket_bytes * plan->shape.windows * plan->shape.buckets_per_window;
        EXPECT_EQ(v.scalars, 0u);
        EXPECT_EQ(v.ones, 0u);
        EXPECT_GE(v.result, v.ones + g.bucket_bytes);
        EXPECT_GE(v.buckets, v.result + g.bucket_bytes);
        EXPECT_GE(v.total, v.buckets + array);
        for (uint64_t at : {v.result, v.buckets, v.total}) EXPECT_EQ(at % 256, 0u);
        EXPECT_LE(v.total, array + 1024);
        const msm_vector_layout packed = make_msm_vector_layout(*plan, g.bucket_bytes, 32);
        EXPECT_GE(packed.ones, 32 * plan->shape.n);
        EXPECT_EQ(packed.total - packed.ones, v.total);
        std::printf("%s n=%llu %s: %d-bit windows, a vector's state %.1f MiB\n", g.name, (unsigned long long)n,
                    split ? "split" : "plain", plan->shape.window_bits, double(v.total) / (1 << 20));
      }
    }
  }
}

void expect_workspace_bounded(uint64_t n, msm_group g) {
  for (bool split : {false, true}) {
    const auto bytes = gpu_msm_workspace_bytes(n, split, {}, g);
    ASSERT_THAT(bytes, IsOk());
    std::printf("%s n=%llu %s: workspace %.2f GiB\n", g.name, (unsigned long long)n, split ? "split" : "plain",
                double(*bytes) / gib);
    EXPECT_LT(*bytes, 12 * gib + (split && n < (uint64_t{1} << 31) ? 8 * n : 0));
  }
}

TEST(MsmPlan, WorkspaceBytesAtPoRepSizes) {
  for (int log_n : {27, 28}) {
    for (const msm_group& g : all_groups) expect_workspace_bounded(uint64_t{1} << log_n, g);
  }
}

// Each group's sizes are its curve's host types' (msm_run.cuh checks the kernels' against them too).
static_assert(msm_g1.point_bytes == sizeof(ec::affine<ec::g1_curve>) && msm_g1.bucket_bytes == g1_bucket);
static_assert(msm_g2.point_bytes == sizeof(ec::affine<ec::g2_curve>) && msm_g2.bucket_bytes == g2_bucket);
static_assert(msm_bn254_g1.point_bytes == sizeof(ec::affine<ec::bn254::g1_curve>) &&
              msm_bn254_g1.bucket_bytes == bn254_g1_bucket);
static_assert(msm_bn254_g2.point_bytes == sizeof(ec::affine<ec::bn254::g2_curve>) &&
              msm_bn254_g2.bucket_bytes == bn254_g2_bucket);

// BN254's groups: 64 / 128-byte points and 128 / 256-byte buckets (4 x 64-bit limbs a coordinate),
// BLS12-381's chunk limits for the same field degree, so the same shape at every n; the layout's
// bucket arrays are those of BN254's buckets, and its workspace at most BLS12-381's.
TEST(MsmPlan, Bn254Groups) {
  EXPECT_EQ(msm_bn254_g1.point_bytes, 64u);
  EXPECT_EQ(msm_bn254_g1.bucket_bytes, 128u);
  EXPECT_EQ(msm_bn254_g2.point_bytes, 128u);
  EXPECT_EQ(msm_bn254_g2.bucket_bytes, 256u);
  EXPECT_EQ(msm_chunk_limit({}, msm_bn254_g1), msm_tuning_sm90.max_chunk_points_g1);
  EXPECT_EQ(msm_chunk_limit({}, msm_bn254_g2), msm_tuning_sm90.max_chunk_points_g2);
  EXPECT_EQ(msm_chunk_limit({0, 777}, msm_bn254_g2), 777u);
  for (const auto& [bls, bn] : {std::pair{msm_g1, msm_bn254_g1}, std::pair{msm_g2, msm_bn254_g2}}) {
    for (const bool split : {false, true}) {
      for (const uint64_t n : {uint64_t{0}, uint64_t{1}, uint64_t{1000}, (uint64_t{1} << 20) + 7, uint64_t{1} << 27,
                               (uint64_t{1} << 28) + 1}) {
        SCOPED_TRACE(std::string(bn.name) + " n=" + std::to_string(n) + (split ? " split" : " plain"));
        const auto a = plan_gpu_msm(n, split, {}, bls);
        const auto b = plan_gpu_msm(n, split, {}, bn);
        ASSERT_THAT(a, IsOk());
        ASSERT_THAT(b, IsOk());
        EXPECT_EQ(b->shape.chunks, a->shape.chunks);
        EXPECT_EQ(b->shape.n, a->shape.n);
        EXPECT_EQ(b->shape.window_bits, a->shape.window_bits);
        const msm_layout& l = b->layout;
        const uint64_t buckets = uint64_t(b->shape.windows) * b->shape.buckets_per_window;
        EXPECT_GE(l.slot_keys - l.buckets, bn.bucket_bytes * buckets);
        EXPECT_LT(l.slot_keys - l.buckets, bn.bucket_bytes * buckets + 256);
        EXPECT_GE(l.chunk_result - l.result, bn.bucket_bytes);
        EXPECT_LE(l.total, a->layout.total);
        const auto bytes = gpu_msm_workspace_bytes(n, split, {}, bn);
        ASSERT_THAT(bytes, IsOk());
        EXPECT_EQ(*bytes, l.total);
      }
    }
  }
}

// Precomputed copies: the modelled width and group windows, clamps, the shape they give (buckets for
// group_windows windows, entries for every digit, chunks keep them) and the refusals.
TEST(MsmPlan, Precomputation) {
  const uint64_t n = uint64_t{1} << 24;
  // One copy per digit: one window of buckets; by the model c = 22 (12 digits: 201.3M additions +
  // 2.8 x 2^21 for the buckets) beats c = 24 (11 digits: 184.5M + 2.8 x 2^23) and c = 20 (13 digits).
  const auto full = make_msm_precomputation(n, 1000);
  ASSERT_THAT(full, IsOk());
  EXPECT_EQ(full->window_bits, 22);
  EXPECT_EQ(full->group_windows, 1);
  EXPECT_EQ(full->groups, 12u);
  EXPECT_EQ(full->stride, n);
  // At 2^26 the additions weigh more: c = 24, 11 copies.
  const auto full26 = make_msm_precomputation(uint64_t{1} << 26, 1000);
  ASSERT_THAT(full26, IsOk());
  EXPECT_EQ(full26->window_bits, 24);
  EXPECT_EQ(full26->groups, 11u);
  // Two copies: the table's width still wins (half the windows' buckets is not enough for c = 22).
  const auto two = make_msm_precomputation(n, 2);
  ASSERT_THAT(two, IsOk());
  EXPECT_EQ(two->groups, 2u);
  EXPECT_EQ(two->window_bits, msm_window_bits(n));
  EXPECT_EQ(two->group_windows, (msm::num_windows(two->window_bits) + 1) / 2);
  // Groups shrink to ceil(D / group_windows): 26 digits at c = 10 in groups of 7 are 4 copies.
  const auto five = make_msm_precomputation(1000, 5, 10);
  ASSERT_THAT(five, IsOk());
  EXPECT_EQ(five->group_windows, 6);
  EXPECT_EQ(five->groups, 5u);
  const auto four = make_msm_precomputation(1000, 4, 10);
  ASSERT_THAT(four, IsOk());
  EXPECT_EQ(four->group_windows, 7);
  EXPECT_EQ(four->groups, 4u);
  // One copy is no precomputation.
  const auto one = make_msm_precomputation(1000, 1);
  ASSERT_THAT(one, IsOk());
  EXPECT_EQ(one->groups, 1u);
  EXPECT_THAT(make_msm_precomputation(0, 4), Not(IsOk()));
  EXPECT_THAT(make_msm_precomputation(uint64_t{1} << 31, 4), Not(IsOk()));
  EXPECT_THAT(make_msm_precomputation(1000, 4, msm_max_window_bits + 1), Not(IsOk()));
  EXPECT_THAT(make_msm_precomputation(uint64_t{1} << 28, 16), Not(IsOk()));  // 12 x 2^28 >= 2^31

  const auto s = make_msm_shape(n, 0, false, uint64_t{1} << 25, *full);
  ASSERT_THAT(s, IsOk());
  EXPECT_EQ(s->window_bits, 22);
  EXPECT_EQ(s->digits, 12);
  EXPECT_EQ(s->windows, 1);
  EXPECT_EQ(s->group_stride, n);
  EXPECT_EQ(s->entries, uint64_t(s->digits) * n);
  EXPECT_EQ(s->key_bits, 22);  // sentinel 2^21 needs 22 bits
  EXPECT_TRUE(s->forced_width);
  const auto chunked = make_msm_shape(n, 0, false, uint64_t{1} << 22, *full);
  ASSERT_THAT(chunked, IsOk());
  EXPECT_EQ(chunked->chunks, 4u);
  const msm_shape last = make_msm_chunk_shape(*chunked, 1000);
  EXPECT_EQ(last.windows, 1);
  EXPECT_EQ(last.group_stride, n);
  expect_fits(last, *chunked);
  EXPECT_TRUE(msm_pass_fits(*chunked, last));
  // The plain shape is unchanged: digits = windows, no stride.
  const auto plain = make_msm_shape(n, 0, false, uint64_t{1} << 25);
  ASSERT_THAT(plain, IsOk());
  EXPECT_EQ(plain->digits, plain->windows);
  EXPECT_EQ(plain->group_stride, 0u);

  EXPECT_THAT(make_msm_shape(n, 0, true, uint64_t{1} << 25, *full), Not(IsOk()));  // split
  EXPECT_THAT(make_msm_shape(n, 20, false, uint64_t{1} << 25, *full), Not(IsOk()));  // other width
  EXPECT_THAT(make_msm_shape(n, 22, false, uint64_t{1} << 25, *full), IsOk());
  EXPECT_THAT(make_msm_shape(n + 1, 0, false, uint64_t{1} << 25, *full), Not(IsOk()));  // stride < n
  msm_precomputation few = *full;
  few.groups = 11;
  EXPECT_THAT(make_msm_shape(n, 0, false, uint64_t{1} << 25, few), Not(IsOk()));  // 11 of 12 digits
  msm_precomputation wide = *full;
  wide.stride = uint64_t{1} << 28;
  EXPECT_THAT(make_msm_shape(n, 0, false, uint64_t{1} << 25, wide), Not(IsOk()));  // indices past 2^31
  EXPECT_THAT(check_msm_precomputation(msm_precomputation{}, n), Not(IsOk()));
  EXPECT_THAT(check_msm_precomputation(*full, n), IsOk());
}

}  // namespace
}  // namespace pp::cuda::test
