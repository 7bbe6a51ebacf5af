// cub_temp_model (src/cuda/plan/cub_temp_model.hpp) against CUB's own code, compiled by nvcc and run on
// the host, no device needed: the radix sort's temp size is asked of its dispatch with each policy
// (DispatchRadixSort::Invoke<Policy> only counts bytes when given no storage), the selections' tiles
// and virtual shared memory are read from the agent types CUB's dispatch picks (its policy hub and
// vsmem fallback), and their temp sizes worked out with CUB's ScanTileState and AliasTemporaries.
// Item counts around every power of two and every tile edge up to 2^31 - 1, key bits 1..32, the
// MSM's queries (msm_run.cuh, query_cub_temp): uint32_t keys and values, uint32_t and XYZZ bucket
// selections under uint8_t flags, the index selection over a counting_iterator.
#include <gtest/gtest.h>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "cub_item_counts.hpp"
#include "cuda/plan/cub_temp_model.hpp"
#include "ec/bls12_381_curves.hpp"
#include "ec/bn254_curves.hpp"
#include "ec/xyzz.hpp"

namespace pp::cuda::test {
namespace {

// A selection functor of the index selection's shape (which one does not change the agent's storage).
struct select_index {
  const uint32_t* p;
  __host__ __device__ bool operator()(uint32_t i) const { return p[i] == 1; }
};

template <class Policy>
uint64_t cub_sort_bytes(uint64_t n, int bits) {
  using dispatch = cub::DispatchRadixSort<cub::SortOrder::Ascending, uint32_t, uint32_t, uint32_t>;
  cub::DoubleBuffer<uint32_t> kb(nullptr, nullptr), vb(nullptr, nullptr);
  size_t bytes = 0;
  dispatch d(nullptr, bytes, kb, vb, uint32_t(n), 0, bits, /*is_overwrite_okay=*/true, /*stream=*/0,
             /*ptx_version=*/0);
  EXPECT_EQ(d.template Invoke<Policy>(), cudaSuccess);
  return bytes;
}

TEST(CubTempModelCub, Version) { EXPECT_EQ(CUB_VERSION, cub_model_version); }

TEST(CubTempModelCub, SortPairs) {
  using hub = cub::detail::radix::policy_hub<uint32_t, uint32_t, uint32_t>;
  for (const uint64_t n : cub_item_counts()) {
    for (int bits = 1; bits <= 32; ++bits) {
      const uint64_t p800 = cub_sort_bytes<hub::Policy800>(n, bits);
      EXPECT_EQ(cub_sort_pairs_temp_bytes(cub_arch::sm80, n, bits), p800) << n << " items, " << bits << " bits";
      EXPECT_EQ(cub_sort_pairs_temp_bytes(cub_arch::sm86, n, bits), p800) << n << " items, " << bits << " bits";
      EXPECT_EQ(cub_sort_pairs_temp_bytes(cub_arch::sm90, n, bits), cub_sort_bytes<hub::Policy900>(n, bits))
          << n << " items, " << bits << " bits";
      EXPECT_EQ(cub_sort_pairs_temp_bytes(cub_arch::sm100, n, bits), cub_sort_bytes<hub::Policy1000>(n, bits))
          << n << " items, " << bits << " bits";
    }
  }
}

// The agent DispatchSelectIf::Invoke runs for these iterators under Policy, as it picks it.
template <class In, class Flags, class Out, class Op, class Policy>
cub_select_agent cub_agent() {
  using helper = cub::detail::vsmem_helper_default_fallback_policy_t<
      typename Policy::SelectIfPolicyT,
      cub::detail::select::agent_select_if_wrapper_t<cub::SelectImpl::Select>::template agent_t, In, Flags, Out, Op,
      cub::NullType, cub::detail::select::per_partition_offset_t,
      cub::detail::select::streaming_context_t<int64_t, true>>;
  return {uint64_t(helper::agent_policy_t::BLOCK_THREADS) * helper::agent_policy_t::ITEMS_PER_THREAD,
          uint64_t(helper::vsmem_per_block)};
}

// DispatchSelectIf::Invoke's temp size for n items (one partition) with that agent.
uint64_t cub_select_bytes(const cub_select_agent& agent, uint64_t n) {
  const uint64_t tiles = (n + agent.tile_items - 1) / agent.tile_items;
  size_t sizes[3] = {0, size_t(tiles * agent.vsmem_per_block), 0};
  EXPECT_EQ(cub::ScanTileState<cub::detail::select::per_partition_offset_t>::AllocationSize(int(tiles), sizes[0]),
            cudaSuccess);
  void* allocations[3] = {};
  size_t bytes = 0;
  EXPECT_EQ(cub::detail::AliasTemporaries(nullptr, bytes, allocations, sizes), cudaSuccess);
  return bytes;
}

template <class In, class Flags, class Out, class Op>
void expect_select(cub_select_kind kind, uint64_t item_bytes) {
  using hub = cub::detail::select::policy_hub<cub::detail::it_value_t<In>, cub::detail::it_value_t<Flags>,
                                              cub::detail::select::per_partition_offset_t, false,
                                              cub::SelectImpl::Select>;
  const cub_select_agent agents[] = {cub_agent<In, Flags, Out, Op, typename hub::Policy800>(),
                                     cub_agent<In, Flags, Out, Op, typename hub::Policy860>(),
                                     cub_agent<In, Flags, Out, Op, typename hub::Policy900>(),
                                     cub_agent<In, Flags, Out, Op, typename hub::Policy1000>()};
  for (int i = 0; i < 4; ++i) {
    const cub_arch a = cub_archs[i];
    SCOPED_TRACE(to_string(a));
    const cub_select_agent model = cub_select_agent_for(a, kind, item_bytes);
    EXPECT_EQ(model.tile_items, agents[i].tile_items);
    EXPECT_EQ(model.vsmem_per_block, agents[i].vsmem_per_block);
    for (const uint64_t n : cub_item_counts()) {
      EXPECT_EQ(cub_select_temp_bytes(a, kind, n, item_bytes), cub_select_bytes(agents[i], n)) << n << " items";
    }
  }
}

template <int Bytes>
struct item {
  uint64_t w[Bytes / 8];
};

TEST(CubTempModelCub, SelectFlaggedKeys) {
  expect_select<const uint32_t*, const uint8_t*, uint32_t*, cub::NullType>(cub_select_kind::flagged_u32, 0);
}

TEST(CubTempModelCub, SelectIfIndices) {
  expect_select<thrust::counting_iterator<uint32_t>, cub::NullType*, uint32_t*, select_index>(
      cub_select_kind::if_index, 0);
}

TEST(CubTempModelCub, SelectFlaggedBuckets) {
  using g1 = ec::xyzz<ec::g1_curve>;
  using g2 = ec::xyzz<ec::g2_curve>;
  expect_select<const g1*, const uint8_t*, g1*, cub::NullType>(cub_select_kind::flagged_struct, sizeof(g1));
  expect_select<const g2*, const uint8_t*, g2*, cub::NullType>(cub_select_kind::flagged_struct, sizeof(g2));
  using bn254_g1 = ec::xyzz<ec::bn254::g1_curve>;
  using bn254_g2 = ec::xyzz<ec::bn254::g2_curve>;
  expect_select<const bn254_g1*, const uint8_t*, bn254_g1*, cub::NullType>(cub_select_kind::flagged_struct,
                                                                            sizeof(bn254_g1));
  expect_select<const bn254_g2*, const uint8_t*, bn254_g2*, cub::NullType>(cub_select_kind::flagged_struct,
                                                                            sizeof(bn254_g2));
}

// Item sizes around the edges of the agent's choices (128 threads, the 64-thread fallback, global
// storage): the model's rule, not only the two bucket sizes.
TEST(CubTempModelCub, SelectFlaggedStructSizes) {
  expect_select<const item<24>*, const uint8_t*, item<24>*, cub::NullType>(cub_select_kind::flagged_struct, 24);
  expect_select<const item<184>*, const uint8_t*, item<184>*, cub::NullType>(cub_select_kind::flagged_struct, 184);
  expect_select<const item<200>*, const uint8_t*, item<200>*, cub::NullType>(cub_select_kind::flagged_struct, 200);
  expect_select<const item<376>*, const uint8_t*, item<376>*, cub::NullType>(cub_select_kind::flagged_struct, 376);
  expect_select<const item<512>*, const uint8_t*, item<512>*, cub::NullType>(cub_select_kind::flagged_struct, 512);
}

}  // namespace
}  // namespace pp::cuda::test
