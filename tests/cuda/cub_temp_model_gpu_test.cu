// cub_temp_model (src/cuda/plan/cub_temp_model.hpp) against CUB's size queries on the device: every query
// the GPU MSM makes (msm_run.cuh, query_cub_temp: the sort of uint32_t keys and values, the
// selections of uint32_t carry keys and of G1 and G2 XYZZ buckets (BLS12-381's and BN254's) under
// uint8_t flags, the index selections with scalar_is_one and scalar_is_other) over item counts
// around every power of two from 1 to 2^31 - 1 and around the tile edges, key bits 8..32. The model of the device's family
// must equal CUB's answer, and the bound the plans use (the most over every family) must not be
// below it; then the MSM's own queries for PoRep-like shapes against msm_cub_temp_bytes, and the
// plans the MSM runs with (make_plan: the host's plan, checked against CUB) accepted.
#include <gtest/gtest.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "cub_item_counts.hpp"
#include "cuda/msm/msm_run.cuh"
#include "cuda/plan/cub_temp_model.hpp"
#include "cuda/plan/msm_workspace.hpp"
#include "ec/bls12_381_curves.hpp"
#include "ec/bn254_curves.hpp"
#include "support/status_matchers.hpp"

namespace pp::cuda::test {
namespace {

cub_arch device_arch() {
  int ptx = 0;
  EXPECT_EQ(cub::PtxVersion(ptx), cudaSuccess);
  const std::optional<cub_arch> a = cub_arch_for_ptx(ptx);
  EXPECT_TRUE(a.has_value()) << "PTX version " << ptx << " is below the model's families";
  std::printf("CUB %d, PTX version %d: the model's %s family\n", CUB_VERSION, ptx, a ? to_string(*a) : "none");
  return a.value_or(cub_arch::sm90);
}

// What the plans give: the most any family asks.
uint64_t sort_bound(uint64_t n, int bits) {
  uint64_t most = 0;
  for (const cub_arch a : cub_archs) most = std::max(most, cub_sort_pairs_temp_bytes(a, n, bits));
  return most;
}
uint64_t select_bound(cub_select_kind k, uint64_t n, uint64_t item_bytes) {
  uint64_t most = 0;
  for (const cub_arch a : cub_archs) most = std::max(most, cub_select_temp_bytes(a, k, n, item_bytes));
  return most;
}

TEST(CubTempModelGpu, Version) { EXPECT_EQ(CUB_VERSION, cub_model_version); }

TEST(CubTempModelGpu, SortPairs) {
  const cub_arch a = device_arch();
  for (const uint64_t n : cub_item_counts()) {
    for (int bits = 8; bits <= 32; ++bits) {
      cub::DoubleBuffer<uint32_t> kb(nullptr, nullptr), vb(nullptr, nullptr);
      size_t bytes = 0;
      ASSERT_EQ(cub::DeviceRadixSort::SortPairs(nullptr, bytes, kb, vb, int(n), 0, bits), cudaSuccess);
      EXPECT_EQ(cub_sort_pairs_temp_bytes(a, n, bits), bytes) << n << " items, " << bits << " bits";
      EXPECT_GE(sort_bound(n, bits), bytes) << n << " items, " << bits << " bits";
    }
  }
}

template <class Query>
void expect_select(cub_select_kind k, uint64_t item_bytes, const Query& query) {
  const cub_arch a = device_arch();
  for (const uint64_t n : cub_item_counts()) {
    size_t bytes = 0;
    ASSERT_EQ(query(bytes, int(n)), cudaSuccess) << n;
    EXPECT_EQ(cub_select_temp_bytes(a, k, n, item_bytes), bytes) << n << " items";
    EXPECT_GE(select_bound(k, n, item_bytes), bytes) << n << " items";
  }
}

TEST(CubTempModelGpu, SelectFlaggedKeys) {
  expect_select(cub_select_kind::flagged_u32, 0, [](size_t& bytes, int n) {
    return cub::DeviceSelect::Flagged(nullptr, bytes, static_cast<const uint32_t*>(nullptr),
                                      static_cast<const uint8_t*>(nullptr), static_cast<uint32_t*>(nullptr),
                                      static_cast<uint32_t*>(nullptr), n);
  });
}

template <class Curve>
void expect_bucket_select() {
  using bucket = ec::xyzz<Curve>;
  expect_select(cub_select_kind::flagged_struct, sizeof(bucket), [](size_t& bytes, int n) {
    return cub::DeviceSelect::Flagged(nullptr, bytes, static_cast<const bucket*>(nullptr),
                                      static_cast<const uint8_t*>(nullptr), static_cast<bucket*>(nullptr),
                                      static_cast<uint32_t*>(nullptr), n);
  });
}

TEST(CubTempModelGpu, SelectFlaggedBuckets) {
  expect_bucket_select<ec::g1_curve>();
  expect_bucket_select<ec::g2_curve>();
  expect_bucket_select<ec::bn254::g1_curve>();
  expect_bucket_select<ec::bn254::g2_curve>();
}

TEST(CubTempModelGpu, SelectIfIndices) {
  expect_select(cub_select_kind::if_index, 0, [](size_t& bytes, int n) {
    return cub::DeviceSelect::If(nullptr, bytes, thrust::counting_iterator<uint32_t>(0), static_cast<uint32_t*>(nullptr),
                                 static_cast<uint32_t*>(nullptr), n, msm_detail::scalar_is_one<ff::fr>{nullptr});
  });
  expect_select(cub_select_kind::if_index, 0, [](size_t& bytes, int n) {
    return cub::DeviceSelect::If(nullptr, bytes, thrust::counting_iterator<uint32_t>(0), static_cast<uint32_t*>(nullptr),
                                 static_cast<uint32_t*>(nullptr), n, msm_detail::scalar_is_other<ff::fr>{nullptr});
  });
}

// The MSM's passes as its plans shape them (default chunks, forced narrow chunks), full and last.
template <class Curve>
void expect_msm_queries(const msm_group& g) {
  const cub_arch a = device_arch();
  for (const bool split : {false, true}) {
    for (const uint64_t chunk : {uint64_t{0}, uint64_t{1} << 10, uint64_t{1} << 16}) {
      for (const uint64_t n : {uint64_t{1}, uint64_t{1000}, uint64_t{1} << 16, (uint64_t{1} << 20) + 7,
                               uint64_t{1} << 24, uint64_t{1} << 27, (uint64_t{1} << 28) + 1}) {
        SCOPED_TRACE(std::to_string(n) + (split ? " split" : " plain") + ", chunk " + std::to_string(chunk));
        const msm_config cfg{0, chunk};
        const auto s = make_msm_shape(n, 0, split, msm_chunk_limit(cfg, g));
        ASSERT_THAT(s, IsOk());
        for (const msm_shape& pass : {*s, make_msm_chunk_shape(*s, s->last_n)}) {
          const auto got = msm_detail::query_cub_temp<Curve>(pass);
          ASSERT_THAT(got, IsOk());
          const cub_temp_bytes model = msm_cub_temp_bytes(pass, g, a);
          EXPECT_EQ(model.sort, got->sort);
          EXPECT_EQ(model.select, got->select);
          const cub_temp_bytes bound = msm_cub_temp_bound(pass, g);
          EXPECT_GE(bound.sort, got->sort);
          EXPECT_GE(bound.select, got->select);
        }
        EXPECT_THAT(msm_detail::make_plan<Curve>(n, split, cfg), IsOk());
      }
    }
  }
}

TEST(CubTempModelGpu, MsmQueries) {
  expect_msm_queries<ec::g1_curve>(msm_g1);
  expect_msm_queries<ec::g2_curve>(msm_g2);
  expect_msm_queries<ec::bn254::g1_curve>(msm_bn254_g1);
  expect_msm_queries<ec::bn254::g2_curve>(msm_bn254_g2);
}

}  // namespace
}  // namespace pp::cuda::test
