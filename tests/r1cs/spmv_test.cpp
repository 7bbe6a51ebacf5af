// SpMV against per-row naive evaluation of the original linear combinations, in every mode.
#include "r1cs/spmv.hpp"

#include <gtest/gtest.h>

#include "r1cs/witness.hpp"
#include "random_system.hpp"
#include "support/status_matchers.hpp"

namespace pp::r1cs {
namespace {

using ff::fr;

void expect_matches(const testing::lc_system& sys, const constraint_system& cs, const std::vector<fr>& w,
                    std::size_t pad) {
  for (bool parallel : {false, true}) {
    for (bool fast : {false, true}) {
      SCOPED_TRACE(::testing::Message() << "parallel " << parallel << " fast " << fast << " pad " << pad);
      const spmv_options opt{parallel, fast, 7};  // a small grain splits even small systems
      std::vector<fr> a(cs.num_constraints() + pad, fr::one()), b(cs.num_constraints() + pad + 1, fr::one()),
          c(cs.num_constraints() + pad, fr::one());
      ASSERT_THAT(evaluate_abc(cs, w, a, b, c, opt), IsOk());
      for (std::size_t i = 0; i < cs.num_constraints(); ++i) {
        ASSERT_EQ(a[i], reference::evaluate_lc(sys.a[i], w)) << "row " << i;
        ASSERT_EQ(b[i], reference::evaluate_lc(sys.b[i], w)) << "row " << i;
        ASSERT_EQ(c[i], reference::evaluate_lc(sys.c[i], w)) << "row " << i;
      }
      for (std::size_t i = cs.num_constraints(); i < a.size(); ++i) ASSERT_TRUE(a[i].is_zero() && c[i].is_zero());
      for (std::size_t i = cs.num_constraints(); i < b.size(); ++i) ASSERT_TRUE(b[i].is_zero());
      std::vector<fr> out(cs.num_constraints() + pad, fr::one());
      ASSERT_THAT(spmv(cs, matrix_id::b, w, out, opt), IsOk());
      EXPECT_TRUE(std::equal(out.begin(), out.end(), b.begin()));
    }
  }
  EXPECT_EQ(reference::naive_spmv(cs, matrix_id::c, w),
            std::vector<fr>(sys.c.size() == 0 ? std::vector<fr>{} : std::vector<fr>([&] {
              std::vector<fr> v;
              for (const auto& lc : sys.c) v.push_back(reference::evaluate_lc(lc, w));
              return v;
            }())));
}

TEST(Spmv, RandomSystemsMatchNaive) {
  uint64_t seed = testing::test_seed();
  const std::pair<uint64_t, uint64_t> shapes[] = {{0, 0}, {1, 0}, {1, 1}, {2, 3}, {100, 17}, {1000, 2000}, {5000, 300}};
  for (auto [rows, vars] : shapes) {
    const uint64_t pub = vars / 3;
    const auto sys = testing::random_lc_system(seed, rows, pub, vars - pub, 5);
    const auto cs = sys.build();
    const auto w = testing::random_witness(seed, cs.num_variables());
    for (std::size_t pad : {0, 1, 13}) expect_matches(sys, cs, w, pad);
  }
}

TEST(Spmv, PoRepLikeSyntheticMatchesNaive) {
  uint64_t seed = testing::test_seed();
  synthetic_params p;
  p.num_constraints = 20000;
  p.num_aux = 20000;
  p.seed = seed;
  auto circuit = make_synthetic(p);
  ASSERT_THAT(circuit, IsOk());
  const auto& cs = circuit->cs;
  std::vector<fr> a(1 << 15), b(1 << 15), c(1 << 15);
  ASSERT_THAT(evaluate_abc(cs, circuit->w, a, b, c), IsOk());
  EXPECT_EQ(std::vector<fr>(a.begin(), a.begin() + p.num_constraints), reference::naive_spmv(cs, matrix_id::a, circuit->w));
  EXPECT_EQ(std::vector<fr>(b.begin(), b.begin() + p.num_constraints), reference::naive_spmv(cs, matrix_id::b, circuit->w));
  EXPECT_EQ(std::vector<fr>(c.begin(), c.begin() + p.num_constraints), reference::naive_spmv(cs, matrix_id::c, circuit->w));
  for (std::size_t i = 0; i < p.num_constraints; ++i) ASSERT_EQ(a[i] * b[i], c[i]) << "row " << i;
}

TEST(Spmv, RejectsBadSizes) {
  uint64_t seed = testing::test_seed();
  const auto cs = testing::random_lc_system(seed, 10, 2, 5, 3).build();
  std::vector<fr> w(cs.num_variables() + 1, fr::one()), out(10);
  status s = spmv(cs, matrix_id::a, w, out);
  EXPECT_EQ(s.code(), status_code::invalid_argument);
  EXPECT_EQ(s.message(), "witness has 9 values, the constraint system expects 8 (1 + 2 public + 5 aux)");
  w.pop_back();
  std::vector<fr> short_out(9);
  s = evaluate_abc(cs, w, out, short_out, out);
  EXPECT_EQ(s.code(), status_code::invalid_argument);
  EXPECT_EQ(s.message(), "output b has 9 entries, expected at least 10 constraints");
}

}  // namespace
}  // namespace pp::r1cs
