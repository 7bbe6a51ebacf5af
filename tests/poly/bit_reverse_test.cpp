// bit_reverse_permute against its definition; invalid sizes.
#include "poly/bit_reverse.hpp"

#include <gtest/gtest.h>

#include "poly/random_fr.hpp"  // tests/poly
#include "support/status_matchers.hpp"

namespace pp::poly {
namespace {

using ff::fr;

TEST(BitReverseIndex, SmallCases) {
  EXPECT_EQ(bit_reverse_index(0, 0), 0u);
  EXPECT_EQ(bit_reverse_index(1, 1), 1u);
  EXPECT_EQ(bit_reverse_index(1, 3), 4u);
  EXPECT_EQ(bit_reverse_index(6, 3), 3u);
  EXPECT_EQ(bit_reverse_index(1, 28), uint64_t{1} << 27);
}

TEST(BitReversePermute, MatchesDefinitionAndIsInvolution) {
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  for (int log_n = 0; log_n <= 16; ++log_n) {
    SCOPED_TRACE("log_n = " + std::to_string(log_n));
    const std::size_t n = std::size_t{1} << log_n;
    const std::vector<fr> x = rng.vector(n);
    std::vector<fr> y = x;
    ASSERT_THAT(bit_reverse_permute(y), IsOk());
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(y[i], x[bit_reverse_index(i, log_n)]) << "i = " << i;
    ASSERT_THAT(bit_reverse_permute(y), IsOk());
    EXPECT_EQ(y, x);
  }
}

TEST(BitReversePermute, EmptyIsOk) {
  std::vector<fr> empty;
  EXPECT_THAT(bit_reverse_permute(empty), IsOk());
}

TEST(BitReversePermute, RejectsNonPowerOfTwo) {
  for (std::size_t n : {3, 5, 6, 12, 1000}) {
    std::vector<fr> x(n, fr::one());
    const status s = bit_reverse_permute(x);
    EXPECT_EQ(s.code(), status_code::invalid_argument) << n;
    EXPECT_NE(s.message().find(std::to_string(n)), std::string::npos) << s.message();
  }
}

}  // namespace
}  // namespace pp::poly
