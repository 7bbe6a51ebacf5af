// Square roots in Fp2 (ff/fp2_sqrt.hpp, Adj-Rodriguez-Henriquez algorithm 9): squares of random
// elements, random non-squares, zero, and the elements of Fp and u Fp that take the alpha = -1 branch.
#include <gtest/gtest.h>

#include "ec_test_util.hpp"
#include "ff/fp2_sqrt.hpp"

namespace pp::ff {
namespace {

using ec::testing::random_field;
using ec::testing::test_rng;

TEST(Fp2Sqrt, SquaresHaveRoots) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  for (int i = 0; i < 100; ++i) {
    const fp2 a = random_field<fp2>(rng);
    const fp2 sq = a.sqr();
    fp2 s;
    ASSERT_TRUE(sqrt(sq, s));
    EXPECT_EQ(s.sqr(), sq);
    EXPECT_TRUE(s == a || s == -a);
  }
}

TEST(Fp2Sqrt, NonSquaresAreRejected) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  int non_squares = 0;
  for (int i = 0; i < 100; ++i) {
    const fp2 a = random_field<fp2>(rng);
    fp2 s = fp2::one();
    const bool ok = sqrt(a, s);
    EXPECT_EQ(ok, a.is_square());
    if (ok) {
      EXPECT_EQ(s.sqr(), a);
    } else {
      EXPECT_EQ(s, fp2::one()) << "out must be untouched on failure";
      ++non_squares;
    }
  }
  EXPECT_GT(non_squares, 20);  // about half; 100 tries make fewer than 21 vanishingly unlikely
}

TEST(Fp2Sqrt, EdgeCases) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  fp2 s;
  ASSERT_TRUE(sqrt(fp2::zero(), s));
  EXPECT_TRUE(s.is_zero());
  ASSERT_TRUE(sqrt(fp2::one(), s));
  EXPECT_EQ(s.sqr(), fp2::one());
  ASSERT_TRUE(sqrt(-fp2::one(), s));  // sqrt(-1) = +-u
  EXPECT_EQ(s.sqr(), -fp2::one());
  // Every element of Fp (and of u Fp) is a square in Fp2, including Fp non-squares.
  for (int i = 0; i < 20; ++i) {
    const fp c = random_field<fp>(rng);
    for (const fp2& a : {fp2{c, fp::zero()}, fp2{fp::zero(), c}}) {
      ASSERT_TRUE(sqrt(a, s));
      EXPECT_EQ(s.sqr(), a);
    }
  }
}

}  // namespace
}  // namespace pp::ff
