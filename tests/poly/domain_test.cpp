// evaluation_domain: constants against their definitions, twiddle tables, invalid sizes.
#include "poly/domain.hpp"

#include <gtest/gtest.h>

#include "ff/bn254_fr.hpp"
#include "poly/random_fr.hpp"  // tests/poly
#include "support/status_matchers.hpp"

namespace pp::poly {
namespace {

using ::testing::Not;

// Every test runs on both curves' scalar fields.
using fields = ::testing::Types<ff::fr, ff::bn254::fr>;
template <class Fr>
class Domain : public ::testing::Test {};
TYPED_TEST_SUITE(Domain, fields);

TYPED_TEST(Domain, ConstantsMatchDefinitions) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  for (int log_n : {0, 1, 2, 3, 10, 12, 13, 16}) {
    SCOPED_TRACE("log_n = " + std::to_string(log_n));
    auto d = evaluation_domain::create(log_n);
    ASSERT_THAT(d, IsOk());
    const uint64_t n = uint64_t{1} << log_n;
    EXPECT_EQ(d->size(), n);
    EXPECT_EQ(d->log_size(), log_n);
    EXPECT_TRUE(d->omega().pow(n).is_one());
    if (n >= 2) {
      EXPECT_EQ(d->omega().pow(n / 2), -fr::one());  // primitive
    }
    EXPECT_TRUE((d->omega() * d->omega_inv()).is_one());
    EXPECT_TRUE((fr::from_uint(n) * d->size_inv()).is_one());
    EXPECT_EQ(d->coset_shift(), ff::coset_generator<fr>());
    EXPECT_EQ(d->coset_shift(), fr::from_uint(std::is_same_v<fr, ff::fr> ? 7 : 5));
    EXPECT_TRUE((d->coset_shift() * d->coset_shift_inv()).is_one());
    EXPECT_EQ(d->vanishing_on_coset(), d->coset_shift().pow(n) - fr::one());
    EXPECT_FALSE(d->vanishing_on_coset().is_zero());
    EXPECT_TRUE((d->vanishing_on_coset() * d->vanishing_on_coset_inv()).is_one());
    // Z is constant on the coset and zero on the subgroup.
    const uint64_t i = rng.next_u64();
    EXPECT_EQ(d->evaluate_vanishing(d->coset_shift() * d->element(i)), d->vanishing_on_coset());
    EXPECT_TRUE(d->evaluate_vanishing(d->element(i)).is_zero());
    EXPECT_EQ(d->element(i), d->omega().pow(i % n));
  }
}

TYPED_TEST(Domain, TwiddleTables) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  for (int log_n : {0, 1, 2, 5, 12, 14}) {
    SCOPED_TRACE("log_n = " + std::to_string(log_n));
    auto d = evaluation_domain::create(log_n);
    ASSERT_THAT(d, IsOk());
    const uint64_t n = d->size();
    auto tw = d->twiddles();
    ASSERT_EQ(tw.size(), n / 2 + 1);
    fr p = fr::one();
    for (uint64_t e = 0; e < tw.size(); ++e, p *= d->omega()) ASSERT_EQ(tw[e], p) << "e = " << e;
    if (n >= 2) {
      EXPECT_EQ(tw[n / 2], -fr::one());
    }

    const uint64_t leaf = d->leaf_size();
    EXPECT_EQ(leaf, std::min<uint64_t>(n, uint64_t{1} << evaluation_domain::leaf_log_n));
    auto lt = d->leaf_twiddles();
    ASSERT_EQ(lt.size(), leaf / 2 + 1);
    const uint64_t stride = n / leaf;  // w_leaf = omega^(n/leaf)
    for (uint64_t e = 0; e < lt.size(); ++e) ASSERT_EQ(lt[e], d->omega().pow(e * stride)) << e;
  }
}

TYPED_TEST(Domain, RejectsInvalidSizes) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  for (int log_n : {-1, 29, 32, 64}) {
    auto d = evaluation_domain::create(log_n);
    ASSERT_THAT(d, StatusIs(status_code::invalid_argument)) << log_n;
    EXPECT_NE(d.error().message().find(std::to_string(log_n)), std::string::npos) << d.error().message();
  }
  for (uint64_t n : {uint64_t{0}, uint64_t{3}, uint64_t{6}, uint64_t{1000}, uint64_t{1} << 29, ~uint64_t{0}}) {
    auto d = evaluation_domain::for_size(n);
    ASSERT_THAT(d, StatusIs(status_code::invalid_argument)) << n;
    EXPECT_NE(d.error().message().find(std::to_string(n)), std::string::npos) << d.error().message();
  }
  EXPECT_THAT(evaluation_domain::covering(0), Not(IsOk()));
  EXPECT_THAT(evaluation_domain::covering((uint64_t{1} << 28) + 1), Not(IsOk()));
}

TYPED_TEST(Domain, SizeConstructors) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  auto d = evaluation_domain::for_size(1024);
  ASSERT_THAT(d, IsOk());
  EXPECT_EQ(d->log_size(), 10);
  for (auto [want, log_n] : {std::pair<uint64_t, int>{1, 0}, {2, 1}, {3, 2}, {4, 2}, {5, 3}, {1025, 11}}) {
    auto c = evaluation_domain::covering(want);
    ASSERT_THAT(c, IsOk()) << want;
    EXPECT_EQ(c->log_size(), log_n) << want;
  }
}

}  // namespace
}  // namespace pp::poly
