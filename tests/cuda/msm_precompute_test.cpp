// Precomputed MSM bases (src/cuda/msm/msm_precompute.hpp) and the MSM over them against the host, on
// fresh random inputs, for G1 and G2 of BLS12-381 and BN254: every copy equals 2^(g * group_windows * c) P by host doublings (infinity,
// repeated and negated points included); msm with the copies equals msm::naive_msm / msm::pippenger for
// small and 2^16 sizes, from two copies to one per digit, at forced and modelled widths (c = 1 to
// 22, wide windows with one bucket window), chunked (copies read at the chunk's offset), with a
// stride wider than n; zero, one and r - 1 scalars; the refusals (split, streamed, width and
// stride mismatches, too few copies).
// Exits 77 without a GPU (gpu_test_main.cpp).
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <vector>

#include "cuda/msm/msm_device.hpp"
#include "cuda/msm/msm_precompute.hpp"
#include "device_buffer.hpp"
#include "ec/ec.hpp"
#include "gpu_test_util.hpp"
#include "msm/msm.hpp"
#include "msm_points.hpp"
#include "support/status_matchers.hpp"

namespace pp::cuda::test {
namespace {

// Random scalars with 0, 1 and r - 1 mixed in.
template <class Fr>
std::vector<Fr> edgy_scalars(std::mt19937_64& rng, uint64_t n) {
  auto sc = random_scalars<Fr>(rng, n);
  for (uint64_t i = 0; i < n; ++i) {
    if (i % 17 == 3) sc[i] = Fr::zero();
    if (i % 19 == 5) sc[i] = Fr::one();
    if (i % 23 == 7) sc[i] = -Fr::one();
  }
  return sc;
}

// The table of pre's copies of points (copy 0 written from the host, the rest by the device).
template <class Curve>
struct device_table {
  device_buffer buf;
  explicit device_table(const std::vector<ec::affine<Curve>>& points, const msm_precomputation& pre)
      : buf(msm_precomputed_points(pre) * sizeof(ec::affine<Curve>)) {
    EXPECT_NE(buf.p, nullptr);
    EXPECT_EQ(cudaMemcpy(buf.p, points.data(), points.size() * sizeof(ec::affine<Curve>), cudaMemcpyHostToDevice),
              cudaSuccess);
    EXPECT_THAT(precompute_msm_bases<Curve>(ptr(), points.size(), pre, nullptr), IsOk());
    EXPECT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  }
  ec::affine<Curve>* ptr() const { return static_cast<ec::affine<Curve>*>(buf.p); }
};

// msm over the copies; the result in affine form.
template <class Curve>
ec::affine<Curve> gpu_msm_precomputed(const device_table<Curve>& table,
                                      const std::vector<typename Curve::scalar_field>& scalars,
                                      const msm_precomputation& pre, uint64_t max_chunk_points = 0) {
  using fr = typename Curve::scalar_field;
  const uint64_t n = scalars.size();
  const msm_config cfg{.max_chunk_points = max_chunk_points, .precomputed = pre};
  auto bytes = msm_workspace_bytes<Curve>(n, cfg);
  EXPECT_THAT(bytes, IsOk());
  if (!bytes.ok()) return ec::affine<Curve>::infinity();
  device_buffer d_scalars(n * sizeof(fr)), ws(*bytes);
  EXPECT_TRUE(d_scalars.p && ws.p);
  EXPECT_EQ(cudaMemcpy(d_scalars.p, scalars.data(), n * sizeof(fr), cudaMemcpyHostToDevice), cudaSuccess);
  ec::xyzz<Curve> out{};
  EXPECT_THAT(msm<Curve>(table.ptr(), static_cast<const fr*>(d_scalars.p), n, ws.p, *bytes, &out, nullptr, cfg),
              IsOk());
  EXPECT_EQ(cudaStreamSynchronize(nullptr), cudaSuccess);
  return ec::to_affine(out);
}

template <class Curve>
class MsmPrecompute : public ::testing::Test {};
using curves = ::testing::Types<ec::g1_curve, ec::g2_curve, ec::bn254::g1_curve, ec::bn254::g2_curve>;
TYPED_TEST_SUITE(MsmPrecompute, curves);

TYPED_TEST(MsmPrecompute, CopiesAreDoublings) {
  using C = TypeParam;
  std::mt19937_64 rng(pp::test::test_seed());
  for (const uint64_t n : {uint64_t{1}, uint64_t{7}, uint64_t{8}, uint64_t{9}, uint64_t{1000}}) {
    const auto pts = edgy_points<C>(rng(), n);
    for (const int c : {1, 5, 16}) {
      auto pre = make_msm_precomputation(n, 4, c);
      ASSERT_THAT(pre, IsOk());
      pre->stride = n + 3;  // copies further apart than the points
      const device_table<C> table(pts, *pre);
      std::vector<ec::affine<C>> got(msm_precomputed_points(*pre));
      ASSERT_EQ(cudaMemcpy(got.data(), table.ptr(), got.size() * sizeof(ec::affine<C>), cudaMemcpyDeviceToHost),
                cudaSuccess);
      int bad = 0;
      for (uint64_t i = 0; i < n; ++i) {
        ec::xyzz<C> want = ec::to_xyzz(pts[i]);
        for (uint32_t g = 0; g < pre->groups; ++g) {
          if (g > 0) {
            for (int s = 0; s < pre->group_windows * c; ++s) want = ec::dbl(want);
          }
          bad += !(got[g * pre->stride + i] == ec::to_affine(want));
        }
      }
      EXPECT_EQ(bad, 0) << C::name << " n=" << n << " c=" << c << " groups=" << pre->groups;
    }
  }
}

// Small sizes against the naive MSM: every group count from 2 to one per digit, widths forced from
// 1 to 22, chunks of 1, 7 and all points.
TYPED_TEST(MsmPrecompute, SmallSizesMatchNaive) {
  using C = TypeParam;
  std::mt19937_64 rng(pp::test::test_seed());
  int bad = 0, runs = 0;
  for (const uint64_t n : {uint64_t{1}, uint64_t{2}, uint64_t{33}, uint64_t{257}}) {
    const auto pts = edgy_points<C>(rng(), n);
    const auto sc = edgy_scalars<typename C::scalar_field>(rng, n);
    const auto want = ec::to_affine(msm::naive_msm<C>(pts, sc));
    for (const int c : {1, 3, 8, 13, 22}) {
      for (const uint32_t groups : {2u, 3u, 5u, 1000u}) {
        auto pre = make_msm_precomputation(n, groups, c);
        ASSERT_THAT(pre, IsOk());
        if (pre->groups < 2) continue;
        const device_table<C> table(pts, *pre);
        for (const uint64_t limit : {uint64_t{0}, uint64_t{7}, uint64_t{1}}) {
          if (limit == 1 && n > 33) continue;
          ++runs;
          if (!(gpu_msm_precomputed<C>(table, sc, *pre, limit) == want)) {
            ++bad;
            std::printf("mismatch: %s n=%llu c=%d groups=%u windows=%d limit=%llu\n", C::name,
                        (unsigned long long)n, c, pre->groups, pre->group_windows, (unsigned long long)limit);
          }
        }
      }
    }
  }
  EXPECT_GT(runs, 100);
  EXPECT_EQ(bad, 0);
}

// 2^16 + 1 points against the host Pippenger: the modelled width for 2, 4 and one copy per digit,
// and the widest width with one copy per digit, in one pass and in chunks.
TYPED_TEST(MsmPrecompute, LargeMatchesHost) {
  using C = TypeParam;
  std::mt19937_64 rng(pp::test::test_seed());
  const uint64_t n = (uint64_t{1} << 16) + 1;
  const auto pts = edgy_points<C>(rng(), n);
  const auto sc = edgy_scalars<typename C::scalar_field>(rng, n);
  const auto want = ec::to_affine(msm::pippenger<C>(pts, sc));
  for (const auto& [groups, c] : std::vector<std::pair<uint32_t, int>>{{2, 0}, {4, 0}, {64, 0}, {64, 22}}) {
    auto pre = make_msm_precomputation(n, groups, c);
    ASSERT_THAT(pre, IsOk());
    const device_table<C> table(pts, *pre);
    for (const uint64_t limit : {uint64_t{0}, uint64_t{20000}}) {
      EXPECT_TRUE(gpu_msm_precomputed<C>(table, sc, *pre, limit) == want)
          << C::name << " groups=" << pre->groups << " c=" << pre->window_bits << " limit=" << limit;
    }
    std::printf("%s n=%llu: %u copies, c=%d, %d windows: checked\n", C::name, (unsigned long long)n, pre->groups,
                pre->window_bits, pre->group_windows);
  }
}

TEST(MsmPrecomputeArgs, Refused) {
  using C = ec::g1_curve;
  const uint64_t n = 64;
  auto pre = make_msm_precomputation(n, 4, 10);
  ASSERT_THAT(pre, IsOk());
  ec::xyzz<C> out{};
  // Neither split nor streamed MSMs take copies; a width other than the copies' is refused.
  EXPECT_FALSE(split_msm_workspace_bytes<C>(n, msm_config{.precomputed = *pre}).ok());
  EXPECT_FALSE(msm_workspace_bytes<C>(n, msm_config{.window_bits = 11, .precomputed = *pre}).ok());
  EXPECT_TRUE(msm_workspace_bytes<C>(n, msm_config{.window_bits = 10, .precomputed = *pre}).ok());
  msm_point_stream ps;
  EXPECT_FALSE(msm_streamed<C>(nullptr, nullptr, n, nullptr, 0, &out, nullptr, ps, msm_config{.precomputed = *pre})
                   .ok());
  // Copies closer together than n, too few for the digits, one copy.
  EXPECT_FALSE(msm_workspace_bytes<C>(n + 1, msm_config{.precomputed = *pre}).ok());
  msm_precomputation few = *pre;
  few.groups = 2;
  EXPECT_FALSE(msm_workspace_bytes<C>(n, msm_config{.precomputed = few}).ok());
  device_buffer table(msm_precomputed_points(*pre) * sizeof(ec::affine<C>));
  auto* t = static_cast<ec::affine<C>*>(table.p);
  EXPECT_FALSE(precompute_msm_bases<C>(t, n, few, nullptr).ok());
  EXPECT_FALSE(precompute_msm_bases<C>(t, n, msm_precomputation{}, nullptr).ok());
  EXPECT_FALSE(precompute_msm_bases<C>(nullptr, n, *pre, nullptr).ok());
  EXPECT_FALSE(precompute_msm_bases<C>(t, n + 1, *pre, nullptr).ok());
  EXPECT_THAT(precompute_msm_bases<C>(t, n, *pre, nullptr), IsOk());
}

}  // namespace
}  // namespace pp::cuda::test
