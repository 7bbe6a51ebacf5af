#include <gtest/gtest.h>
#include "ff/fp2.hpp"
#include "ff/fr.hpp"
using namespace pp::ff;
TEST(Smoke, InverseFp) {
  fp a = fp::from_uint(12345);
  EXPECT_TRUE((a * a.inverse()).is_one());
  fr b = fr::from_uint(777);
  EXPECT_TRUE((b * b.inverse()).is_one());
  fp2 c{fp::from_uint(3), fp::from_uint(5)};
  EXPECT_TRUE((c * c.inverse()).is_one());
  EXPECT_EQ(c.sqr(), c * c);
  fr w = root_of_unity(10);
  EXPECT_TRUE(w.pow(1024).is_one());
  EXPECT_FALSE(w.pow(512).is_one());
  fp s;
  EXPECT_TRUE(sqrt(fp::from_uint(4), s));
  EXPECT_EQ(s.sqr(), fp::from_uint(4));
}
