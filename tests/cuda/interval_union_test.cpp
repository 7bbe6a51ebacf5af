// interval_union (src/cuda/runtime/interval_union.hpp), host only: against a brute-force union of random
// overlapping intervals arriving in end order with bounded disorder (exact), and with a tiny window
// and arbitrary order (never more than the exact union). Fresh seed per run.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <random>
#include <vector>

#include "cuda/runtime/interval_union.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

using iv = std::pair<double, double>;

double exact_union(std::vector<iv> v) {
  std::sort(v.begin(), v.end());
  double total = 0, b = 0, e = -1;
  bool open = false;
  for (const auto& [x, y] : v) {
    if (y <= x) continue;
    if (open && x <= e) {
      e = std::max(e, y);
    } else {
      if (open) total += e - b;
      b = x, e = y, open = true;
    }
  }
  return open ? total + (e - b) : total;
}

// Two "lanes" of back-to-back intervals with gaps, the way partitions finish on a GPU.
std::vector<iv> lanes(std::mt19937_64& rng, int per_lane) {
  std::vector<iv> v;
  for (int lane = 0; lane < 2; ++lane) {
    double t = lane * 3.0;
    for (int i = 0; i < per_lane; ++i) {
      const double len = 1 + double(rng() % 1000) / 100;
      const double gap = rng() % 4 == 0 ? double(rng() % 500) / 100 : 0;
      v.emplace_back(t + gap, t + gap + len);
      t += gap + len;
    }
  }
  return v;
}

TEST(IntervalUnion, EmptyAndSingle) {
  interval_union u;
  EXPECT_EQ(u.read().count, 0u);
  EXPECT_EQ(u.read().covered, 0);
  EXPECT_EQ(u.read().span, 0);
  u.add(5, 5);  // empty: counted, covers nothing
  u.add(2, 4);
  const auto t = u.read();
  EXPECT_EQ(t.count, 2u);
  EXPECT_DOUBLE_EQ(t.covered, 2);
  EXPECT_DOUBLE_EQ(t.span, 3);  // 2 .. 5
}

TEST(IntervalUnion, EndOrderedArrivalsAreExact) {
  std::mt19937_64 rng(pp::test::test_seed());
  for (int round = 0; round < 20; ++round) {
    auto v = lanes(rng, 500);
    std::sort(v.begin(), v.end(), [](const iv& a, const iv& b) { return a.second < b.second; });
    // Bounded disorder: swap neighbours now and then (two lanes finish in either order).
    for (std::size_t i = 1; i < v.size(); ++i) {
      if (rng() % 3 == 0) std::swap(v[i - 1], v[i]);
    }
    interval_union u;
    for (const auto& [b, e] : v) u.add(b, e);
    const auto t = u.read();
    EXPECT_NEAR(t.covered, exact_union(v), 1e-6);
    EXPECT_EQ(t.count, v.size());
    EXPECT_LE(t.covered, t.span + 1e-9);
  }
}

TEST(IntervalUnion, ArbitraryOrderNeverOverCounts) {
  std::mt19937_64 rng(pp::test::test_seed());
  auto v = lanes(rng, 300);
  std::shuffle(v.begin(), v.end(), rng);
  interval_union u(2);
  for (const auto& [b, e] : v) u.add(b, e);
  EXPECT_LE(u.read().covered, exact_union(v) + 1e-6);
  EXPECT_GT(u.read().covered, 0);
}

}  // namespace
}  // namespace pp::cuda::test
