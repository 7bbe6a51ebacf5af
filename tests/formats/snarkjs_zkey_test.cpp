// snarkjs .zkey reader/writer on random synthetic keys: round trips, the coefficient encoding
// (v R^2), and every error path (truncation at every offset, bad headers, curves, points, sizes); the
// curve-generic cases on both families (BN254's points are 64 / 128 bytes).
#include "formats/snarkjs_zkey.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "ec/ec_test_util.hpp"
#include "formats/binfile.hpp"
#include "formats/both_curves.hpp"
#include "support/status_matchers.hpp"

namespace pp::formats {
namespace {

using ::testing::Not;

using ec::testing::random_scalar;
using ec::testing::random_subgroup_point;
using ec::testing::test_rng;

template <class Curve>
ec::affine<Curve> point_or_infinity(test_rng& rng) {
  // One in four is infinity: snarkjs keys have many zero A/B columns.
  if (rng.next() % 4 == 0) return ec::affine<Curve>::infinity();
  return random_subgroup_point<Curve>(rng);
}

template <class Family = ec::bls12_381::family>
basic_snarkjs_zkey<Family> random_zkey(test_rng& rng, uint32_t n_vars, uint32_t n_public, uint32_t domain,
                                       uint32_t n_coef) {
  using g1 = typename Family::g1_curve;
  using g2 = typename Family::g2_curve;
  using fr = typename Family::fr;
  basic_snarkjs_zkey<Family> z;
  auto& pk = z.pk;
  pk.n_vars = n_vars;
  pk.domain_size = domain;
  pk.vk.alpha_g1 = random_subgroup_point<g1>(rng);
  pk.vk.beta_g1 = random_subgroup_point<g1>(rng);
  pk.vk.beta_g2 = random_subgroup_point<g2>(rng);
  pk.vk.gamma_g2 = ec::generator<g2>();
  pk.vk.delta_g1 = random_subgroup_point<g1>(rng);
  pk.vk.delta_g2 = random_subgroup_point<g2>(rng);
  for (uint32_t i = 0; i <= n_public; ++i) pk.vk.ic.push_back(point_or_infinity<g1>(rng));
  for (uint32_t i = 0; i < n_vars; ++i) {
    pk.a.push_back(point_or_infinity<g1>(rng));
    pk.b_g1.push_back(point_or_infinity<g1>(rng));
    pk.b_g2.push_back(point_or_infinity<g2>(rng));
  }
  for (uint32_t i = 0; i < n_vars - n_public - 1; ++i) pk.l.push_back(point_or_infinity<g1>(rng));
  for (uint32_t i = 0; i < domain; ++i) pk.h.push_back(random_subgroup_point<g1>(rng));
  for (uint32_t i = 0; i < n_coef; ++i) {
    basic_zkey_coefficient<fr> c;
    c.matrix = rng.next() % 2;
    c.constraint = rng.next() % domain;
    c.signal = rng.next() % n_vars;
    const uint64_t kind = rng.next() % 4;  // 0, 1, -1 and random values on purpose
    c.value = kind == 0 ? fr::zero() : kind == 1 ? fr::one() : kind == 2 ? -fr::one() : random_scalar<fr>(rng);
    z.coefficients.push_back(c);
  }
  return z;
}

template <class Family>
void expect_equal(const basic_snarkjs_zkey<Family>& x, const basic_snarkjs_zkey<Family>& y) {
  EXPECT_EQ(x.pk.n_vars, y.pk.n_vars);
  EXPECT_EQ(x.pk.domain_size, y.pk.domain_size);
  EXPECT_TRUE(x.pk.vk.alpha_g1 == y.pk.vk.alpha_g1);
  EXPECT_TRUE(x.pk.vk.beta_g1 == y.pk.vk.beta_g1);
  EXPECT_TRUE(x.pk.vk.beta_g2 == y.pk.vk.beta_g2);
  EXPECT_TRUE(x.pk.vk.gamma_g2 == y.pk.vk.gamma_g2);
  EXPECT_TRUE(x.pk.vk.delta_g1 == y.pk.vk.delta_g1);
  EXPECT_TRUE(x.pk.vk.delta_g2 == y.pk.vk.delta_g2);
  EXPECT_TRUE(x.pk.vk.ic == y.pk.vk.ic);
  EXPECT_TRUE(x.pk.a == y.pk.a);
  EXPECT_TRUE(x.pk.b_g1 == y.pk.b_g1);
  EXPECT_TRUE(x.pk.b_g2 == y.pk.b_g2);
  EXPECT_TRUE(x.pk.l == y.pk.l);
  EXPECT_TRUE(x.pk.h == y.pk.h);
  EXPECT_TRUE(x.coefficients == y.coefficients);
  EXPECT_EQ(x.pk.basis, groth16::h_basis::odd_coset_lagrange);
  EXPECT_FALSE(y.pk.a_density.has_value());
}

// File offset of section `id`'s content in a file we wrote.
uint64_t section_offset(const std::vector<uint8_t>& f, uint32_t id) {
  static constexpr uint32_t v[] = {1};
  const auto t = read_binfile_sections(f, "zkey", v, ".zkey").value();
  for (const auto& s : t.sections) {
    if (s.id == id) return s.offset;
  }
  ADD_FAILURE() << "no section " << id;
  return 0;
}

template <class Family = ec::bls12_381::family>
void expect_error(const std::vector<uint8_t>& f, status_code code, const std::string& needle) {
  const auto r = read_snarkjs_zkey<Family>(f);
  ASSERT_THAT(r, Not(IsOk())) << "expected an error containing: " << needle;
  EXPECT_EQ(r.error().code(), code) << r.error().to_string();
  EXPECT_NE(r.error().message().find(needle), std::string::npos) << r.error().to_string();
}

TEST(SnarkjsZkey, RoundTripRandomShapes) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  // Edge shapes: no aux (l empty), no public inputs, domain 1, no coefficients.
  const uint32_t shapes[][4] = {{1, 0, 1, 0}, {3, 2, 2, 0}, {5, 1, 4, 9}, {12, 3, 16, 40}};
  for (const auto& s : shapes) {
    const snarkjs_zkey z = random_zkey(rng, s[0], s[1], s[2], s[3]);
    const auto bytes = write_snarkjs_zkey(z).value();
    for (auto check : {zkey_point_check::range_only, zkey_point_check::on_curve, zkey_point_check::subgroup}) {
      const auto back = read_snarkjs_zkey(bytes, {check});
      ASSERT_THAT(back, IsOk());
      expect_equal(z, *back);
      // Section 10 came back verbatim, so a second write is byte-identical.
      EXPECT_EQ(write_snarkjs_zkey(*back).value(), bytes);
    }
  }
}

TEST(SnarkjsZkey, CoefficientsAreStoredAsVTimesRSquared) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  snarkjs_zkey z = random_zkey(rng, 2, 0, 1, 0);
  const ff::fr v = random_scalar(rng);
  z.coefficients = {{0, 0, 1, ff::fr::one()}, {1, 0, 0, v}};
  const auto bytes = write_snarkjs_zkey(z).value();
  const uint64_t off = section_offset(bytes, 4) + 4;
  uint64_t stored[4];
  std::memcpy(stored, bytes.data() + off + 12, 32);
  // 1 is stored as R^2 mod r.
  EXPECT_EQ(0, std::memcmp(stored, ff::fr_params::r2_mod, 32));
  // v is stored as the canonical integer of v * R (R = 2^256 mod r).
  std::memcpy(stored, bytes.data() + off + 44 + 12, 32);
  uint64_t want[4];
  // v R^2 as a field element: v times the element whose canonical value is R mod r, twice.
  const ff::fr r_elem = ff::fr::from_canonical_unchecked(ff::fr_params::r_mod);
  (v * r_elem * r_elem).to_canonical(want);
  EXPECT_EQ(0, std::memcmp(stored, want, 32));
  EXPECT_TRUE(read_snarkjs_zkey(bytes).value().coefficients == z.coefficients);
}

TEST(SnarkjsZkey, EveryTruncationFailsCleanly) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto bytes = write_snarkjs_zkey(random_zkey(rng, 4, 1, 2, 3)).value();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
    const auto r = read_snarkjs_zkey(cut);
    ASSERT_THAT(r, Not(IsOk())) << "truncated to " << n;
    EXPECT_TRUE(r.error().code() == status_code::data_loss || r.error().code() == status_code::invalid_argument)
        << n << ": " << r.error().to_string();
  }
}

TEST(SnarkjsZkey, HeaderErrors) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto good = write_snarkjs_zkey(random_zkey(rng, 4, 1, 2, 3)).value();
  auto f = good;
  std::memcpy(f.data(), "ptau", 4);
  expect_error(f, status_code::invalid_argument, "not a .zkey file");
  f = good;
  f[4] = 2;
  expect_error(f, status_code::invalid_argument, "unsupported .zkey version 2");
  f = good;
  f[section_offset(f, 1)] = 2;
  expect_error(f, status_code::invalid_argument, "PLONK");
  f = good;
  f[section_offset(f, 2) + 4] ^= 1;  // q's low byte
  expect_error(f, status_code::invalid_argument, "unknown curve");
  f = good;
  f[section_offset(f, 2) + 4 + 48 + 4] ^= 1;  // r's low byte
  expect_error(f, status_code::invalid_argument, "scalar field prime r");
  // nPublic >= nVars.
  f = good;
  const uint64_t counts = section_offset(f, 2) + 4 + 48 + 4 + 32;
  const uint32_t big = 100;
  std::memcpy(f.data() + counts + 4, &big, 4);
  expect_error(f, status_code::invalid_argument, "nPublic 100 + 1 exceeds nVars 4");
  // domainSize not a power of two.
  f = good;
  const uint32_t three = 3;
  std::memcpy(f.data() + counts + 8, &three, 4);
  expect_error(f, status_code::invalid_argument, "domainSize 3 is not a power of two");
  // nVars changed: point sections no longer match.
  f = good;
  const uint32_t five = 5;
  std::memcpy(f.data() + counts, &five, 4);
  expect_error(f, status_code::data_loss, "expected nVars");
}

TEST(SnarkjsZkey, Bn254HeaderIsNamedWhenBls12381IsExpected) {
  // A minimal zkey whose section 2 starts like a BN254 one: n8q = 32 and q = BN254's base prime.
  binfile_writer w("zkey", 1, 2);
  w.begin_section(1);
  w.u32(1);
  w.end_section();
  w.begin_section(2);
  w.u32(32);
  const uint64_t q[4] = {0x3c208c16d87cfd47, 0x97816a916871ca8d, 0xb85045b68181585d, 0x30644e72e131a029};
  w.bytes(q, 32);
  w.end_section();
  expect_error(std::move(w).finish(), status_code::invalid_argument,
               "this .zkey is for BN254 (bn128), expected a BLS12-381 key (compile the circuit with circom -p "
               "bls12381 and use a bls12381 ptau)");
}

TEST(SnarkjsZkey, PointAndCoefficientErrors) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  snarkjs_zkey z = random_zkey(rng, 4, 1, 2, 3);
  z.pk.a[2] = random_subgroup_point<ec::g1_curve>(rng);
  const auto good = write_snarkjs_zkey(z).value();
  const uint64_t a2 = section_offset(good, 5) + 2 * 96;
  // x >= q: all ones in the top limb.
  auto f = good;
  std::memset(f.data() + a2 + 40, 0xff, 8);
  expect_error(f, status_code::invalid_argument, "section 5 (A) point 2 at offset " + std::to_string(a2) + ": a coordinate is >= q");
  // Off the curve: y + 1 (still < q with overwhelming probability, checked by the range test above).
  f = good;
  ec::g1_affine p;
  std::memcpy(&p, f.data() + a2, 96);
  p.y = p.y + ff::fp::one();
  std::memcpy(f.data() + a2, &p, 96);
  expect_error(f, status_code::invalid_argument, "point 2 at offset " + std::to_string(a2) + ": not on the g1 curve");
  EXPECT_THAT(read_snarkjs_zkey(f, {zkey_point_check::range_only}), IsOk());
  // On the curve, outside the subgroup: only the subgroup level notices.
  f = good;
  const auto outside = ec::testing::random_curve_point<ec::g2_curve>(rng);
  ASSERT_FALSE(ec::is_in_subgroup(outside));
  std::memcpy(f.data() + section_offset(f, 7) + 192, &outside, 192);
  EXPECT_THAT(read_snarkjs_zkey(f), IsOk());
  {
    const auto r = read_snarkjs_zkey(f, {zkey_point_check::subgroup});
    ASSERT_THAT(r, Not(IsOk()));
    EXPECT_NE(r.error().message().find("section 7 (B2) point 1"), std::string::npos) << r.error().to_string();
    EXPECT_NE(r.error().message().find("subgroup"), std::string::npos);
  }
  // Header point: delta_1 off the curve.
  f = good;
  const uint64_t delta1 = section_offset(f, 2) + 4 + 48 + 4 + 32 + 12 + 2 * 96 + 2 * 192;
  f[delta1] ^= 1;
  expect_error(f, status_code::invalid_argument, "delta_1");
  // Coefficient fields.
  const uint64_t c0 = section_offset(good, 4) + 4;
  f = good;
  f[c0] = 2;
  expect_error(f, status_code::invalid_argument, "entry 0 at offset " + std::to_string(c0) + ": matrix 2");
  f = good;
  f[c0 + 4] = 2;  // constraint 2 >= domain 2
  expect_error(f, status_code::invalid_argument, "constraint 2 >= domainSize 2");
  f = good;
  f[c0 + 8] = 4;
  expect_error(f, status_code::invalid_argument, "signal 4 >= nVars 4");
  f = good;
  std::memcpy(f.data() + c0 + 12, ff::fr_params::modulus, 32);
  expect_error(f, status_code::invalid_argument, "value >= r");
  f = good;
  f[c0 - 4] = 4;  // nCoef 4 but room for 3
  expect_error(f, status_code::data_loss, "nCoef 4 needs");
}

// The point checks run in parallel blocks; with two bad points in different blocks of a large H
// section the error still names the first, and a section of only good points reads.
TEST(SnarkjsZkey, ParallelPointCheckNamesTheFirstBadPoint) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  snarkjs_zkey z = random_zkey(rng, 4, 1, 2, 3);
  const uint64_t domain = uint64_t{1} << 14;
  z.pk.domain_size = domain;
  z.pk.h.assign(domain, random_subgroup_point<ec::g1_curve>(rng));
  z.pk.h[domain - 1] = ec::g1_affine::infinity();
  const auto good = write_snarkjs_zkey(z).value();
  const auto back = read_snarkjs_zkey(good);
  ASSERT_THAT(back, IsOk());
  EXPECT_TRUE(back->pk.h == z.pk.h);
  const uint64_t h0 = section_offset(good, 9);
  const uint64_t first = 4096 + rng.next() % 8192, second = first + 1 + rng.next() % (domain - 1 - first);
  auto f = good;
  for (uint64_t i : {second, first}) f[h0 + i * 96 + 50] ^= 1;  // y changes: off the curve
  expect_error(f, status_code::invalid_argument,
               "section 9 (H) point " + std::to_string(first) + " at offset " + std::to_string(h0 + first * 96));
}

TEST(SnarkjsZkey, SectionTableErrors) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const snarkjs_zkey z = random_zkey(rng, 3, 1, 2, 1);
  // Missing section: write only 1..8.
  {
    auto full = write_snarkjs_zkey(z).value();
    const uint64_t h_header = section_offset(full, 9) - 12;
    std::vector<uint8_t> f(full.begin(), full.begin() + h_header);
    const uint32_t n = 8;
    std::memcpy(f.data() + 8, &n, 4);
    expect_error(f, status_code::data_loss, "missing section 9 (H)");
  }
  // Duplicate section: relabel section 10 as 9.
  {
    auto f = write_snarkjs_zkey(z).value();
    const uint32_t nine = 9;
    std::memcpy(f.data() + section_offset(f, 10) - 12, &nine, 4);
    expect_error(f, status_code::data_loss, "appears twice");
  }
  // Section order does not matter: move section 1 to the end.
  {
    const auto f = write_snarkjs_zkey(z).value();
    const uint64_t s1 = section_offset(f, 1) - 12, s2 = section_offset(f, 2) - 12;
    std::vector<uint8_t> g(f.begin(), f.begin() + s1);
    g.insert(g.end(), f.begin() + s2, f.end());
    g.insert(g.end(), f.begin() + s1, f.begin() + s2);
    const auto r = read_snarkjs_zkey(g);
    ASSERT_THAT(r, IsOk());
    expect_equal(z, *r);
  }
  // No section 10: accepted, and written back with a zero hash.
  {
    const auto f = write_snarkjs_zkey(z).value();
    std::vector<uint8_t> g(f.begin(), f.begin() + section_offset(f, 10) - 12);
    const uint32_t n = 9;
    std::memcpy(g.data() + 8, &n, 4);
    const auto r = read_snarkjs_zkey(g);
    ASSERT_THAT(r, IsOk());
    EXPECT_TRUE(r->contributions.empty());
    EXPECT_EQ(write_snarkjs_zkey(*r).value(), f);
  }
}

TEST(SnarkjsZkey, WriterRejectsNonSnarkjsKeys) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const snarkjs_zkey good = random_zkey(rng, 4, 1, 2, 1);
  auto expect_bad = [](const snarkjs_zkey& z, const std::string& needle) {
    const auto r = write_snarkjs_zkey(z);
    ASSERT_THAT(r, StatusIs(status_code::invalid_argument)) << needle;
    EXPECT_NE(r.error().message().find(needle), std::string::npos) << r.error().to_string();
  };
  auto z = good;
  z.pk.basis = groth16::h_basis::monomial;
  expect_bad(z, "monomial");
  z = good;
  z.pk.a_density = groth16::density_bitmap::all_clear(4);
  expect_bad(z, "filtered");
  z = good;
  z.pk.h.pop_back();
  expect_bad(z, "h has 1 points, expected 2");
  z = good;
  z.pk.b_g2.push_back(ec::g2_affine::infinity());
  expect_bad(z, "b_g2 has 5 points, expected 4");
  z = good;
  z.pk.vk.ic.clear();
  expect_bad(z, "IC is empty");
  z = good;
  z.coefficients[0].signal = 4;
  expect_bad(z, "coefficient 0");
  z = good;
  z.pk.domain_size = 3;
  expect_bad(z, "not a power of two");
}

TEST(SnarkjsZkey, FileApi) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const snarkjs_zkey z = random_zkey(rng, 3, 1, 2, 2);
  const auto path = std::filesystem::temp_directory_path() / ("pp_zkey_test_" + std::to_string(rng.seed) + ".zkey");
  ASSERT_THAT(write_snarkjs_zkey_file(z, path), IsOk());
  const auto r = read_snarkjs_zkey_file(path);
  std::filesystem::remove(path);
  ASSERT_THAT(r, IsOk());
  expect_equal(z, *r);
  const auto missing = read_snarkjs_zkey_file(path);
  ASSERT_THAT(missing, StatusIs(status_code::not_found));
}

// ---- both curves -------------------------------------------------------------------------------

template <class Family>
class SnarkjsZkeyCurves : public ::testing::Test {};
TYPED_TEST_SUITE(SnarkjsZkeyCurves, testing::families, testing::family_name_generator);

TYPED_TEST(SnarkjsZkeyCurves, RoundTripsAndNamesItsCurve) {
  using g1 = typename TypeParam::g1_curve;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  constexpr uint64_t g1_size = sizeof(ec::affine<g1>), g2_size = sizeof(ec::affine<typename TypeParam::g2_curve>);
  static_assert(g1_size == 2 * TypeParam::fp::n_bytes && g2_size == 2 * g1_size);
  const uint32_t shapes[][4] = {{1, 0, 1, 0}, {3, 2, 2, 0}, {12, 3, 16, 40}};
  for (const auto& s : shapes) {
    const auto z = random_zkey<TypeParam>(rng, s[0], s[1], s[2], s[3]);
    const auto bytes = write_snarkjs_zkey(z).value();
    // Section 5 (A) holds nVars points of g1_size bytes.
    static constexpr uint32_t v[] = {1};
    const auto t = read_binfile_sections(bytes, "zkey", v, ".zkey").value();
    EXPECT_EQ(t.find(5, "A").value()->size, s[0] * g1_size);
    EXPECT_EQ(t.find(7, "B2").value()->size, s[0] * g2_size);
    for (auto check : {zkey_point_check::range_only, zkey_point_check::on_curve, zkey_point_check::subgroup}) {
      const auto back = read_snarkjs_zkey<TypeParam>(bytes, {check});
      ASSERT_THAT(back, IsOk());
      expect_equal(z, *back);
      EXPECT_EQ(write_snarkjs_zkey(*back).value(), bytes);
    }
    EXPECT_TRUE(testing::is_curve(read_snarkjs_zkey_curve(bytes), testing::curve_of<TypeParam>));
  }
  const auto z = random_zkey<TypeParam>(rng, 3, 1, 2, 2);
  const auto path = std::filesystem::temp_directory_path() / ("pp_zkey_curves_" + std::to_string(rng.seed) + ".zkey");
  ASSERT_THAT(write_snarkjs_zkey_file(z, path), IsOk());
  const auto r = read_snarkjs_zkey_file<TypeParam>(path);
  ASSERT_THAT(r, IsOk());
  expect_equal(z, *r);
  EXPECT_TRUE(testing::is_curve(read_snarkjs_zkey_curve_file(path), testing::curve_of<TypeParam>));
  EXPECT_EQ(read_snarkjs_zkey_num_variables_file(path).value(), 3u);  // either curve
  std::filesystem::remove(path);
  EXPECT_EQ(read_snarkjs_zkey_curve_file(path).error().code(), status_code::not_found);
}

TYPED_TEST(SnarkjsZkeyCurves, EveryTruncationFailsCleanly) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto bytes = write_snarkjs_zkey(random_zkey<TypeParam>(rng, 4, 1, 2, 3)).value();
  for (std::size_t n = 0; n < bytes.size(); ++n) {
    const std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + n);
    const auto r = read_snarkjs_zkey<TypeParam>(cut);
    ASSERT_THAT(r, Not(IsOk())) << "truncated to " << n;
    EXPECT_TRUE(r.error().code() == status_code::data_loss || r.error().code() == status_code::invalid_argument)
        << n << ": " << r.error().to_string();
  }
}

TYPED_TEST(SnarkjsZkeyCurves, OutOfRangeValuesAndBadPoints) {
  using g1 = typename TypeParam::g1_curve;
  using fr = typename TypeParam::fr;
  using fp = typename TypeParam::fp;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  auto z = random_zkey<TypeParam>(rng, 4, 1, 2, 3);
  z.pk.a[2] = random_subgroup_point<g1>(rng);
  const auto good = write_snarkjs_zkey(z).value();
  constexpr uint64_t g1_size = sizeof(ec::affine<g1>);
  const uint64_t a2 = section_offset(good, 5) + 2 * g1_size;
  // x = q (Montgomery form of nothing: the stored limbs are compared with q).
  auto f = good;
  std::memcpy(f.data() + a2, fp::params::modulus, fp::n_bytes);
  expect_error<TypeParam>(f, status_code::invalid_argument,
                          "section 5 (A) point 2 at offset " + std::to_string(a2) + ": a coordinate is >= q");
  // Off the curve: y + 1.
  f = good;
  ec::affine<g1> p;
  std::memcpy(&p, f.data() + a2, g1_size);
  p.y = p.y + fp::one();
  std::memcpy(f.data() + a2, &p, g1_size);
  expect_error<TypeParam>(f, status_code::invalid_argument,
                          "point 2 at offset " + std::to_string(a2) + ": not on the " + std::string(g1::name) + " curve");
  EXPECT_THAT(read_snarkjs_zkey<TypeParam>(f, {zkey_point_check::range_only}), IsOk());
  // On the curve outside the subgroup (G2; BN254's G1 has cofactor 1): only the subgroup level notices.
  using g2 = typename TypeParam::g2_curve;
  f = good;
  const auto outside = ec::testing::random_curve_point<g2>(rng);
  ASSERT_FALSE(ec::is_in_subgroup(outside));
  std::memcpy(f.data() + section_offset(f, 7) + sizeof(outside), &outside, sizeof(outside));
  EXPECT_THAT(read_snarkjs_zkey<TypeParam>(f), IsOk());
  EXPECT_THAT(read_snarkjs_zkey<TypeParam>(f, {zkey_point_check::subgroup}),
              StatusIs(status_code::invalid_argument,
                       ::testing::HasSubstr("section 7 (B2) point 1 at offset " +
                                            std::to_string(section_offset(f, 7) + sizeof(outside)) +
                                            ": not in the prime-order " + std::string(g2::name) + " subgroup")));
  // A coefficient = r.
  f = good;
  std::memcpy(f.data() + section_offset(good, 4) + 4 + 12, fr::params::modulus, 32);
  expect_error<TypeParam>(f, status_code::invalid_argument, "value >= r");
  // r itself changed: not this curve's scalar field.
  f = good;
  f[section_offset(f, 2) + 4 + fp::n_bytes + 4] ^= 1;
  expect_error<TypeParam>(f, status_code::invalid_argument,
                          std::string("scalar field prime r at offset ") + std::to_string(section_offset(f, 2) + 8 + fp::n_bytes) +
                              " (32 bytes) is not " + TypeParam::name + "'s");
  // q unknown.
  f = good;
  f[section_offset(f, 2) + 4] ^= 1;
  expect_error<TypeParam>(f, status_code::invalid_argument, "is neither BLS12-381's nor BN254's");
  EXPECT_THAT(read_snarkjs_zkey_curve(f), StatusIs(status_code::invalid_argument));
}

TYPED_TEST(SnarkjsZkeyCurves, OtherCurvesKeyIsRefusedNamingBoth) {
  using Other = testing::other_family<TypeParam>;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto bytes = write_snarkjs_zkey(random_zkey<Other>(rng, 4, 1, 2, 3)).value();
  const std::string want(ec::snarkjs_curve_name(testing::curve_of<TypeParam>));
  expect_error<TypeParam>(bytes, status_code::invalid_argument,
                          std::string("this .zkey is for ") + Other::name + " (" +
                              std::string(ec::snarkjs_curve_name(testing::curve_of<Other>)) + "), expected a " +
                              TypeParam::name + " key (compile the circuit with circom -p " + want + " and use a " +
                              want + " ptau)");
  EXPECT_TRUE(testing::is_curve(read_snarkjs_zkey_curve(bytes), testing::curve_of<Other>));
}

}  // namespace
}  // namespace pp::formats
