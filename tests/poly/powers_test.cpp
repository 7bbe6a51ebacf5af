// fill_powers and distribute_powers against sequential products, across parallel chunk edges.
#include "poly/powers.hpp"

#include <gtest/gtest.h>

#include "poly/random_fr.hpp"  // tests/poly

namespace pp::poly {
namespace {

using ff::fr;

TEST(Powers, FillMatchesSequentialProducts) {
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  for (std::size_t n : {0, 1, 2, 4095, 4096, 4097, 20000}) {
    const fr base = rng.next();
    const fr c = rng.next();
    std::vector<fr> out(n);
    fill_powers(out, base, c);
    fr p = c;
    for (std::size_t i = 0; i < n; ++i, p *= base) ASSERT_EQ(out[i], p) << "n = " << n << ", i = " << i;
  }
}

TEST(Powers, DistributeMultipliesByShiftedPowers) {
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  for (std::size_t n : {0, 1, 3, 8193, 20000}) {
    const fr s = rng.next();
    const std::vector<fr> x = rng.vector(n);
    std::vector<fr> y = x;
    distribute_powers(y, s);
    std::vector<fr> z = x;
    const fr c = rng.next();
    distribute_powers(z, s, c);
    fr p = fr::one();
    for (std::size_t i = 0; i < n; ++i, p *= s) {
      ASSERT_EQ(y[i], x[i] * p) << "i = " << i;
      ASSERT_EQ(z[i], x[i] * p * c) << "i = " << i;
    }
  }
}

TEST(Powers, ZeroAndOneBases) {
  std::vector<fr> out(5);
  fill_powers(out, fr::zero());
  EXPECT_EQ(out[0], fr::one());  // 0^0 = 1
  for (int i = 1; i < 5; ++i) EXPECT_TRUE(out[i].is_zero());
  fill_powers(out, fr::one());
  for (const fr& x : out) EXPECT_TRUE(x.is_one());
}

}  // namespace
}  // namespace pp::poly
