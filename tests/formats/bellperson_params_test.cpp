// bellperson parameters and 192-byte proofs: byte-for-byte round trips on random keys, filtering
// of points at infinity, checked vs unchecked decoding, truncation and bad points (the first one
// named when the parallel read meets several).
#include "formats/bellperson_params.hpp"

#include <gtest/gtest.h>

#include <functional>

#include "ec/ec_test_util.hpp"
#include "ec/encoding.hpp"
#include "formats/bellperson_proof.hpp"
#include "support/status_matchers.hpp"

namespace pp::formats {
namespace {

using ::testing::Not;

using ec::testing::random_subgroup_point;
using ec::testing::test_rng;

template <class Curve>
std::vector<ec::affine<Curve>> points(test_rng& rng, std::size_t n) {
  std::vector<ec::affine<Curve>> v;
  for (std::size_t i = 0; i < n; ++i) v.push_back(random_subgroup_point<Curve>(rng));
  return v;
}

// n_ic public (incl. 1), n_l aux, domain n -> h has n - 1 points; a and b filtered to n_a / n_b.
groth16::proving_key random_key(test_rng& rng, std::size_t n_ic, std::size_t n_l, std::size_t n, std::size_t n_a,
                                std::size_t n_b) {
  groth16::proving_key pk;
  pk.basis = groth16::h_basis::monomial;
  pk.vk.alpha_g1 = random_subgroup_point<ec::g1_curve>(rng);
  pk.vk.beta_g1 = random_subgroup_point<ec::g1_curve>(rng);
  pk.vk.beta_g2 = random_subgroup_point<ec::g2_curve>(rng);
  pk.vk.gamma_g2 = random_subgroup_point<ec::g2_curve>(rng);
  pk.vk.delta_g1 = random_subgroup_point<ec::g1_curve>(rng);
  pk.vk.delta_g2 = random_subgroup_point<ec::g2_curve>(rng);
  pk.vk.ic = points<ec::g1_curve>(rng, n_ic);
  pk.h = points<ec::g1_curve>(rng, n - 1);
  pk.l = points<ec::g1_curve>(rng, n_l);
  pk.a = points<ec::g1_curve>(rng, n_a);
  pk.b_g1 = points<ec::g1_curve>(rng, n_b);
  pk.b_g2 = points<ec::g2_curve>(rng, n_b);
  pk.n_vars = static_cast<uint32_t>(n_ic + n_l);
  pk.domain_size = static_cast<uint32_t>(n);
  pk.a_density = groth16::density_bitmap::all_clear(pk.n_vars);
  pk.b_density = groth16::density_bitmap::all_clear(pk.n_vars);
  return pk;
}

void put_u32_be(std::vector<uint8_t>& f, std::size_t at, uint32_t v) {
  f[at] = v >> 24, f[at + 1] = v >> 16, f[at + 2] = v >> 8, f[at + 3] = v;
}

constexpr std::size_t vk_fixed = 3 * 96 + 3 * 192;

TEST(BellpersonParams, RoundTripByteForByte) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const std::size_t shapes[][5] = {{1, 0, 1, 0, 0}, {2, 3, 4, 4, 2}, {3, 10, 16, 9, 12}};
  for (const auto& s : shapes) {
    const auto pk = random_key(rng, s[0], s[1], s[2], s[3], s[4]);
    const auto bytes = write_bellperson_params(pk).value();
    EXPECT_EQ(bytes.size(), vk_fixed + 4 + 96 * (s[0] + s[2] - 1 + s[1] + s[3] + s[4]) + 192 * s[4] + 5 * 4);
    for (bool checked : {true, false}) {
      const auto back = read_bellperson_params(bytes, {checked});
      ASSERT_THAT(back, IsOk());
      EXPECT_EQ(back->basis, groth16::h_basis::monomial);
      EXPECT_EQ(back->n_vars, pk.n_vars);
      EXPECT_EQ(back->domain_size, pk.domain_size);
      ASSERT_TRUE(back->a_density && back->b_density);
      EXPECT_EQ(back->a_density->size, pk.n_vars);
      EXPECT_EQ(back->a_density->count(), 0u);
      EXPECT_TRUE(back->vk.ic == pk.vk.ic && back->h == pk.h && back->l == pk.l && back->a == pk.a &&
                  back->b_g1 == pk.b_g1 && back->b_g2 == pk.b_g2);
      EXPECT_TRUE(back->vk.gamma_g2 == pk.vk.gamma_g2 && back->vk.delta_g1 == pk.vk.delta_g1);
      EXPECT_EQ(write_bellperson_params(*back).value(), bytes);
    }
  }
}

// Vectors of many decode tasks (the read is parallel): the round trip holds, and with several bad
// points the error names the first one, as a sequential read would (checked and unchecked).
TEST(BellpersonParams, ParallelReadReportsTheFirstBadPoint) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  auto pk = random_key(rng, 2, 16, 8, 3, 16);
  const std::size_t n_l = 20011;  // ~5 tasks of 4096 points, the last one short
  const auto distinct = pk.l;
  pk.l.clear();
  for (std::size_t i = 0; i < n_l; ++i) pk.l.push_back(distinct[(i * 7) % distinct.size()]);
  pk.n_vars = static_cast<uint32_t>(pk.vk.ic.size() + n_l);
  pk.a_density = groth16::density_bitmap::all_clear(pk.n_vars);
  pk.b_density = groth16::density_bitmap::all_clear(pk.n_vars);
  const auto good = write_bellperson_params(pk).value();
  const auto back = read_bellperson_params(good, {false});
  ASSERT_THAT(back, IsOk());
  EXPECT_TRUE(back->l == pk.l && back->h == pk.h && back->b_g2 == pk.b_g2);
  const std::size_t l0 = vk_fixed + 4 + 2 * 96 + 4 + 7 * 96 + 4;  // l[0]: after ic (2) and h (7)
  const auto point_at = [&](std::size_t i) { return l0 + i * 96; };
  // A coordinate >= p (caught unchecked too) at l[17000] and l[4099]: the error names l[4099].
  auto f = good;
  for (std::size_t i : {std::size_t{17000}, std::size_t{4099}}) {
    std::fill(f.begin() + point_at(i), f.begin() + point_at(i) + 48, 0xff);
    f[point_at(i)] = 0x1f;
  }
  for (bool checked : {true, false}) {
    const auto r = read_bellperson_params(f, {checked});
    ASSERT_THAT(r, StatusIs(status_code::invalid_argument));
    EXPECT_NE(r.error().message().find("l[4099] at offset " + std::to_string(point_at(4099))), std::string::npos)
        << r.error().to_string();
  }
  // Points at infinity at l[20010] (the short last task) and l[4096] (a task's first): l[4096].
  f = good;
  for (std::size_t i : {std::size_t{20010}, std::size_t{4096}}) {
    std::fill(f.begin() + point_at(i), f.begin() + point_at(i) + 96, 0);
    f[point_at(i)] = 0x40;
  }
  const auto r = read_bellperson_params(f, {false});
  ASSERT_THAT(r, Not(IsOk()));
  EXPECT_NE(r.error().message().find("l[4096] at offset " + std::to_string(point_at(4096)) + ": point at infinity"),
            std::string::npos)
      << r.error().to_string();
}

// The unchecked read takes plain points by a direct conversion: it must give exactly what ec's
// decoder gives point by point, for random coordinates (off the curve too: unchecked trusts the
// file) over several tasks of G1 and G2, and any encoding it does not take plainly (flags, a
// coordinate >= p, (0, 0)) must fail with ec's own message, naming the first such point.
TEST(BellpersonParams, ParallelReadEqualsPointByPointDecode) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const std::size_t n_l = 9001, n_b = 4099;  // 3 and 2 decode tasks, the last ones short
  auto pk = random_key(rng, 2, 4, 8, 3, 4);
  const auto any_point = [&]<class Curve>(Curve) {
    using field = typename Curve::field;
    return ec::affine<Curve>{ec::testing::random_field<field>(rng), ec::testing::random_field<field>(rng)};
  };
  pk.l.clear();
  for (std::size_t i = 0; i < n_l; ++i) pk.l.push_back(any_point(ec::g1_curve{}));
  pk.b_g1.clear();
  pk.b_g2.clear();
  for (std::size_t i = 0; i < n_b; ++i) {
    pk.b_g1.push_back(any_point(ec::g1_curve{}));
    pk.b_g2.push_back(any_point(ec::g2_curve{}));
  }
  pk.n_vars = static_cast<uint32_t>(pk.vk.ic.size() + n_l);
  pk.a_density = groth16::density_bitmap::all_clear(pk.n_vars);
  pk.b_density = groth16::density_bitmap::all_clear(pk.n_vars);
  const auto good = write_bellperson_params(pk).value();
  const std::size_t l0 = vk_fixed + 4 + 2 * 96 + 4 + 7 * 96 + 4;  // l[0]: after ic (2) and h (7)
  const std::size_t b_g2_0 = l0 + n_l * 96 + 4 + 3 * 96 + 4 + n_b * 96 + 4;
  const auto back = read_bellperson_params(good, {false});
  ASSERT_THAT(back, IsOk());
  for (std::size_t i = 0; i < n_l; ++i) {
    const auto one = ec::decode_uncompressed_unchecked<ec::g1_curve>(std::span(good).subspan(l0 + 96 * i, 96));
    ASSERT_THAT(one, IsOk());
    ASSERT_TRUE(back->l[i] == *one && back->l[i] == pk.l[i]) << "l[" << i << "]";
  }
  for (std::size_t i = 0; i < n_b; ++i) {
    const auto one = ec::decode_uncompressed_unchecked<ec::g2_curve>(std::span(good).subspan(b_g2_0 + 192 * i, 192));
    ASSERT_THAT(one, IsOk());
    ASSERT_TRUE(back->b_g2[i] == *one && back->b_g2[i] == pk.b_g2[i]) << "b_g2[" << i << "]";
  }
  EXPECT_TRUE(back->b_g1 == pk.b_g1);
  // Hostile encodings, each at a random index of l (G1) or b_g2 (G2), with a second bad point after
  // it: the error is ec's message for the first, with its vector, index and offset.
  struct hostile {
    const char* what;
    bool g2;
    std::function<void(uint8_t*)> spoil;
  };
  const hostile cases[] = {
      {"compression flag", false, [](uint8_t* p) { p[0] |= 0x80; }},
      {"sign flag", false, [](uint8_t* p) { p[0] |= 0x20; }},
      {"infinity flag with coordinates", false, [](uint8_t* p) { p[0] |= 0x40; }},
      {"x >= p", false, [](uint8_t* p) { std::fill(p, p + 48, 0xff), p[0] = 0x1f; }},
      {"y >= p", false, [](uint8_t* p) { std::fill(p + 48, p + 96, 0xff); }},
      {"(0, 0) without the flag", false, [](uint8_t* p) { std::fill(p, p + 96, 0); }},
      {"g2 x.c0 >= p", true, [](uint8_t* p) { std::fill(p + 48, p + 96, 0xff); }},
      {"g2 y.c1 >= p", true, [](uint8_t* p) { std::fill(p + 96, p + 144, 0xff); }},
      {"g2 sign flag", true, [](uint8_t* p) { p[0] |= 0x20; }},
      {"g2 (0, 0) without the flag", true, [](uint8_t* p) { std::fill(p, p + 192, 0); }},
  };
  for (const hostile& h : cases) {
    SCOPED_TRACE(h.what);
    const std::size_t n = h.g2 ? n_b : n_l, size = h.g2 ? 192 : 96, at0 = h.g2 ? b_g2_0 : l0;
    const std::size_t first = rng.next() % (n - 1), second = first + 1 + rng.next() % (n - 1 - first);
    auto f = good;
    h.spoil(f.data() + at0 + first * size);
    h.spoil(f.data() + at0 + second * size);
    const auto spoiled = std::span(f).subspan(at0 + first * size, size);
    const status want = h.g2 ? ec::decode_uncompressed_unchecked<ec::g2_curve>(spoiled).error()
                             : ec::decode_uncompressed_unchecked<ec::g1_curve>(spoiled).error();
    const auto r = read_bellperson_params(f, {false});
    ASSERT_THAT(r, StatusIs(status_code::invalid_argument));
    const std::string name = std::string(h.g2 ? "b_g2[" : "l[") + std::to_string(first) + "] at offset " +
                             std::to_string(at0 + first * size);
    EXPECT_NE(r.error().message().find(name), std::string::npos) << r.error().to_string();
    EXPECT_NE(r.error().message().find(want.message()), std::string::npos)
        << r.error().to_string() << " / " << want.to_string();
  }
}

// A bad point before a truncated count is the error (a front-to-back read meets it first), though
// the read lays out every count before decoding; a truncation before any bad point is data_loss.
TEST(BellpersonParams, FirstErrorInFileOrder) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto good = write_bellperson_params(random_key(rng, 2, 2, 4, 2, 2)).value();
  const std::size_t l0 = vk_fixed + 4 + 2 * 96 + 4 + 3 * 96 + 4;
  std::vector<uint8_t> f(good.begin(), good.end() - 5);  // b_g2's last point cut short
  std::fill(f.begin() + l0, f.begin() + l0 + 48, 0xff);
  f[l0] = 0x1f;
  const auto r = read_bellperson_params(f, {false});
  ASSERT_THAT(r, StatusIs(status_code::invalid_argument));
  EXPECT_NE(r.error().message().find("l[0] at offset " + std::to_string(l0)), std::string::npos)
      << r.error().to_string();
  f = good;
  f.resize(f.size() - 5);
  EXPECT_THAT(read_bellperson_params(f, {false}), StatusIs(status_code::data_loss));
  // vk.ic empty comes before a later truncation too.
  auto k = random_key(rng, 2, 2, 4, 2, 2);
  k.vk.ic.clear();
  f = write_bellperson_params(k).value();
  f.resize(f.size() - 5);
  const auto e = read_bellperson_params(f, {false});
  ASSERT_THAT(e, StatusIs(status_code::invalid_argument));
  EXPECT_NE(e.error().message().find("vk.ic is empty"), std::string::npos) << e.error().to_string();
}

TEST(BellpersonParams, UnfilteredKeyDropsInfinityFromAB) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  auto pk = random_key(rng, 2, 2, 4, 4, 4);
  pk.a_density.reset();
  pk.b_density.reset();
  pk.a[1] = ec::g1_affine::infinity();
  pk.b_g1[0] = ec::g1_affine::infinity();
  pk.b_g2[0] = ec::g2_affine::infinity();
  const auto back = read_bellperson_params(write_bellperson_params(pk).value()).value();
  EXPECT_EQ(back.a.size(), 3u);
  EXPECT_EQ(back.b_g1.size(), 3u);
  EXPECT_TRUE(back.a[1] == pk.a[2]);
  EXPECT_TRUE(back.b_g2[0] == pk.b_g2[1]);
  // Infinity in h or l cannot be written; the snarkjs basis cannot either.
  auto bad = pk;
  bad.l[0] = ec::g1_affine::infinity();
  EXPECT_NE(write_bellperson_params(bad).error().message().find("l holds a point at infinity"), std::string::npos);
  bad = pk;
  bad.basis = groth16::h_basis::odd_coset_lagrange;
  EXPECT_NE(write_bellperson_params(bad).error().message().find("monomial"), std::string::npos);
}

TEST(BellpersonParams, Errors) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto good = write_bellperson_params(random_key(rng, 2, 2, 4, 2, 2)).value();
  auto expect_err = [](const std::vector<uint8_t>& f, status_code code, const std::string& needle, bool checked = true) {
    const auto r = read_bellperson_params(f, {checked});
    ASSERT_THAT(r, Not(IsOk())) << needle;
    EXPECT_EQ(r.error().code(), code) << r.error().to_string();
    EXPECT_NE(r.error().message().find(needle), std::string::npos) << r.error().to_string();
  };
  for (std::size_t n = 0; n < good.size(); n += 7) {
    const auto r = read_bellperson_params(std::span(good).first(n));
    ASSERT_THAT(r, StatusIs(status_code::data_loss)) << n << ": " << r.error().to_string();
  }
  auto f = good;
  f.push_back(0);
  expect_err(f, status_code::data_loss, "1 trailing bytes");
  // A huge count fails on the remaining length, before allocating.
  const std::size_t h_count = vk_fixed + 4 + 2 * 96;
  f = good;
  put_u32_be(f, h_count, 0xffffffffu);
  expect_err(f, status_code::data_loss, "h (4294967295 points) needs");
  // h of 2 points is not domain - 1: move one h point into... simply claim 2 and fix the tail.
  f = good;
  put_u32_be(f, h_count, 2);
  f.erase(f.begin() + h_count + 4 + 2 * 96, f.begin() + h_count + 4 + 3 * 96);
  expect_err(f, status_code::invalid_argument, "h has 2 points");
  // Point at infinity inside l (uncompressed infinity: 0x40 then zeros).
  const std::size_t l0 = h_count + 4 + 3 * 96 + 4;
  f = good;
  std::fill(f.begin() + l0, f.begin() + l0 + 96, 0);
  f[l0] = 0x40;
  expect_err(f, status_code::invalid_argument, "l[0] at offset " + std::to_string(l0) + ": point at infinity", false);
  // Off-curve point: caught when checked, passed through unchecked.
  f = good;
  f[l0 + 95] ^= 1;
  expect_err(f, status_code::invalid_argument, "l[0] at offset " + std::to_string(l0));
  EXPECT_THAT(read_bellperson_params(f, {false}), IsOk());
  // Coordinate >= p is caught even unchecked.
  f = good;
  std::fill(f.begin() + l0, f.begin() + l0 + 48, 0xff);
  f[l0] = 0x1f;
  expect_err(f, status_code::invalid_argument, "l[0]", false);
  // b_g1 / b_g2 count mismatch.
  const auto k = random_key(rng, 2, 2, 4, 2, 2);
  auto k2 = k;
  k2.b_g2.pop_back();
  expect_err(write_bellperson_params(k2).value(), status_code::invalid_argument, "b_g1 has 2 points but b_g2 has 1");
  // More A points than variables.
  k2 = k;
  k2.a = points<ec::g1_curve>(rng, 5);
  expect_err(write_bellperson_params(k2).value(), status_code::invalid_argument, "more than the 4 variables");
  // Empty ic.
  k2 = k;
  k2.vk.ic.clear();
  expect_err(write_bellperson_params(k2).value(), status_code::invalid_argument, "vk.ic is empty");
}

TEST(BellpersonProof, RoundTripAndRejections) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  for (int i = 0; i < 4; ++i) {
    const groth16::proof p{random_subgroup_point<ec::g1_curve>(rng), random_subgroup_point<ec::g2_curve>(rng),
                           random_subgroup_point<ec::g1_curve>(rng)};
    const auto bytes = write_bellperson_proof(p);
    EXPECT_EQ(bytes[0] & 0x80, 0x80);
    EXPECT_EQ(bytes[48] & 0x80, 0x80);
    EXPECT_EQ(bytes[144] & 0x80, 0x80);
    const auto back = read_bellperson_proof(bytes);
    ASSERT_THAT(back, IsOk());
    EXPECT_TRUE(*back == p);
    EXPECT_EQ(write_bellperson_proof(*back), bytes);
  }
  const groth16::proof p{random_subgroup_point<ec::g1_curve>(rng), random_subgroup_point<ec::g2_curve>(rng),
                         random_subgroup_point<ec::g1_curve>(rng)};
  const auto good = write_bellperson_proof(p);
  auto expect_err = [](std::span<const uint8_t> b, const std::string& needle) {
    const auto r = read_bellperson_proof(b);
    ASSERT_THAT(r, StatusIs(status_code::invalid_argument)) << needle;
    EXPECT_NE(r.error().message().find(needle), std::string::npos) << r.error().to_string();
  };
  expect_err(std::span(good).first(191), "expected 192 bytes, got 191");
  auto f = good;
  f[48] &= 0x7f;  // B not flagged compressed
  expect_err(f, "bellperson proof B (bytes 48..144)");
  f = good;
  std::fill(f.begin() + 144, f.end(), 0);
  f[144] = 0xc0;  // C at infinity
  expect_err(f, "bellperson proof C (bytes 144..192): point at infinity");
  // A point on the curve outside the subgroup.
  const auto outside = ec::testing::random_curve_point<ec::g1_curve>(rng);
  ASSERT_FALSE(ec::is_in_subgroup(outside));
  const auto enc = ec::encode_compressed(outside);
  f = good;
  std::copy(enc.begin(), enc.end(), f.begin());
  expect_err(f, "bellperson proof A");
}

}  // namespace
}  // namespace pp::formats
