// GPU MSM plan (src/cuda/msm_plan.hpp, msm_device.hpp): chunk counts and shapes, the workspace of
// the PoRep sizes (2^27, 2^28 points) for G1 and G2 under the default chunk limits, and input
// checks. Host only: the shape and layout need no device; msm_workspace_bytes also queries CUB's
// temp sizes, which some CUDA versions refuse without a device (those cases skip then).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>

#include "cuda/msm_device.hpp"
#include "cuda/msm_plan.hpp"
#include "ec/ec.hpp"
#include "support/status_matchers.hpp"

namespace pp::cuda::test {
namespace {

using ::testing::Not;

constexpr uint64_t gib = uint64_t{1} << 30;
constexpr uint64_t g1_bucket = sizeof(ec::xyzz<ec::g1_curve>);
constexpr uint64_t g2_bucket = sizeof(ec::xyzz<ec::g2_curve>);

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

TEST(msm_plan, ChunkCounts) {
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

TEST(msm_plan, ForcedWindowAppliesToEveryChunk) {
  const auto s = make_msm_shape(5000, 13, true, 1024);
  ASSERT_THAT(s, IsOk());
  EXPECT_EQ(s->window_bits, 13);
  EXPECT_EQ(s->chunks, 5u);
  EXPECT_EQ(make_msm_chunk_shape(*s, s->last_n).window_bits, 13);
}

// A forced narrow width fixes W = ceil(256 / c); the chunks shrink so that W x chunk < 2^31.
TEST(msm_plan, ForcedNarrowWidthShortensChunks) {
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

TEST(msm_plan, InputChecks) {
  EXPECT_THAT(make_msm_shape(uint64_t{1} << 32, 0, false, uint64_t{1} << 25), Not(IsOk()));
  EXPECT_THAT(make_msm_shape(16, 0, false, 0), Not(IsOk()));
  EXPECT_THAT(make_msm_shape(uint64_t{1} << 31, 0, false, uint64_t{1} << 31), Not(IsOk()));  // n per chunk
  EXPECT_THAT(make_msm_shape(uint64_t{1} << 28, 0, false, uint64_t{1} << 28), Not(IsOk()));  // W * n
  EXPECT_THAT(make_msm_shape(16, msm_max_window_bits + 1, false, 16), Not(IsOk()));
  EXPECT_THAT(make_msm_shape(uint64_t{1} << 31, 0, false, uint64_t{1} << 25), IsOk());
  EXPECT_THAT(make_msm_shape((uint64_t{1} << 32) - 1, 0, true, uint64_t{1} << 24), IsOk());
}

// The layout without CUB's temp storage (a few MiB at these sizes) under the default limits.
TEST(msm_plan, DefaultChunksBoundTheLayout) {
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
      EXPECT_LT(b1, 12 * gib);
      EXPECT_LT(b2, 12 * gib);
    }
  }
}

template <class Curve>
void expect_workspace_bounded(uint64_t n) {
  for (bool split : {false, true}) {
    const auto bytes = split ? split_msm_workspace_bytes<Curve>(n) : msm_workspace_bytes<Curve>(n);
    if (!bytes.ok() && bytes.error().to_string().find("CUDA") != std::string::npos) {
      GTEST_SKIP() << "CUB's size query needs a device here: " << bytes.error().to_string();
    }
    ASSERT_THAT(bytes, IsOk());
    std::printf("%s n=%llu %s: workspace %.2f GiB\n", Curve::name, (unsigned long long)n, split ? "split" : "plain",
                double(*bytes) / gib);
    EXPECT_LT(*bytes, 12 * gib);
  }
}

TEST(msm_plan, WorkspaceBytesAtPoRepSizes) {
  for (int log_n : {27, 28}) {
    expect_workspace_bounded<ec::g1_curve>(uint64_t{1} << log_n);
    expect_workspace_bounded<ec::g2_curve>(uint64_t{1} << log_n);
  }
}

}  // namespace
}  // namespace pp::cuda::test
