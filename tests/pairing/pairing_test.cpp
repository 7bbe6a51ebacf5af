// Algebraic properties of the optimal ate pairing (bilinearity, order r, non-degeneracy, inverses,
// products, infinity) and the final exponentiation against the naive exponent 3 (p^12 - 1)/r.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <vector>

#include "pairing/pairing.hpp"
#include "pairing_test_util.hpp"

namespace {

using pp::ec::g1_affine;
using pp::ec::g2_affine;
using pp::ff::fp12;
using pp::ff::fr;
using pp::pairing::pairing_term;
using namespace pp::pairing;
using namespace pp::pairing::testing;

fp12 pow_fr(const fp12& a, const fr& k) {
  uint64_t c[4];
  k.to_canonical(c);
  return a.pow(c, 4);
}

mpz_class from_limbs(const uint64_t* v, int n) {
  mpz_class r;
  mpz_import(r.get_mpz_t(), n, -1, sizeof(uint64_t), 0, 0, v);
  return r;
}

fp12 pow_mpz(const fp12& a, const mpz_class& e) {
  std::vector<uint64_t> l((mpz_sizeinbase(e.get_mpz_t(), 2) + 63) / 64 + 1, 0);
  size_t count = 0;
  mpz_export(l.data(), &count, -1, sizeof(uint64_t), 0, 0, e.get_mpz_t());
  return a.pow(l.data(), static_cast<int>(l.size()));
}

const g1_affine g1 = pp::ec::generator<pp::ec::g1_curve>();
const g2_affine g2 = pp::ec::generator<pp::ec::g2_curve>();

TEST(Pairing, NonDegenerateAndOfOrderR) {
  const fp12 e = pairing(g1, g2);
  EXPECT_FALSE(e.is_one());
  EXPECT_TRUE(e.pow(pp::ff::fr_params::modulus, 4).is_one());
  // In the cyclotomic subgroup: the conjugate is the inverse.
  EXPECT_TRUE((e * e.conjugate()).is_one());
}

TEST(Pairing, Bilinear) {
  test_rng r;
  SCOPED_TRACE(r.trace());
  const fr k1 = random_fr(r.gen), k2 = random_fr(r.gen);
  const g1_affine p = g1_mul(k1);
  const g2_affine q = g2_mul(k2);
  const fp12 e = pairing(p, q);
  EXPECT_TRUE(e.pow(pp::ff::fr_params::modulus, 4).is_one());
  const fr a = random_fr(r.gen), b = random_fr(r.gen);
  const g1_affine ap = pp::ec::to_affine(pp::ec::scalar_mul(p, a));
  const g2_affine bq = pp::ec::to_affine(pp::ec::scalar_mul(q, b));
  EXPECT_EQ(pairing(ap, bq), pow_fr(e, a * b));
  EXPECT_EQ(pairing(ap, q), pairing(p, pp::ec::to_affine(pp::ec::scalar_mul(q, a))));
  // e(P1 + P2, Q) = e(P1, Q) e(P2, Q).
  const g1_affine sum = pp::ec::to_affine(pp::ec::scalar_mul(g1, k1 + a));
  EXPECT_EQ(pairing(sum, q), pairing(p, q) * pairing(g1_mul(a), q));
}

TEST(Pairing, NegationInverts) {
  test_rng r;
  SCOPED_TRACE(r.trace());
  const g1_affine p = g1_mul(random_fr(r.gen));
  const g2_affine q = g2_mul(random_fr(r.gen));
  const fp12 e = pairing(p, q);
  EXPECT_TRUE((e * pairing(pp::ec::neg(p), q)).is_one());
  EXPECT_EQ(pairing(p, pp::ec::neg(q)), e.conjugate());
  const pairing_term terms[] = {{p, q}, {pp::ec::neg(p), q}};
  EXPECT_TRUE(pairing_product_is_one(terms));
  const pairing_term unbalanced[] = {{p, q}, {p, q}};
  EXPECT_FALSE(pairing_product_is_one(unbalanced));
}

TEST(Pairing, MultiPairingIsProductOfPairings) {
  test_rng r;
  SCOPED_TRACE(r.trace());
  std::vector<pairing_term> terms;
  fp12 expect = fp12::one();
  for (int i = 0; i < 3; ++i) {
    terms.push_back({g1_mul(random_fr(r.gen)), g2_mul(random_fr(r.gen))});
    expect *= pairing(terms.back().g1, terms.back().g2);
  }
  EXPECT_EQ(multi_pairing(terms), expect);
  EXPECT_EQ(multi_miller_loop(std::span(terms).first(1)), miller_loop(terms[0].g1, terms[0].g2));
  // Infinity terms contribute 1 wherever they sit.
  terms.insert(terms.begin() + 1, pairing_term{g1_affine::infinity(), terms[0].g2});
  terms.push_back({terms[0].g1, g2_affine::infinity()});
  EXPECT_EQ(multi_pairing(terms), expect);
  // A Groth16-shaped check: e(aG1, bG2) = e(abG1, G2) <=> e(aG1, bG2) e(-abG1, G2) = 1.
  const fr a = random_fr(r.gen), b = random_fr(r.gen);
  const pairing_term check[] = {{g1_mul(a), g2_mul(b)}, {pp::ec::neg(g1_mul(a * b)), g2}};
  EXPECT_TRUE(pairing_product_is_one(check));
}

TEST(Pairing, PreparedMatchesOnTheFly) {
  test_rng r;
  SCOPED_TRACE(r.trace());
  std::vector<pairing_term> terms;
  for (int i = 0; i < 3; ++i) terms.push_back({g1_mul(random_fr(r.gen)), g2_mul(random_fr(r.gen))});
  terms.push_back({g1_affine::infinity(), terms[0].g2});
  terms.push_back({terms[1].g1, g2_affine::infinity()});
  std::vector<g2_prepared> prepared;
  for (const pairing_term& t : terms) prepared.push_back(prepare_g2(t.g2));
  std::vector<prepared_term> pterms;
  for (size_t i = 0; i < terms.size(); ++i) pterms.push_back({terms[i].g1, &prepared[i]});
  EXPECT_EQ(prepared[0].lines.size(), 68u);  // 63 doubling + 5 addition steps
  EXPECT_EQ(multi_miller_loop(pterms), multi_miller_loop(terms));
  EXPECT_EQ(multi_pairing(pterms), multi_pairing(terms));
  const prepared_term one[] = {pterms[0]};
  EXPECT_EQ(multi_miller_loop(one), miller_loop(terms[0].g1, terms[0].g2));
  // A verifier-shaped check with prepared G2 points: e(aG1, bG2) e(-abG1, G2) = 1.
  const fr a = random_fr(r.gen), b = random_fr(r.gen);
  const g2_prepared bq = prepare_g2(g2_mul(b)), gen = prepare_g2(g2);
  const prepared_term check[] = {{g1_mul(a), &bq}, {pp::ec::neg(g1_mul(a * b)), &gen}};
  EXPECT_TRUE(pairing_product_is_one(check));
  const prepared_term wrong[] = {{g1_mul(a), &bq}, {g1_mul(a * b), &gen}};
  EXPECT_FALSE(pairing_product_is_one(wrong));
}

TEST(Pairing, InfinityGivesOne) {
  EXPECT_TRUE(pairing(g1_affine::infinity(), g2).is_one());
  EXPECT_TRUE(pairing(g1, g2_affine::infinity()).is_one());
  EXPECT_TRUE(pairing(g1_affine::infinity(), g2_affine::infinity()).is_one());
  EXPECT_TRUE(miller_loop(g1_affine::infinity(), g2).is_one());
  EXPECT_TRUE(multi_pairing(std::span<const pairing_term>{}).is_one());
  EXPECT_TRUE(pairing_product_is_one(std::span<const pairing_term>{}));
  EXPECT_TRUE(multi_pairing(std::span<const prepared_term>{}).is_one());
  const g2_prepared inf = prepare_g2(g2_affine::infinity());
  EXPECT_TRUE(inf.is_infinity());
  const prepared_term with_inf[] = {{g1, &inf}};
  EXPECT_TRUE(multi_pairing(with_inf).is_one());
}

TEST(FinalExponentiation, MatchesNaiveExponent) {
  test_rng r;
  SCOPED_TRACE(r.trace());
  const mpz_class p = from_limbs(pp::ff::fp_params::modulus, 6);
  const mpz_class rr = from_limbs(pp::ff::fr_params::modulus, 4);
  mpz_class p12;
  mpz_pow_ui(p12.get_mpz_t(), p.get_mpz_t(), 12);
  ASSERT_EQ((p12 - 1) % rr, 0);
  const mpz_class e = 3 * ((p12 - 1) / rr);
  // On a Miller loop output and on an arbitrary nonzero element.
  const fp12 f = miller_loop(g1_mul(random_fr(r.gen)), g2_mul(random_fr(r.gen)));
  EXPECT_EQ(final_exponentiation(f), pow_mpz(f, e));
  fp12 g = fp12::one();
  g.c1.c2.c1 = pp::ff::fp::from_uint(r.gen());
  g.c0.c1.c0 = pp::ff::fp::from_uint(r.gen());
  EXPECT_EQ(final_exponentiation(g), pow_mpz(g, e));
  EXPECT_TRUE(final_exponentiation(fp12::one()).is_one());
}

}  // namespace
