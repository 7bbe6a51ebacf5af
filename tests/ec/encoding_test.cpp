// zcash-style encodings (ec/encoding.hpp) for G1 and G2: round trips, the exact infinity bytes,
// and one test per rejection with its own error message.
#include "ec/encoding.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "ec_test_util.hpp"
#include "support/status_matchers.hpp"

namespace pp::ec {
namespace {

using ::testing::Not;

using testing::random_curve_point;
using testing::random_subgroup_point;
using testing::test_rng;
using bytes = std::vector<uint8_t>;

template <class Curve>
class Encoding : public ::testing::Test {
 protected:
  static constexpr std::size_t n_comp = encoding_sizes<Curve>::compressed;
  static constexpr std::size_t n_unc = encoding_sizes<Curve>::uncompressed;
  static bytes comp(const affine<Curve>& p) {
    const auto a = encode_compressed(p);
    return bytes(a.begin(), a.end());
  }
  static bytes unc(const affine<Curve>& p) {
    const auto a = encode_uncompressed(p);
    return bytes(a.begin(), a.end());
  }
  static result<affine<Curve>> dec_comp(const bytes& b) { return decode_compressed<Curve>(b); }
  static result<affine<Curve>> dec_unc(const bytes& b) { return decode_uncompressed<Curve>(b); }
  // The error message, or "" when decoding succeeded.
  template <class R>
  static std::string message(const R& r) {
    return r.ok() ? std::string() : r.error().message();
  }
};
TYPED_TEST_SUITE(Encoding, testing::curve_types, testing::curve_name_generator);

// Writes p (the Fp modulus) big-endian into 48 bytes at out.
void write_modulus(uint8_t* out) {
  for (int i = 0; i < 48; ++i) out[47 - i] = static_cast<uint8_t>(ff::fp_params::modulus[i / 8] >> (8 * (i % 8)));
}

TYPED_TEST(Encoding, RoundTripRandomPoints) {
  using C = TypeParam;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  for (int i = 0; i < 24; ++i) {
    const auto p = i == 0 ? generator<C>() : random_subgroup_point<C>(rng);
    for (const auto& q : {p, neg(p)}) {
      const bytes c = this->comp(q), u = this->unc(q);
      ASSERT_EQ(c.size(), this->n_comp);
      ASSERT_EQ(u.size(), this->n_unc);
      EXPECT_EQ(c[0] & 0xc0, 0x80);
      EXPECT_EQ(u[0] & 0xe0, 0x00);
      auto dc = this->dec_comp(c);
      auto du = this->dec_unc(u);
      ASSERT_THAT(dc, IsOk());
      ASSERT_THAT(du, IsOk());
      EXPECT_EQ(*dc, q);
      EXPECT_EQ(*du, q);
      // x bytes agree between the two forms; only the flags differ.
      bytes cx = c, ux(u.begin(), u.begin() + this->n_comp);
      cx[0] &= 0x1f;
      EXPECT_EQ(cx, ux);
    }
    // P and -P differ only in the sign flag.
    const bytes a = this->comp(p), b = this->comp(neg(p));
    EXPECT_EQ(a[0] ^ b[0], 0x20);
  }
}

TYPED_TEST(Encoding, Infinity) {
  using C = TypeParam;
  bytes c(this->n_comp, 0), u(this->n_unc, 0);
  c[0] = 0xc0;
  u[0] = 0x40;
  EXPECT_EQ(this->comp(affine<C>::infinity()), c);
  EXPECT_EQ(this->unc(affine<C>::infinity()), u);
  auto dc = this->dec_comp(c);
  auto du = this->dec_unc(u);
  ASSERT_THAT(dc, IsOk());
  ASSERT_THAT(du, IsOk());
  EXPECT_TRUE(is_infinity(*dc));
  EXPECT_TRUE(is_infinity(*du));
}

TYPED_TEST(Encoding, RejectionsEachHaveTheirOwnMessage) {
  using C = TypeParam;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto p = random_subgroup_point<C>(rng);
  const bytes c = this->comp(p), u = this->unc(p);
  const std::string pre_c = std::string(C::name) + " compressed: ";
  const std::string pre_u = std::string(C::name) + " uncompressed: ";
  std::set<std::string> reasons;
  auto expect = [&](const std::string& got, const std::string& prefix, const std::string& want) {
    EXPECT_EQ(got, prefix + want);
    reasons.insert(want);
  };

  // Lengths.
  expect(this->message(this->dec_comp(bytes(c.begin(), c.end() - 1))), pre_c,
         "expected " + std::to_string(this->n_comp) + " bytes, got " + std::to_string(this->n_comp - 1));
  expect(this->message(this->dec_comp(u)), pre_c,
         "expected " + std::to_string(this->n_comp) + " bytes, got " + std::to_string(this->n_unc));
  expect(this->message(this->dec_unc(c)), pre_u,
         "expected " + std::to_string(this->n_unc) + " bytes, got " + std::to_string(this->n_comp));
  expect(this->message(this->dec_unc(bytes{})), pre_u, "expected " + std::to_string(this->n_unc) + " bytes, got 0");

  // Compression flag mismatching the length.
  bytes b = c;
  b[0] &= 0x7f;
  EXPECT_EQ(this->message(this->dec_comp(b)),
            pre_c + "compression flag (0x80) is clear in a " + std::to_string(this->n_comp) + "-byte compressed encoding");
  b = u;
  b[0] |= 0x80;
  EXPECT_EQ(this->message(this->dec_unc(b)),
            pre_u + "compression flag (0x80) is set in a " + std::to_string(this->n_unc) + "-byte uncompressed encoding");

  // Infinity with a sign, or with nonzero bytes (in the flag byte or anywhere after).
  b = bytes(this->n_comp, 0);
  b[0] = 0xe0;
  expect(this->message(this->dec_comp(b)), pre_c, "sign flag (0x20) is set on the point at infinity");
  b = bytes(this->n_unc, 0);
  b[0] = 0x60;
  expect(this->message(this->dec_unc(b)), pre_u, "sign flag (0x20) is set on the point at infinity");
  for (std::size_t pos : {std::size_t{0}, std::size_t{1}, this->n_comp - 1}) {
    b = bytes(this->n_comp, 0);
    b[0] = 0xc0;
    b[pos] |= 0x01;
    expect(this->message(this->dec_comp(b)), pre_c,
           "infinity flag (0x40) is set but the coordinate bytes are not all zero");
  }
  b = bytes(this->n_unc, 0);
  b[0] = 0x40;
  b[this->n_unc - 1] = 0x01;
  expect(this->message(this->dec_unc(b)), pre_u, "infinity flag (0x40) is set but the coordinate bytes are not all zero");
  b = c;
  b[0] |= 0x40;  // infinity flag on a real point's bytes
  EXPECT_THAT(this->dec_comp(b), Not(IsOk()));

  // Sign flag on an uncompressed encoding.
  b = u;
  b[0] |= 0x20;
  expect(this->message(this->dec_unc(b)), pre_u, "sign flag (0x20) is set in an uncompressed encoding");

  // Non-canonical coordinates (= p).
  const bool g2 = std::is_same_v<C, g2_curve>;
  b = c;
  write_modulus(b.data());
  b[0] |= 0x80;
  expect(this->message(this->dec_comp(b)), pre_c, g2 ? "x.c1 coordinate is not canonical (>= p)" : "x coordinate is not canonical (>= p)");
  b = u;
  write_modulus(b.data() + this->n_unc - 48);  // y (G1) or y.c0 (G2)
  expect(this->message(this->dec_unc(b)), pre_u, g2 ? "y.c0 coordinate is not canonical (>= p)" : "y coordinate is not canonical (>= p)");
  if (g2) {
    b = c;
    write_modulus(b.data() + 48);
    expect(this->message(this->dec_comp(b)), pre_c, "x.c0 coordinate is not canonical (>= p)");
  }
  b = c;
  b[0] |= 0x1f;  // x >= 2^381 > p
  EXPECT_NE(this->message(this->dec_comp(b)).find("not canonical"), std::string::npos);

  // x with no curve point.
  const affine<C> off{testing::random_x_off_curve<C>(rng), C::field::one()};
  expect(this->message(this->dec_comp(this->comp(off))), pre_c,
         "x is not the x-coordinate of a curve point (x^3 + b is not a square)");

  // (x, y) off the curve, including (0, 0) without the infinity flag.
  const affine<C> moved{p.x, p.y + C::field::one()};
  expect(this->message(this->dec_unc(this->unc(moved))), pre_u, "point is not on the curve y^2 = x^3 + b");
  EXPECT_EQ(this->message(this->dec_unc(bytes(this->n_unc, 0))), pre_u + "point is not on the curve y^2 = x^3 + b");

  // On the curve but outside the subgroup: rejected by the checked decoders only.
  const auto q = random_curve_point<C>(rng);
  ASSERT_FALSE(is_in_subgroup_naive(q));
  expect(this->message(this->dec_comp(this->comp(q))), pre_c, "point is not in the prime-order subgroup");
  expect(this->message(this->dec_unc(this->unc(q))), pre_u, "point is not in the prime-order subgroup");
  auto qc = decode_compressed_unchecked<C>(this->comp(q));
  auto qu = decode_uncompressed_unchecked<C>(this->unc(q));
  ASSERT_THAT(qc, IsOk());
  ASSERT_THAT(qu, IsOk());
  EXPECT_EQ(*qc, q);
  EXPECT_EQ(*qu, q);
  // The unchecked uncompressed decoder skips the curve check too, but not the format checks.
  EXPECT_TRUE(decode_uncompressed_unchecked<C>(this->unc(moved)).ok());
  b = u;
  b[0] |= 0x20;
  EXPECT_FALSE(decode_uncompressed_unchecked<C>(b).ok());
  // All-zero bytes without the infinity flag: (0, 0) is off the curve and would read back as
  // infinity, so the unchecked decoder refuses it too (found by the point-decode fuzzer).
  std::fill(b.begin(), b.end(), uint8_t{0});
  expect(this->message(decode_uncompressed_unchecked<C>(b)), pre_u, "point is not on the curve y^2 = x^3 + b");

  // Each rejected input is invalid_argument.
  EXPECT_EQ(this->dec_unc(this->unc(q)).error().code(), status_code::invalid_argument);
  EXPECT_GE(reasons.size(), 10u);
}

TEST(EncodingShorthands, ShorthandsMatchTemplates) {
  const auto g1 = generator<g1_curve>();
  const auto g2 = generator<g2_curve>();
  const auto a = encode_compressed(g1);
  const auto b = encode_uncompressed(g1);
  const auto c = encode_compressed(g2);
  const auto d = encode_uncompressed(g2);
  EXPECT_EQ(*decode_g1_compressed(a), g1);
  EXPECT_EQ(*decode_g1_uncompressed(b), g1);
  EXPECT_EQ(*decode_g2_compressed(c), g2);
  EXPECT_EQ(*decode_g2_uncompressed(d), g2);
  // Known answer: the G1 generator's compressed encoding (zcash spec / every BLS12-381 library).
  EXPECT_EQ(a[0], 0x97);
  EXPECT_EQ(a[1], 0xf1);
  EXPECT_EQ(a[47], 0xbb);
}

}  // namespace
}  // namespace pp::ec
