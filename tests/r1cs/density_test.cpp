// Density bitmaps: parallel build equals the serial reference and the set computed from the LCs.
#include "r1cs/density.hpp"

#include <gtest/gtest.h>

#include <set>

#include "random_system.hpp"
#include "support/status_matchers.hpp"

namespace pp::r1cs {
namespace {

using ff::fr;

std::set<uint32_t> used(const std::vector<linear_combination>& rows) {
  std::set<uint32_t> s;
  for (const auto& lc : rows) {
    for (const term& t : lc) {
      if (!t.coeff.is_zero()) s.insert(t.var);
    }
  }
  return s;
}

TEST(Density, RandomSystems) {
  uint64_t seed = testing::test_seed();
  const std::pair<uint64_t, uint64_t> shapes[] = {{0, 0}, {1, 1}, {50, 63}, {50, 64}, {200, 65}, {40000, 100000}};
  for (auto [rows, vars] : shapes) {
    const auto sys = testing::random_lc_system(seed, rows, vars / 4, vars - vars / 4, 3);
    const auto cs = sys.build();
    const column_density d = compute_density(cs);
    ASSERT_EQ(d.a.size(), cs.num_variables());
    EXPECT_EQ(d.a, reference::naive_density(cs, matrix_id::a));
    EXPECT_EQ(d.b, reference::naive_density(cs, matrix_id::b));
    const auto ua = used(sys.a), ub = used(sys.b);
    for (uint64_t v = 0; v < cs.num_variables(); ++v) {
      ASSERT_EQ(d.a.test(v), ua.count(static_cast<uint32_t>(v)) == 1) << "variable " << v;
      ASSERT_EQ(d.b.test(v), ub.count(static_cast<uint32_t>(v)) == 1) << "variable " << v;
    }
    EXPECT_EQ(d.a.count(), ua.size());
    EXPECT_EQ(d.a.count(1, cs.num_variables()), ua.size() - ua.count(0));
  }
}

TEST(Density, ZeroCoefficientsDoNotCountAndCIsIgnored) {
  constraint_system_builder b(1, 2);
  ASSERT_TRUE(b.add_constraint(std::vector<term>{{1, fr::zero()}, {2, fr::one()}}, std::vector<term>{{3, fr::zero()}},
                               std::vector<term>{{3, fr::one()}})
                  .ok());
  auto cs = std::move(b).build();
  ASSERT_THAT(cs, IsOk());
  const column_density d = compute_density(*cs);
  EXPECT_FALSE(d.a.test(1));
  EXPECT_TRUE(d.a.test(2));
  EXPECT_EQ(d.a.count(), 1u);
  EXPECT_EQ(d.b.count(), 0u);
}

TEST(Density, BitmapCountRanges) {
  bitmap m(200);
  for (std::size_t i : {0, 5, 63, 64, 127, 128, 199}) m.set(i);
  EXPECT_EQ(m.count(), 7u);
  EXPECT_EQ(m.count(1, 64), 2u);
  EXPECT_EQ(m.count(64, 128), 2u);
  EXPECT_EQ(m.count(63, 129), 4u);
  EXPECT_EQ(m.count(199, 200), 1u);
  EXPECT_EQ(m.count(150, 150), 0u);
}

}  // namespace
}  // namespace pp::r1cs
