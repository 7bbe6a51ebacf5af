// cub_temp_model (src/cuda/plan/cub_temp_model.hpp) and the MSM's temp sizes built on it
// (msm_workspace.hpp), on the host: the policy family a PTX version picks, the sizes' shape (one byte
// for one block, growing with the items), a size worked out by hand, the selection agents of the
// MSM's buckets, and the bound the plans use over every family. Agreement with CUB itself:
// cub_temp_model_cub_test.cu (CUB's types, no device) and cub_temp_model_gpu_test.cu (a device).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cub_item_counts.hpp"
#include "cuda/plan/cub_temp_model.hpp"
#include "cuda/plan/msm_workspace.hpp"
#include "support/status_matchers.hpp"

namespace pp::cuda::test {
namespace {

TEST(CubTempModel, ArchForPtx) {
  EXPECT_EQ(cub_arch_for_ptx(750), std::nullopt);
  EXPECT_EQ(cub_arch_for_ptx(800), cub_arch::sm80);
  EXPECT_EQ(cub_arch_for_ptx(860), cub_arch::sm86);
  EXPECT_EQ(cub_arch_for_ptx(890), cub_arch::sm86);
  EXPECT_EQ(cub_arch_for_ptx(900), cub_arch::sm90);
  EXPECT_EQ(cub_arch_for_ptx(1000), cub_arch::sm100);
  EXPECT_EQ(cub_arch_for_ptx(1200), cub_arch::sm100);
}

TEST(CubTempModel, SortIsOneBlockUpToATileThenGrows) {
  for (const cub_arch a : cub_archs) {
    SCOPED_TRACE(to_string(a));
    EXPECT_EQ(cub_sort_pairs_temp_bytes(a, 1, 20), 1u);
    EXPECT_EQ(cub_sort_pairs_temp_bytes(a, cub_single_tile_sort_items, 32), 1u);
    EXPECT_GT(cub_sort_pairs_temp_bytes(a, cub_single_tile_sort_items + 1, 8), 1u);
    for (int bits = 8; bits <= 32; ++bits) {
      uint64_t last = 0;
      for (const uint64_t n : cub_item_counts()) {
        const uint64_t t = cub_sort_pairs_temp_bytes(a, n, bits);
        EXPECT_GE(t, last) << n;
        EXPECT_GE(t, cub_sort_pairs_temp_bytes(a, n, bits - 1)) << n;
        last = t;
      }
    }
  }
}

// 2^28 entries of 20-bit keys on sm_90: tiles of 384 x 23 = 8832 items, portions of
// floor((2^28 - 1) / 8832) x 8832 = 268430976 items, so 2 portions of 3 passes: bins 2 x 3 x 256 x 4 =
// 6144 bytes, lookback 30393 blocks x 256 x 4 = 31122432, counters 24 (256 once aligned), plus 255.
TEST(CubTempModel, SortSizeByHand) {
  EXPECT_EQ(cub_sort_pairs_temp_bytes(cub_arch::sm90, uint64_t{1} << 28, 20), 6144u + 31122432u + 256u + 255u);
}

// The MSM's buckets (XYZZ): BLS12-381's G1 (192 bytes over Fp) moves to the 64-thread fallback, its
// G2 (384 over Fp2) keeps 128 threads with 128 x 2 x 384 + 128 bytes of global storage a block;
// BN254's G1 (128 bytes) fits 128 threads in shared memory, its G2 (256) the 64-thread fallback.
TEST(CubTempModel, BucketSelectionAgents) {
  for (const cub_arch a : cub_archs) {
    const cub_select_agent bn_g1 = cub_select_agent_for(a, cub_select_kind::flagged_struct, msm_bn254_g1.bucket_bytes);
    EXPECT_EQ(bn_g1.tile_items, 128u);
    EXPECT_EQ(bn_g1.vsmem_per_block, 0u);
    const cub_select_agent bn_g2 = cub_select_agent_for(a, cub_select_kind::flagged_struct, msm_bn254_g2.bucket_bytes);
    EXPECT_EQ(bn_g2.tile_items, 64u);
    EXPECT_EQ(bn_g2.vsmem_per_block, 0u);
    const cub_select_agent g1 = cub_select_agent_for(a, cub_select_kind::flagged_struct, 192);
    EXPECT_EQ(g1.tile_items, 64u);
    EXPECT_EQ(g1.vsmem_per_block, 0u);
    const cub_select_agent g2 = cub_select_agent_for(a, cub_select_kind::flagged_struct, 384);
    EXPECT_EQ(g2.tile_items, 128u);
    EXPECT_EQ(g2.vsmem_per_block, 98432u);
  }
}

TEST(CubTempModel, SelectGrowsWithItems) {
  for (const cub_arch a : cub_archs) {
    for (const auto& [k, bytes] : {std::pair{cub_select_kind::flagged_u32, uint64_t{0}},
                                  std::pair{cub_select_kind::if_index, uint64_t{0}},
                                  std::pair{cub_select_kind::flagged_struct, uint64_t{128}},
                                  std::pair{cub_select_kind::flagged_struct, uint64_t{192}},
                                  std::pair{cub_select_kind::flagged_struct, uint64_t{256}},
                                  std::pair{cub_select_kind::flagged_struct, uint64_t{384}}}) {
      uint64_t last = 0;
      for (const uint64_t n : cub_item_counts()) {
        const uint64_t t = cub_select_temp_bytes(a, k, n, bytes);
        EXPECT_GE(t, std::max<uint64_t>(last, 256 + 256 + 255)) << n;
        last = t;
      }
    }
  }
}

// The plans' bound is each family's largest, and not far above sm_90's own at the PoRep sizes.
TEST(CubTempModel, BoundOverFamilies) {
  for (const msm_group& g : {msm_g1, msm_g2, msm_bn254_g1, msm_bn254_g2}) {
    for (const bool split : {false, true}) {
      for (const uint64_t n : cub_item_counts()) {
        const auto s = make_msm_shape(n, 0, split, msm_chunk_limit({}, g));
        ASSERT_THAT(s, IsOk());
        const cub_temp_bytes bound = msm_cub_temp_bound(*s, g);
        uint64_t sort = 0, select = 0;
        for (const cub_arch a : cub_archs) {
          const cub_temp_bytes t = msm_cub_temp_bytes(*s, g, a);
          sort = std::max(sort, t.sort);
          select = std::max(select, t.select);
        }
        EXPECT_EQ(bound.sort, sort) << n;
        EXPECT_EQ(bound.select, select) << n;
      }
    }
  }
  for (const msm_group& g : {msm_g1, msm_g2, msm_bn254_g1, msm_bn254_g2}) {
    for (const bool split : {false, true}) {
      const auto s = make_msm_shape(uint64_t{1} << 27, 0, split, msm_chunk_limit({}, g));
      ASSERT_THAT(s, IsOk());
      const cub_temp_bytes bound = msm_cub_temp_bound(*s, g);
      const cub_temp_bytes sm90 = msm_cub_temp_bytes(*s, g, cub_arch::sm90);
      const uint64_t over = bound.sort + bound.select - sm90.sort - sm90.select;
      std::printf("%s 2^27 %s: sort %llu, select %llu bytes; %llu above sm_90's\n", g.name,
                  split ? "split" : "plain", (unsigned long long)bound.sort, (unsigned long long)bound.select,
                  (unsigned long long)over);
      EXPECT_LT(over, uint64_t{8} << 20);
    }
  }
}

}  // namespace
}  // namespace pp::cuda::test
