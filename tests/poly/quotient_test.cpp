// compute_quotient: with c = a*b on <omega>, A*B - C = h * Z as polynomials; checked at a random
// point with the interpolants evaluated by Horner, and the two output forms against each other.
#include "poly/quotient.hpp"

#include <gtest/gtest.h>

#include "poly/ntt.hpp"
#include "ff/bn254_fr.hpp"
#include "poly/random_fr.hpp"  // tests/poly
#include "poly/reference_dft.hpp"
#include "support/status_matchers.hpp"

namespace pp::poly {
namespace {

// Every test runs on both curves' scalar fields.
using fields = ::testing::Types<ff::fr, ff::bn254::fr>;
template <class Fr>
class Quotient : public ::testing::Test {};
TYPED_TEST_SUITE(Quotient, fields);

TYPED_TEST(Quotient, SatisfiesDivisionIdentity) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  testing::random_fr_source rng;
  SCOPED_TRACE(rng.trace());
  for (int log_n : {0, 1, 2, 3, 6, 13}) {
    SCOPED_TRACE("log_n = " + std::to_string(log_n));
    auto d = evaluation_domain::create(log_n).value();
    const std::size_t n = d.size();
    const std::vector<fr> a = rng.template vector<fr>(n), b = rng.template vector<fr>(n);
    std::vector<fr> c(n);
    for (std::size_t i = 0; i < n; ++i) c[i] = a[i] * b[i];

    std::vector<fr> h = a, sb = b, sc = c;
    ASSERT_THAT(compute_quotient(d, h, sb, sc, quotient_form::coefficients), IsOk());
    std::vector<fr> ca = a, cb = b, cc = c;  // interpolants' coefficients
    ASSERT_THAT(intt(d, ca), IsOk());
    ASSERT_THAT(intt(d, cb), IsOk());
    ASSERT_THAT(intt(d, cc), IsOk());
    const fr x = rng.template next<fr>();
    const fr lhs = reference::evaluate(ca, x) * reference::evaluate(cb, x) - reference::evaluate(cc, x);
    EXPECT_EQ(lhs, reference::evaluate(h, x) * d.evaluate_vanishing(x));
    // deg h <= n - 2: the top coefficient is zero.
    if (n >= 2) {
      EXPECT_TRUE(h[n - 1].is_zero());
    }

    std::vector<fr> he = a;
    sb = b;
    sc = c;
    ASSERT_THAT(compute_quotient(d, he, sb, sc, quotient_form::coset_evaluations), IsOk());
    ASSERT_THAT(coset_ntt(d, h), IsOk());
    EXPECT_EQ(he, h);
  }
}

TYPED_TEST(Quotient, RejectsSizeMismatch) {
  using fr = TypeParam;
  using evaluation_domain = basic_evaluation_domain<fr>;
  auto d = evaluation_domain::create(2).value();
  std::vector<fr> a(4), b(4), c(3);
  const status s = compute_quotient(d, a, b, c, quotient_form::coefficients);
  EXPECT_EQ(s.code(), status_code::invalid_argument);
  EXPECT_NE(s.message().find("got 4, 4, 3"), std::string::npos) << s.message();
}

}  // namespace
}  // namespace pp::poly
