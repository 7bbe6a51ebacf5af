// fill_powers and distribute_powers against sequential products, across parallel chunk edges.
#include "poly/powers.hpp"

#include <gtest/gtest.h>

#include "ff/bn254_fr.hpp"
#include "poly/random_fr.hpp"  // tests/poly

namespace pp::poly {
namespace {

// Every test runs on both curves' scalar fields.
using fields = ::testing::Types<ff::fr, ff::bn254::fr>;
template <class Fr>
class Powers : public ::testing::Test {};
TYPED_TEST_SUITE(Powers, fields);

TYPED_TEST(Powers, FillMatchesSequentialProducts) {
  using fr = TypeParam;
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  for (std::size_t n : {0, 1, 2, 4095, 4096, 4097, 20000}) {
    const fr base = rng.template next<fr>();
    const fr c = rng.template next<fr>();
    std::vector<fr> out(n);
    fill_powers(out, base, c);
    fr p = c;
    for (std::size_t i = 0; i < n; ++i, p *= base) ASSERT_EQ(out[i], p) << "n = " << n << ", i = " << i;
  }
}

TYPED_TEST(Powers, DistributeMultipliesByShiftedPowers) {
  using fr = TypeParam;
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  for (std::size_t n : {0, 1, 3, 8193, 20000}) {
    const fr s = rng.template next<fr>();
    const std::vector<fr> x = rng.template vector<fr>(n);
    std::vector<fr> y = x;
    distribute_powers(y, s);
    std::vector<fr> z = x;
    const fr c = rng.template next<fr>();
    distribute_powers(z, s, c);
    fr p = fr::one();
    for (std::size_t i = 0; i < n; ++i, p *= s) {
      ASSERT_EQ(y[i], x[i] * p) << "i = " << i;
      ASSERT_EQ(z[i], x[i] * p * c) << "i = " << i;
    }
  }
}

TYPED_TEST(Powers, ZeroAndOneBases) {
  using fr = TypeParam;
  std::vector<fr> out(5);
  fill_powers(out, fr::zero());
  EXPECT_EQ(out[0], fr::one());  // 0^0 = 1
  for (int i = 1; i < 5; ++i) EXPECT_TRUE(out[i].is_zero());
  fill_powers(out, fr::one());
  for (const fr& x : out) EXPECT_TRUE(x.is_one());
}

}  // namespace
}  // namespace pp::poly
