// GPU NTT pass plans (src/cuda/plan/ntt_plan.hpp): for every size 2^0..2^28 and every tile shape the
// kernels take, the passes cover the stages exactly once in order, fit their tile and read whole
// rows; the same inside the shared memory per block of other cards (99 KiB on sm_86, sm_89 and
// sm_120); the sm_90 default's 2^27 plan; argument errors. Host only: no device needed.
#include <gtest/gtest.h>

#include <string>

#include "cuda/plan/ntt_plan.hpp"
#include "support/status_matchers.hpp"

namespace pp::cuda::test {
namespace {

void expect_valid(const ntt_plan& p, int log_n, const ntt_tuning& t) {
  const std::string what = "2^" + std::to_string(log_n) + " tile " + std::to_string(t.tile_log) + " T " +
                           std::to_string(t.elements_log) + " c " + std::to_string(t.min_columns_log) + ": " +
                           to_string(p);
  EXPECT_EQ(p.log_n, log_n) << what;
  EXPECT_EQ(p.elements_log, t.elements_log) << what;
  if (log_n < 3) {
    EXPECT_EQ(p.count, 0) << what;  // the one-thread kernel
    return;
  }
  ASSERT_GE(p.count, 1) << what;
  ASSERT_LE(p.count, static_cast<int>(p.passes.size())) << what;
  int next = 0;
  for (int k = 0; k < p.count; ++k) {
    const ntt_pass& q = p.passes[k];
    EXPECT_EQ(q.s0, next) << what << " pass " << k;
    EXPECT_GE(q.r, 1) << what << " pass " << k;
    EXPECT_GE(q.log_c, 0) << what << " pass " << k;
    // A tile is one block's shared memory: at most the tuning's, and at least one element per thread.
    EXPECT_LE(q.r + q.log_c, t.tile_log) << what << " pass " << k;
    EXPECT_GE(q.r + q.log_c, t.elements_log) << what << " pass " << k;
    if (k + 1 < p.count) {
      EXPECT_EQ(q.r + q.log_c, t.tile_log) << what << " pass " << k;
      EXPECT_GE(q.log_c, t.min_columns_log) << what << " strided pass " << k << " reads short rows";
    } else {
      EXPECT_EQ(q.log_c, 0) << what << " (the last pass takes contiguous tiles)";
    }
    next += q.r;
  }
  EXPECT_EQ(next, log_n) << what;
}

TEST(NttPlan, EverySizeAndTileShape) {
  int plans = 0;
  for (int et : {2, 3}) {
    for (int tile_log = 5; tile_log <= ntt_max_tile_log(et); ++tile_log) {
      for (int c = 0; c < tile_log - et; ++c) {
        const ntt_tuning t{.tile_log = tile_log, .min_columns_log = c, .elements_log = et};
        for (int log_n = 0; log_n <= 28; ++log_n) {
          auto p = make_ntt_plan(log_n, t);
          if (!p.ok()) {  // only when more than four passes would be needed
            EXPECT_EQ(p.error().code(), status_code::invalid_argument);
            EXPECT_NE(p.error().message().find("passes"), std::string::npos) << p.error().message();
            EXPECT_GT(log_n, 3 * (tile_log - c) + tile_log) << p.error().message();
            continue;
          }
          expect_valid(*p, log_n, t);
          ++plans;
        }
      }
    }
  }
  testing::Test::RecordProperty("plans", std::to_string(plans));
}

// Dynamic shared memory per block on opt-in (cudaDevAttrMaxSharedMemoryPerBlockOptin): the default
// 48 KiB, sm_86 / sm_89 / sm_120 (99 KiB), sm_80 (163 KiB), sm_90 (227 KiB).
constexpr uint64_t kSharedLimits[] = {48 * 1024, 99 * 1024, 163 * 1024, 227 * 1024};

// The tile a tuning gets inside `limit`: its own, or the largest smaller one that fits.
ntt_tuning clamped(ntt_tuning t, uint64_t limit) {
  while (ntt_tile_bytes(t.tile_log) > limit) --t.tile_log;
  if (t.min_columns_log >= t.tile_log - t.elements_log) t.min_columns_log = t.tile_log - t.elements_log - 1;
  return t;
}

TEST(NttPlan, EverySizeAndTileShapeInsideSharedMemory) {
  int plans = 0;
  for (const uint64_t limit : kSharedLimits) {
    for (int et : {2, 3}) {
      for (int tile_log = 5; tile_log <= ntt_max_tile_log(et); ++tile_log) {
        for (int c = 0; c < tile_log - et; ++c) {
          const ntt_tuning t{.tile_log = tile_log, .min_columns_log = c, .elements_log = et};
          const ntt_tuning fit = clamped(t, limit);
          for (int log_n = 0; log_n <= 28; ++log_n) {
            auto p = make_ntt_plan(log_n, t, limit);
            if (!p.ok()) {  // only when more than four passes would be needed at the clamped tile
              EXPECT_EQ(p.error().code(), status_code::invalid_argument);
              EXPECT_GT(log_n, 3 * (fit.tile_log - fit.min_columns_log) + fit.tile_log) << p.error().message();
              continue;
            }
            EXPECT_LE(shared_bytes(*p), limit) << limit << ": " << to_string(*p);
            expect_valid(*p, log_n, fit);
            ++plans;
          }
        }
      }
    }
  }
  testing::Test::RecordProperty("plans", std::to_string(plans));
}

// The case that failed on 99 KiB cards: the 8-per-thread kernel's 2^12 tile (128 KiB). Inside 99 KiB
// every size 2^0..2^28 gets a plan on 2^11 tiles, and so does the sm_90 default (2^9 tiles).
TEST(NttPlan, EverySizeInside99KiB) {
  constexpr uint64_t limit = 99 * 1024;
  const ntt_tuning t12{.tile_log = 12, .min_columns_log = 2, .elements_log = 3};
  auto unclamped = make_ntt_plan(20, t12);
  ASSERT_THAT(unclamped, IsOk());
  EXPECT_EQ(shared_bytes(*unclamped), 128u * 1024) << "without a limit the 2^12 tile stays";
  for (const ntt_tuning& t : {t12, ntt_tuning_sm90}) {
    for (int log_n = 0; log_n <= 28; ++log_n) {
      auto p = make_ntt_plan(log_n, t, limit);
      ASSERT_THAT(p, IsOk()) << log_n << ": " << p.error().to_string();
      EXPECT_LE(shared_bytes(*p), limit) << to_string(*p);
      expect_valid(*p, log_n, clamped(t, limit));
      if (t.tile_log == 12 && log_n >= 11) {
        EXPECT_EQ(shared_bytes(*p), 64u * 1024) << to_string(*p);
      }
    }
  }
  EXPECT_EQ(to_string(*make_ntt_plan(27, t12, limit)), "27: [0,8)x8 [8,16)x8 [16,27)x1");
}

// Less shared memory than the smallest tile of the kernel: a clear error, except for the sizes the
// one-thread kernel takes.
TEST(NttPlan, SharedMemoryTooSmall) {
  for (int log_n = 0; log_n < 3; ++log_n) EXPECT_THAT(make_ntt_plan(log_n, ntt_tuning_sm90, 64), IsOk());
  auto p = make_ntt_plan(10, ntt_tuning_sm90, ntt_tile_bytes(ntt_tuning_sm90.elements_log + 1) - 1);
  ASSERT_THAT(p, StatusIs(status_code::resource_exhausted));
  EXPECT_NE(p.error().message().find("shared memory"), std::string::npos) << p.error().message();
  EXPECT_THAT(make_ntt_plan(10, ntt_tuning_sm90, ntt_tile_bytes(ntt_tuning_sm90.elements_log + 1)), IsOk());
}

// The 64-register compilation of the 4-per-thread kernel: every size, tiles 2^5..2^9, both twiddle
// modes; the plan names it.
TEST(NttPlan, SixtyFourRegisterShapes) {
  for (const bool ahead : {true, false}) {
    for (int tile_log = 5; tile_log <= ntt_max_tile_log(2, 64); ++tile_log) {
      const ntt_tuning t{.tile_log = tile_log, .min_columns_log = 1, .elements_log = 2, .max_registers = 64,
                         .twiddles_ahead = ahead};
      for (int log_n = 0; log_n <= 28; ++log_n) {
        auto p = make_ntt_plan(log_n, t);
        if (!p.ok()) {
          EXPECT_GT(log_n, 3 * (tile_log - 1) + tile_log) << p.error().message();
          continue;
        }
        expect_valid(*p, log_n, t);
        EXPECT_EQ(p->max_registers, 64);
        EXPECT_EQ(p->twiddles_ahead, ahead);
      }
    }
  }
  EXPECT_EQ(ntt_max_tile_log(2, 64), 9);
  const ntt_tuning jit{.tile_log = 9, .min_columns_log = 1, .elements_log = 2, .max_registers = 64,
                       .twiddles_ahead = false};
  EXPECT_EQ(to_string(*make_ntt_plan(27, jit)), "27 r4/64j: [0,6)x8 [6,12)x8 [12,18)x8 [18,27)x1");
}

TEST(NttPlan, DefaultAtPoRepSizes) {
  auto p27 = make_ntt_plan(27);
  ASSERT_THAT(p27, IsOk());
  EXPECT_EQ(to_string(*p27), "27 r4/64j: [0,6)x8 [6,12)x8 [12,18)x8 [18,27)x1");
  for (int log_n = 0; log_n <= 28; ++log_n) {
    auto p = make_ntt_plan(log_n);
    ASSERT_THAT(p, IsOk()) << log_n << ": " << p.error().to_string();
    expect_valid(*p, log_n, ntt_tuning_sm90);
  }
}

TEST(NttPlan, ArgumentErrors) {
  EXPECT_EQ(make_ntt_plan(-1).error().code(), status_code::invalid_argument);
  EXPECT_EQ(make_ntt_plan(29).error().code(), status_code::invalid_argument);
  const ntt_tuning bad[] = {
      {.tile_log = 11, .min_columns_log = 1, .elements_log = 2},  // past the 4-per-thread kernel's 2^10
      {.tile_log = 13, .min_columns_log = 2, .elements_log = 3},  // past 2^12
      {.tile_log = 3, .min_columns_log = 0, .elements_log = 3},   // below 2 threads' worth
      {.tile_log = 9, .min_columns_log = 7, .elements_log = 2},   // rows as long as the tile allows none
      {.tile_log = 9, .min_columns_log = -1, .elements_log = 2},
      {.tile_log = 9, .min_columns_log = 1, .elements_log = 4},
      {.tile_log = 10, .min_columns_log = 1, .elements_log = 2, .max_registers = 64},  // past 2^9 at 64
      {.tile_log = 9, .min_columns_log = 1, .elements_log = 3, .max_registers = 64},   // 4 per thread only
      {.tile_log = 9, .min_columns_log = 1, .elements_log = 2, .max_registers = 72},
      {.tile_log = 9, .min_columns_log = 1, .elements_log = 2, .twiddles_ahead = false},  // 64 registers only
  };
  for (const ntt_tuning& t : bad) {
    auto p = make_ntt_plan(20, t);
    ASSERT_THAT(p, StatusIs(status_code::invalid_argument))
        << t.tile_log << " " << t.min_columns_log << " " << t.elements_log;
  }
}

}  // namespace
}  // namespace pp::cuda::test
