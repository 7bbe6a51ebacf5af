// Algebraic properties of the optimal ate pairing (bilinearity, order r, non-degeneracy, inverses,
// products, infinity, prepared lines, Groth16-shaped products of two and three pairings) and the final
// exponentiation against its naive exponent m (p^12 - 1)/r, written once over the curve family and
// instantiated for BLS12-381 (m = 3) and BN254 (m = 2x (6x^2 + 3x + 1)).
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <vector>

#include "pairing/pairing.hpp"
#include "pairing_test_util.hpp"

namespace {

using namespace pp::pairing;
using namespace pp::pairing::testing;

mpz_class from_limbs(const uint64_t* v, int n) {
  mpz_class r;
  mpz_import(r.get_mpz_t(), n, -1, sizeof(uint64_t), 0, 0, v);
  return r;
}

template <class F>
F pow_mpz(const F& a, const mpz_class& e) {
  std::vector<uint64_t> l((mpz_sizeinbase(e.get_mpz_t(), 2) + 63) / 64 + 1, 0);
  size_t count = 0;
  mpz_export(l.data(), &count, -1, sizeof(uint64_t), 0, 0, e.get_mpz_t());
  return a.pow(l.data(), static_cast<int>(l.size()));
}

// What differs between the families: the prepared line count and the final exponent's multiplier.
template <class Family>
struct expected;
template <>
struct expected<pp::ec::bls12_381::family> {
  static constexpr size_t prepared_lines = 68;  // 63 doubling + 5 addition steps
  static mpz_class multiplier() { return 3; }
};
template <>
struct expected<pp::ec::bn254::family> {
  static constexpr size_t prepared_lines = 88;  // 65 doubling + 21 addition + 2 Frobenius steps
  static mpz_class multiplier() {
    const mpz_class x = from_limbs(&pp::ff::bn254::tower_params::seed_abs, 1);
    return 2 * x * (6 * x * x + 3 * x + 1);
  }
};

template <class Family>
class Pairing : public ::testing::Test {
 protected:
  using fr = typename Family::fr;
  using fp12 = gt_field<Family>;
  using g1_affine = pp::ec::affine<typename Family::g1_curve>;
  using g2_affine = pp::ec::affine<typename Family::g2_curve>;
  using term = pairing_term_t<Family>;
  using pterm = prepared_term_t<Family>;

  const g1_affine g1 = pp::ec::generator<typename Family::g1_curve>();
  const g2_affine g2 = pp::ec::generator<typename Family::g2_curve>();

  static fr random(std::mt19937_64& g) { return random_fr<fr>(g); }
  static g1_affine p_mul(const fr& k) { return g1_mul<Family>(k); }
  static g2_affine q_mul(const fr& k) { return g2_mul<Family>(k); }
  static fp12 pow_fr(const fp12& a, const fr& k) {
    uint64_t c[4];
    k.to_canonical(c);
    return a.pow(c, 4);
  }
  static const uint64_t* r_limbs() { return fr::params::modulus; }
};
using families = ::testing::Types<pp::ec::bls12_381::family, pp::ec::bn254::family>;
TYPED_TEST_SUITE(Pairing, families, family_name_generator);

TYPED_TEST(Pairing, NonDegenerateAndOfOrderR) {
  const auto e = pairing(this->g1, this->g2);
  EXPECT_FALSE(e.is_one());
  EXPECT_TRUE(e.pow(this->r_limbs(), 4).is_one());
  // In the cyclotomic subgroup: the conjugate is the inverse.
  EXPECT_TRUE((e * e.conjugate()).is_one());
}

TYPED_TEST(Pairing, Bilinear) {
  using T = TestFixture;
  test_rng r;
  SCOPED_TRACE(r.trace());
  const auto k1 = T::random(r.gen), k2 = T::random(r.gen);
  const auto p = T::p_mul(k1);
  const auto q = T::q_mul(k2);
  const auto e = pairing(p, q);
  EXPECT_TRUE(e.pow(T::r_limbs(), 4).is_one());
  const auto a = T::random(r.gen), b = T::random(r.gen);
  const auto ap = pp::ec::to_affine(pp::ec::scalar_mul(p, a));
  const auto bq = pp::ec::to_affine(pp::ec::scalar_mul(q, b));
  EXPECT_EQ(pairing(ap, bq), T::pow_fr(e, a * b));
  EXPECT_EQ(pairing(ap, q), pairing(p, pp::ec::to_affine(pp::ec::scalar_mul(q, a))));
  // e(P1 + P2, Q) = e(P1, Q) e(P2, Q), and e(P, Q1 + Q2) = e(P, Q1) e(P, Q2).
  const auto sum = pp::ec::to_affine(pp::ec::scalar_mul(this->g1, k1 + a));
  EXPECT_EQ(pairing(sum, q), pairing(p, q) * pairing(T::p_mul(a), q));
  const auto sum2 = pp::ec::to_affine(pp::ec::scalar_mul(this->g2, k2 + b));
  EXPECT_EQ(pairing(p, sum2), pairing(p, q) * pairing(p, T::q_mul(b)));
}

TYPED_TEST(Pairing, NegationInverts) {
  using T = TestFixture;
  test_rng r;
  SCOPED_TRACE(r.trace());
  const auto p = T::p_mul(T::random(r.gen));
  const auto q = T::q_mul(T::random(r.gen));
  const auto e = pairing(p, q);
  EXPECT_TRUE((e * pairing(pp::ec::neg(p), q)).is_one());
  EXPECT_EQ(pairing(p, pp::ec::neg(q)), e.conjugate());
  const typename T::term terms[] = {{p, q}, {pp::ec::neg(p), q}};
  EXPECT_TRUE(pairing_product_is_one(terms));
  const typename T::term unbalanced[] = {{p, q}, {p, q}};
  EXPECT_FALSE(pairing_product_is_one(unbalanced));
}

TYPED_TEST(Pairing, MultiPairingIsProductOfPairings) {
  using T = TestFixture;
  test_rng r;
  SCOPED_TRACE(r.trace());
  std::vector<typename T::term> terms;
  auto expect = T::fp12::one();
  for (int i = 0; i < 3; ++i) {
    terms.push_back({T::p_mul(T::random(r.gen)), T::q_mul(T::random(r.gen))});
    expect *= pairing(terms.back().g1, terms.back().g2);
  }
  EXPECT_EQ(multi_pairing(terms), expect);
  EXPECT_EQ(multi_miller_loop(std::span(terms).first(1)), miller_loop(terms[0].g1, terms[0].g2));
  // Infinity terms contribute 1 wherever they sit.
  terms.insert(terms.begin() + 1, typename T::term{T::g1_affine::infinity(), terms[0].g2});
  terms.push_back({terms[0].g1, T::g2_affine::infinity()});
  EXPECT_EQ(multi_pairing(terms), expect);
  // A Groth16-shaped check: e(aG1, bG2) = e(abG1, G2) <=> e(aG1, bG2) e(-abG1, G2) = 1.
  const auto a = T::random(r.gen), b = T::random(r.gen);
  const typename T::term check[] = {{T::p_mul(a), T::q_mul(b)}, {pp::ec::neg(T::p_mul(a * b)), this->g2}};
  EXPECT_TRUE(pairing_product_is_one(check));
}

// The shape of a Groth16 verification with vk_x folded into the first term:
// e(A, B) = e(alpha, beta) e(C, delta) e(L, gamma) <=> e(-A, B) e(alpha, beta) e(C, delta) e(L, gamma) = 1,
// here with three terms on one side: a b = c d + e f + g h, and any one exponent off breaks it.
TYPED_TEST(Pairing, ThreePairingProductCheck) {
  using T = TestFixture;
  test_rng r;
  SCOPED_TRACE(r.trace());
  for (int it = 0; it < 3; ++it) {
    const auto c = T::random(r.gen), d = T::random(r.gen), e = T::random(r.gen), f = T::random(r.gen);
    const auto g = T::random(r.gen), h = T::random(r.gen), b = T::random(r.gen);
    const auto a = (c * d + e * f + g * h) * b.inverse();
    const typename T::term check[] = {{pp::ec::neg(T::p_mul(a)), T::q_mul(b)},
                                      {T::p_mul(c), T::q_mul(d)},
                                      {T::p_mul(e), T::q_mul(f)},
                                      {T::p_mul(g), T::q_mul(h)}};
    EXPECT_TRUE(pairing_product_is_one(check));
    // The same with the G2 points prepared once, as a verifying key's beta, gamma, delta are.
    std::vector<g2_prepared_t<TypeParam>> prepared;
    for (const auto& t : check) prepared.push_back(prepare_g2(t.g2));
    std::vector<typename T::pterm> pterms;
    for (size_t i = 0; i < 4; ++i) pterms.push_back({check[i].g1, &prepared[i]});
    EXPECT_TRUE(pairing_product_is_one(pterms));
    // One exponent off by one: the product is no longer 1.
    typename T::term wrong[] = {check[0], check[1], check[2], check[3]};
    wrong[3].g1 = T::p_mul(g + T::fr::one());
    EXPECT_FALSE(pairing_product_is_one(wrong));
    pterms[2].g1 = pp::ec::neg(pterms[2].g1);
    EXPECT_FALSE(pairing_product_is_one(pterms));
  }
}

TYPED_TEST(Pairing, PreparedMatchesOnTheFly) {
  using T = TestFixture;
  test_rng r;
  SCOPED_TRACE(r.trace());
  std::vector<typename T::term> terms;
  for (int i = 0; i < 3; ++i) terms.push_back({T::p_mul(T::random(r.gen)), T::q_mul(T::random(r.gen))});
  terms.push_back({T::g1_affine::infinity(), terms[0].g2});
  terms.push_back({terms[1].g1, T::g2_affine::infinity()});
  std::vector<g2_prepared_t<TypeParam>> prepared;
  for (const auto& t : terms) prepared.push_back(prepare_g2(t.g2));
  std::vector<typename T::pterm> pterms;
  for (size_t i = 0; i < terms.size(); ++i) pterms.push_back({terms[i].g1, &prepared[i]});
  EXPECT_EQ(prepared[0].lines.size(), expected<TypeParam>::prepared_lines);
  EXPECT_EQ(multi_miller_loop(pterms), multi_miller_loop(terms));
  EXPECT_EQ(multi_pairing(pterms), multi_pairing(terms));
  const typename T::pterm one[] = {pterms[0]};
  EXPECT_EQ(multi_miller_loop(one), miller_loop(terms[0].g1, terms[0].g2));
  // A verifier-shaped check with prepared G2 points: e(aG1, bG2) e(-abG1, G2) = 1.
  const auto a = T::random(r.gen), b = T::random(r.gen);
  const auto bq = prepare_g2(T::q_mul(b)), gen = prepare_g2(this->g2);
  const typename T::pterm check[] = {{T::p_mul(a), &bq}, {pp::ec::neg(T::p_mul(a * b)), &gen}};
  EXPECT_TRUE(pairing_product_is_one(check));
  const typename T::pterm wrong[] = {{T::p_mul(a), &bq}, {T::p_mul(a * b), &gen}};
  EXPECT_FALSE(pairing_product_is_one(wrong));
}

TYPED_TEST(Pairing, InfinityGivesOne) {
  using T = TestFixture;
  const auto inf1 = T::g1_affine::infinity();
  const auto inf2 = T::g2_affine::infinity();
  EXPECT_TRUE(pairing(inf1, this->g2).is_one());
  EXPECT_TRUE(pairing(this->g1, inf2).is_one());
  EXPECT_TRUE(pairing(inf1, inf2).is_one());
  EXPECT_TRUE(miller_loop(inf1, this->g2).is_one());
  EXPECT_TRUE(multi_pairing(std::span<const typename T::term>{}).is_one());
  EXPECT_TRUE(pairing_product_is_one(std::span<const typename T::term>{}));
  EXPECT_TRUE(multi_pairing(std::span<const typename T::pterm>{}).is_one());
  const auto inf = prepare_g2(inf2);
  EXPECT_TRUE(inf.is_infinity());
  const typename T::pterm with_inf[] = {{this->g1, &inf}};
  EXPECT_TRUE(multi_pairing(with_inf).is_one());
}

TYPED_TEST(Pairing, FinalExponentiationMatchesNaiveExponent) {
  using T = TestFixture;
  using fp = typename TypeParam::fp;
  test_rng r;
  SCOPED_TRACE(r.trace());
  const mpz_class p = from_limbs(fp::params::modulus, fp::n64);
  const mpz_class rr = from_limbs(T::r_limbs(), 4);
  mpz_class p12;
  mpz_pow_ui(p12.get_mpz_t(), p.get_mpz_t(), 12);
  ASSERT_EQ((p12 - 1) % rr, 0);
  const mpz_class e = expected<TypeParam>::multiplier() * ((p12 - 1) / rr);
  // On a Miller loop output and on an arbitrary nonzero element.
  const auto f = miller_loop(T::p_mul(T::random(r.gen)), T::q_mul(T::random(r.gen)));
  EXPECT_EQ(final_exponentiation(f), pow_mpz(f, e));
  auto g = T::fp12::one();
  g.c1.c2.c1 = fp::from_uint(r.gen());
  g.c0.c1.c0 = fp::from_uint(r.gen());
  EXPECT_EQ(final_exponentiation(g), pow_mpz(g, e));
  EXPECT_EQ(final_exponentiation_hard(final_exponentiation_easy(g)), pow_mpz(g, e));
  EXPECT_TRUE(final_exponentiation(T::fp12::one()).is_one());
}

}  // namespace
