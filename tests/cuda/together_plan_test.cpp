// The partitions a lane takes per streamed copy (src/cuda/plan/together_plan.hpp) on the host: k
// is the most whose packed witnesses fit the staging before the sums and the witness and scalar
// buffers beside a least vector state each (one more does not, unless k is the cap); a plan with one
// of L, A, B_G1, B_G2 resident takes 1; the least state is the largest of the four tables' least
// states; a packed layout counts exactly the values neither 0 nor 1 (both curves, edge values on
// purpose). Shapes: key_shapes.hpp (PoRep at 2^27 under 16 and 24 GiB, scaled to 2^24).
#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "cuda/plan/msm_workspace.hpp"
#include "cuda/plan/together_plan.hpp"
#include "cuda/plan/witness_layout.hpp"
#include "ff/bn254_fr.hpp"
#include "key_shapes.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

key_plan plan_in(const key_shape& s, uint64_t budget) {
  auto p = plan_key(s, h200_options(s), budget, 2);
  EXPECT_THAT(p, IsOk());
  return p.ok() ? *p : key_plan{};
}

// k partitions of packed witnesses of `packed` bytes fit, as the backend lays them out.
bool fits(const key_shape& s, const key_plan& p, uint64_t staging, uint64_t packed, uint32_t k) {
  const auto least = least_vector_state(s, p);
  EXPECT_THAT(least, IsOk());
  const bool staged = (k - 1) * pad256(packed) + packed + together_sums_bytes <= staging;
  return staged && together_state_bytes(p, k * pad256(packed), k) >= *least;
}

TEST(TogetherPlan, SumsTailHoldsTheLargerCurvesBuckets) {
  // BLS12-381: four G1 XYZZ buckets of 192 bytes and one G2 of 384 for each of 8 partitions.
  EXPECT_EQ(together_sums_bytes, 8u * (4 * 192 + 384));
  EXPECT_EQ(together_sums_bytes % layout_alignment, 0u);
}

TEST(TogetherPlan, LeastStateIsTheLargestOfTheFourTables) {
  const key_shape s = porep27();
  const key_plan p = plan_in(s, 16 * gib);
  auto least = least_vector_state(s, p);
  ASSERT_THAT(least, IsOk());
  uint64_t largest = 0;
  for (const int t : {table_l, table_a, table_b_g1, table_b_g2}) {
    const msm_group g = t == table_b_g2 ? s.g2 : s.g1;
    msm_config cfg;
    cfg.max_chunk_points = t == table_b_g2 ? p.msm.g2_chunk : p.msm.g1_chunk;
    auto plan = plan_gpu_msm(s.points[t], true, cfg, g);
    ASSERT_THAT(plan, IsOk());
    const msm_vector_layout v = make_msm_vector_layout(*plan, g.bucket_bytes, 32);
    EXPECT_LE(v.buckets, *least) << key_table_names[t];
    largest = std::max(largest, v.buckets);
  }
  EXPECT_EQ(*least, largest);
}

TEST(TogetherPlan, StateIsWhatTheWitnessesLeaveSplitEvenly) {
  const key_shape s = porep_scaled(24);
  const key_plan p = plan_in(s, 4 * gib);
  const uint64_t area = p.lane.phase - p.lane.w;
  EXPECT_EQ(together_state_bytes(p, 0, 1), area / 256 * 256);
  EXPECT_EQ(together_state_bytes(p, 1000, 3), (area - 1000) / 3 / 256 * 256);
  EXPECT_EQ(together_state_bytes(p, 1000, 3) % 256, 0u);
  EXPECT_EQ(together_state_bytes(p, area, 1), 0u);
  EXPECT_EQ(together_state_bytes(p, area + 1, 2), 0u);
  EXPECT_EQ(together_state_bytes(p, 0, 0), 0u);
}

// k is the most that fits; one more does not (unless k is the cap), whichever of the staging and
// the buffers stops it, and the limit says which.
TEST(TogetherPlan, KIsTheMostThatFits) {
  struct probe {
    key_shape s;
    uint64_t budget;
  };
  const probe probes[] = {{porep27(), 16 * gib}, {porep27(), 24 * gib}, {porep_scaled(24), 3 * gib}};
  for (const probe& pr : probes) {
    const key_plan p = plan_in(pr.s, pr.budget);
    ASSERT_FALSE(p.resident[table_l] || p.resident[table_a] || p.resident[table_b_g1] || p.resident[table_b_g2])
        << p.to_string(pr.s);
    const uint64_t full = compact_witness_layout::make(pr.s.nv, pr.s.nv).bytes;
    for (const uint64_t packed : {uint64_t{4096}, full / 9, full / 4, full}) {
      for (const uint64_t staging : {uint64_t{512} << 20, (uint64_t{3} * 512 + 256) << 20, uint64_t{8} << 30}) {
        SCOPED_TRACE("budget " + std::to_string(pr.budget) + ", packed " + std::to_string(packed) + ", staging " +
                     std::to_string(staging));
        auto fit = partitions_together(pr.s, p, staging, packed);
        ASSERT_THAT(fit, IsOk());
        ASSERT_GE(fit->partitions, 1u);
        ASSERT_LE(fit->partitions, max_partitions_together);
        if (fit->partitions > 1) {
          EXPECT_TRUE(fits(pr.s, p, staging, packed, fit->partitions));
        }
        if (fit->partitions == max_partitions_together) {
          EXPECT_NE(fit->limit.find("at most 8"), std::string::npos) << fit->limit;
          continue;
        }
        EXPECT_FALSE(fits(pr.s, p, staging, packed, fit->partitions + 1));
        const bool staged = fit->partitions * pad256(packed) + packed + together_sums_bytes <= staging;
        EXPECT_NE(fit->limit.find(staged ? "witness and scalar buffers" : "staging"), std::string::npos) << fit->limit;
        // Where the staging binds and the buffers hold more, the staging it names takes them, one
        // byte less does not.
        if (fit->staging_for_more != 0) {
          EXPECT_FALSE(staged);
          auto more = partitions_together(pr.s, p, fit->staging_for_more, packed);
          ASSERT_THAT(more, IsOk());
          EXPECT_GT(more->partitions, fit->partitions);
          EXPECT_EQ(more->staging_for_more, 0u);
          EXPECT_NE(fit->limit.find("takes " + std::to_string(more->partitions)), std::string::npos) << fit->limit;
          EXPECT_LT(partitions_together(pr.s, p, fit->staging_for_more - 1, packed)->partitions, more->partitions);
        }
      }
    }
  }
  // A small witness in a large staging: the cap; the default staging with PoRep's witnesses: one.
  const key_shape s = porep27();
  const key_plan p = plan_in(s, 16 * gib);
  EXPECT_EQ(partitions_together(s, p, uint64_t{8} << 30, 4096)->partitions, max_partitions_together);
  EXPECT_EQ(partitions_together(s, p, uint64_t{512} << 20, uint64_t{450} << 20)->partitions, 1u);
  EXPECT_EQ(partitions_together(s, p, (uint64_t{3} * 512 + 256) << 20, uint64_t{450} << 20)->partitions, 3u);
  EXPECT_NE(partitions_together(s, p, uint64_t{512} << 20, uint64_t{450} << 20)->staging_for_more, 0u)
      << "the default staging binds a 2^27 lane under 16 GiB";
}

// The staging for k: k witnesses at 256-byte offsets and the sums; it takes k, one byte less k - 1.
TEST(TogetherPlan, TogetherStagingHoldsTheWitnessesAndTheSums) {
  EXPECT_EQ(together_staging_bytes(1, 1000), 1000 + together_sums_bytes);
  EXPECT_EQ(together_staging_bytes(0, 1000), 1000 + together_sums_bytes) << "0 reads as one";
  EXPECT_EQ(together_staging_bytes(3, 1000), 2 * 1024 + 1000 + together_sums_bytes);
  EXPECT_EQ(together_staging_bytes(2, 4096), 2 * 4096 + together_sums_bytes);
  const key_shape s = porep27();
  const key_plan p = plan_in(s, 16 * gib);
  const uint64_t packed = (uint64_t{450} << 20) + 100;
  for (const uint32_t k : {2u, 3u}) {
    SCOPED_TRACE("k " + std::to_string(k));
    EXPECT_EQ(partitions_together(s, p, together_staging_bytes(k, packed), packed)->partitions, k);
    EXPECT_EQ(partitions_together(s, p, together_staging_bytes(k, packed) - 1, packed)->partitions, k - 1);
  }
}

// k together: H and the matrices a partition's own, the four shared tables a k-th, rounded up.
TEST(TogetherPlan, TogetherStreamedBytesShareTheFourTables) {
  const key_shape s = porep27();
  const key_plan p = plan_in(s, 16 * gib);
  ASSERT_FALSE(p.matrices_resident);
  const uint64_t shared = s.table_bytes(table_l) + s.table_bytes(table_a) + s.table_bytes(table_b_g1) +
                          s.table_bytes(table_b_g2);
  const uint64_t own = s.table_bytes(table_h) + p.matrix_image_bytes(s);
  EXPECT_EQ(p.streamed_bytes(s), own + shared);
  EXPECT_EQ(together_streamed_bytes(s, p, 1), p.streamed_bytes(s));
  EXPECT_EQ(together_streamed_bytes(s, p, 0), p.streamed_bytes(s)) << "0 reads as one at a time";
  for (const uint32_t k : {2u, 3u, 8u}) {
    EXPECT_EQ(together_streamed_bytes(s, p, k), own + (shared + k - 1) / k) << k;
  }
  // A resident table is copied by none: only the streamed ones are shared.
  key_plan q = p;
  q.resident[table_l] = true;
  EXPECT_EQ(together_streamed_bytes(s, q, 3), own + (shared - s.table_bytes(table_l) + 2) / 3);
}

TEST(TogetherPlan, AResidentWitnessTableLeavesNothingToShare) {
  EXPECT_EQ(resident_shared_table(plan_in(porep27(), 16 * gib)), -1) << "every table streamed at 16 GiB";
  const key_shape s = porep_scaled(24);
  key_plan p = plan_in(s, 80 * gib);
  ASSERT_TRUE(p.resident[table_l]);
  EXPECT_EQ(resident_shared_table(p), table_l);
  auto fit = partitions_together(s, p, uint64_t{8} << 30, 4096);
  ASSERT_THAT(fit, IsOk());
  EXPECT_EQ(fit->partitions, 1u);
  EXPECT_NE(fit->limit.find("L is resident"), std::string::npos) << fit->limit;
  p.resident = {true, false, false, false, true};  // H resident shares nothing: B_G2 is the one named
  EXPECT_EQ(resident_shared_table(p), table_b_g2);
  fit = partitions_together(s, p, uint64_t{8} << 30, 4096);
  EXPECT_EQ(fit->partitions, 1u);
  EXPECT_NE(fit->limit.find("B_G2 is resident"), std::string::npos) << fit->limit;
}

// The width each shared table's carried pass takes in a vector state of state_bytes (0: none
// carries), as the backend's run picks it (msm_run.cuh: carried_plan over the state's bucket room).
std::vector<int> carried_widths(const key_shape& s, const key_plan& p, const compact_witness_layout& l,
                                uint64_t state_bytes) {
  std::vector<int> out;
  for (const int t : {table_l, table_a, table_b_g1, table_b_g2}) {
    const bool g2 = t == table_b_g2;
    const msm_group g = g2 ? s.g2 : s.g1;
    msm_config cfg;
    cfg.max_chunk_points = g2 ? p.msm.g2_chunk : p.msm.g1_chunk;
    auto plan = plan_gpu_msm(s.points[t], true, cfg, g);
    EXPECT_THAT(plan, IsOk());
    if (!plan.ok()) return {};
    const uint64_t least = make_msm_vector_layout(*plan, g.bucket_bytes, key_shape::fr_bytes).buckets;
    const auto share = [&](uint64_t n) { return uint64_t(double(n) * double(l.num_other) / double(l.num_variables)); };
    out.push_back(make_msm_carried_pass(*plan, g.bucket_bytes, share(s.points[t]),
                                        share(std::min(plan->shape.n, s.points[t])), msm_tuning_sm90,
                                        state_bytes > least ? state_bytes - least : 0)
                      .window_bits);
  }
  return out;
}

// The partitions whose states still carry every table's buckets at its roomy width: one more and a
// table's width changes (narrower, or none: each chunk reduces its own). PoRep at 24 GiB with a
// tenth of the witness neither 0 nor 1 (the circuit's own share is about that): seven of eight
// carry, the eighth's G1 tables do not (as measured: vram-budgets.md, "Today"); at 16 GiB's
// smaller chunks all eight carry.
TEST(TogetherPlan, CarryingPartitionsKeepEveryTablesWidth) {
  const key_shape s = porep27();
  const compact_witness_layout l = compact_witness_layout::make(s.nv, s.nv / 10);
  for (const uint64_t budget : {24 * gib, 16 * gib}) {
    SCOPED_TRACE(budget / gib);
    const key_plan p = plan_in(s, budget);
    const std::vector<int> roomy = carried_widths(s, p, l, UINT64_MAX);
    const auto most = carrying_partitions(s, p, l, max_partitions_together);
    ASSERT_THAT(most, IsOk());
    EXPECT_EQ(*most, budget == 24 * gib ? 7u : 8u);
    for (uint32_t k = 1; k <= max_partitions_together; ++k) {
      const std::vector<int> at_k = carried_widths(s, p, l, together_state_bytes(p, k * pad256(l.bytes), k));
      EXPECT_EQ(at_k == roomy, k <= *most) << k;
      EXPECT_EQ(*carrying_partitions(s, p, l, k), std::min(k, *most)) << "capped at the k asked";
    }
  }
  // A witness whose every value is other than 0 and 1 (the most a witness packs to) carries fewer.
  const key_plan p = plan_in(s, 24 * gib);
  EXPECT_LT(*carrying_partitions(s, p, compact_witness_layout::make(s.nv, s.nv), 8), 7u);
}

template <class Fr>
void check_counts() {
  pp::test::test_rng rng;
  SCOPED_TRACE(rng.trace());
  std::vector<Fr> w(200'000 + rng.next() % 1000);
  uint64_t others = 0;
  for (Fr& v : w) {
    switch (rng.next() % 5) {
      case 0: v = Fr::zero(); break;
      case 1: v = Fr::one(); break;
      case 2: v = Fr::zero() - Fr::one(); break;  // r - 1
      case 3: v = Fr::one() + Fr::one(); break;
      default: v = Fr::from_uint(rng.next()); break;
    }
    others += v.is_zero() || v == Fr::one() ? 0 : 1;
  }
  EXPECT_EQ(count_other_values(std::span<const Fr>(w)), others);
  const compact_witness_layout l = packed_layout_of(std::span<const Fr>(w));
  EXPECT_EQ(l.num_other, others);
  EXPECT_EQ(l.num_variables, w.size());
  EXPECT_EQ(count_other_values(std::span<const Fr>()), 0u);
}

TEST(TogetherPlan, PackedLayoutCountsTheValuesNeitherZeroNorOne) {
  check_counts<ff::fr>();
  check_counts<ff::bn254::fr>();
}

}  // namespace
}  // namespace pp::cuda::test
