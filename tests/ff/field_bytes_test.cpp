// field_bytes.hpp against GMP: byte (both endiannesses), decimal and hex round trips for fp and fr,
// and rejection of wrong lengths, values >= modulus and malformed strings with precise messages.
#include "ff/field_bytes.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "gmp_oracle.hpp"
#include "support/status_matchers.hpp"

namespace pp::ff {
namespace {

using ::testing::Not;

using namespace pp::ff::testing;

constexpr int kRandom = 5000;

// The value as exactly F::n_bytes bytes, most significant first.
template <class F>
std::vector<uint8_t> gmp_bytes_be(const mpz_class& v) {
  std::vector<uint8_t> out(F::n_bytes, 0);
  size_t count = 0;
  std::vector<uint8_t> tmp(F::n_bytes + 8, 0);
  mpz_export(tmp.data(), &count, 1, 1, 1, 0, v.get_mpz_t());
  EXPECT_LE(count, size_t(F::n_bytes));
  for (size_t i = 0; i < count; ++i) out[F::n_bytes - count + i] = tmp[i];
  return out;
}

template <class F>
std::vector<uint8_t> gmp_bytes_le(const mpz_class& v) {
  auto be = gmp_bytes_be<F>(v);
  return {be.rbegin(), be.rend()};
}

template <class F>
class FieldBytes : public ::testing::Test {
 protected:
  const mpz_class m = modulus<F>();
  const std::string name{field_name<typename F::params>};

  std::vector<mpz_class> values(std::mt19937_64& rng) const {
    auto v = edge_values(m);
    for (int i = 0; i < kRandom; ++i) v.push_back(random_field_value(rng, m));
    return v;
  }
  // Out of range: m, m+1, 2^bits - 1, 2^(8 n_bytes) - 1 and random ones in between.
  std::vector<mpz_class> too_large(std::mt19937_64& rng) const {
    const mpz_class all = (mpz_class(1) << (8 * F::n_bytes)) - 1;
    std::vector<mpz_class> v = {m, m + 1, (mpz_class(1) << F::bits) - 1, all};
    for (int i = 0; i < 50; ++i) v.push_back(m + random_below(rng, all - m));
    return v;
  }
  void expect_rejected(const status& s, const std::string& what) const {
    EXPECT_EQ(s.code(), status_code::invalid_argument) << s.to_string();
    EXPECT_EQ(s.message().rfind(name + ": ", 0), 0u) << "message names the field: " << s.message();
    EXPECT_NE(s.message().find(what), std::string::npos) << "expected '" << what << "' in: " << s.message();
  }
};

using fields = ::testing::Types<fp, fr>;
TYPED_TEST_SUITE(FieldBytes, fields);

TYPED_TEST(FieldBytes, FieldNames) {
  EXPECT_EQ(field_name<fp_params>, "fp");
  EXPECT_EQ(field_name<fr_params>, "fr");
  EXPECT_EQ(fp::n_bytes, 48);
  EXPECT_EQ(fr::n_bytes, 32);
}

TYPED_TEST(FieldBytes, BytesRoundTripBothEndiannesses) {
  using F = TypeParam;
  PP_SEEDED_RNG(rng);
  for (const auto& v : this->values(rng)) {
    const F x = from_mpz<F>(v);
    const auto be = to_bytes_be(x);
    const auto le = to_bytes_le(x);
    ASSERT_EQ(std::vector<uint8_t>(be.begin(), be.end()), gmp_bytes_be<F>(v)) << hex(v);
    ASSERT_EQ(std::vector<uint8_t>(le.begin(), le.end()), gmp_bytes_le<F>(v)) << hex(v);
    auto rb = from_bytes_be<F>(be);
    auto rl = from_bytes_le<F>(le);
    ASSERT_THAT(rb, IsOk());
    ASSERT_THAT(rl, IsOk());
    ASSERT_EQ(*rb, x);
    ASSERT_EQ(*rl, x);
  }
}

TYPED_TEST(FieldBytes, BytesRejectValuesAtLeastModulus) {
  using F = TypeParam;
  PP_SEEDED_RNG(rng);
  for (const auto& v : this->too_large(rng)) {
    SCOPED_TRACE(hex(v));
    auto rb = from_bytes_be<F>(gmp_bytes_be<F>(v));
    ASSERT_THAT(rb, Not(IsOk()));
    this->expect_rejected(rb.error(), "value >= modulus");
    auto rl = from_bytes_le<F>(gmp_bytes_le<F>(v));
    ASSERT_THAT(rl, Not(IsOk()));
    this->expect_rejected(rl.error(), "value >= modulus");
  }
}

TYPED_TEST(FieldBytes, BytesRejectWrongLengths) {
  using F = TypeParam;
  for (size_t n : {size_t(0), size_t(1), size_t(F::n_bytes - 1), size_t(F::n_bytes + 1), size_t(2 * F::n_bytes)}) {
    const std::vector<uint8_t> zeros(n, 0);
    const std::string what = "expected " + std::to_string(F::n_bytes) + " bytes, got " + std::to_string(n);
    auto rb = from_bytes_be<F>(zeros);
    ASSERT_THAT(rb, Not(IsOk()));
    this->expect_rejected(rb.error(), what);
    auto rl = from_bytes_le<F>(zeros);
    ASSERT_THAT(rl, Not(IsOk()));
    this->expect_rejected(rl.error(), what);
  }
}

TYPED_TEST(FieldBytes, DecimalRoundTrip) {
  using F = TypeParam;
  PP_SEEDED_RNG(rng);
  for (const auto& v : this->values(rng)) {
    const F x = from_mpz<F>(v);
    const std::string s = to_decimal(x);
    ASSERT_EQ(s, v.get_str(10));
    auto r = from_decimal<F>(v.get_str(10));
    ASSERT_THAT(r, IsOk());
    ASSERT_EQ(*r, x) << s;
    // Leading zeros spell the same value.
    auto rz = from_decimal<F>("000" + s);
    ASSERT_THAT(rz, IsOk());
    ASSERT_EQ(*rz, x);
  }
  EXPECT_EQ(to_decimal(F::zero()), "0");
  EXPECT_EQ(to_decimal(F::one()), "1");
  // 10^19 - 1, 10^19, 10^19 + 1: the chunk boundary of the printer and the parser.
  for (const char* s : {"9999999999999999999", "10000000000000000000", "10000000000000000001",
                        "100000000000000000000000000000000000000"}) {
    auto r = from_decimal<F>(s);
    ASSERT_THAT(r, IsOk()) << s;
    EXPECT_EQ(to_mpz(*r), mpz_class(s));
    EXPECT_EQ(to_decimal(*r), s);
  }
}

TYPED_TEST(FieldBytes, DecimalRejectsMalformedAndTooLarge) {
  using F = TypeParam;
  PP_SEEDED_RNG(rng);
  for (const auto& v : this->too_large(rng)) {
    auto r = from_decimal<F>(v.get_str(10));
    ASSERT_THAT(r, Not(IsOk())) << v.get_str(10);
    this->expect_rejected(r.error(), "value >= modulus");
  }
  // Far beyond 2^(64 n64): overflow detection, not wrap-around.
  const std::string huge(200, '9');
  auto rh = from_decimal<F>(huge);
  ASSERT_THAT(rh, Not(IsOk()));
  this->expect_rejected(rh.error(), "value >= modulus");
  const mpz_class wrap = (mpz_class(1) << (64 * F::n64)) + 5;  // would read as 5 if wrapped
  auto rw = from_decimal<F>(wrap.get_str(10));
  ASSERT_THAT(rw, Not(IsOk()));

  auto re = from_decimal<F>("");
  ASSERT_THAT(re, Not(IsOk()));
  this->expect_rejected(re.error(), "empty");
  const std::vector<std::pair<std::string, std::string>> bad = {
      {"+1", "'+' at position 0"},    {"-1", "'-' at position 0"},  {" 1", "' ' at position 0"},
      {"1 ", "' ' at position 1"},    {"12a", "'a' at position 2"}, {"0x10", "'x' at position 1"},
      {"1.0", "'.' at position 1"},   {"1e5", "'e' at position 1"}, {std::string("1\0", 2), "0x00 at position 1"},
      {"\xc2\xb9", "0xc2 at position 0"},
      // A bad character after an overflowing prefix is still reported as a bad character.
      {huge + "x", "'x' at position 200"}};
  for (const auto& [s, what] : bad) {
    auto r = from_decimal<F>(s);
    ASSERT_THAT(r, Not(IsOk())) << s;
    this->expect_rejected(r.error(), "invalid decimal character " + what);
  }
}

TYPED_TEST(FieldBytes, HexRoundTripAndRejections) {
  using F = TypeParam;
  PP_SEEDED_RNG(rng);
  for (const auto& v : this->values(rng)) {
    const F x = from_mpz<F>(v);
    ASSERT_EQ(to_hex(x), "0x" + v.get_str(16));
    for (const std::string& s : {"0x" + v.get_str(16), v.get_str(16), "0X00" + v.get_str(16)}) {
      auto r = from_hex<F>(s);
      ASSERT_THAT(r, IsOk()) << s << ": " << r.error().to_string();
      ASSERT_EQ(*r, x) << s;
    }
    std::string upper = v.get_str(16);
    for (auto& c : upper) c = char(std::toupper(static_cast<unsigned char>(c)));
    auto ru = from_hex<F>(upper);
    ASSERT_THAT(ru, IsOk());
    ASSERT_EQ(*ru, x);
  }
  for (const auto& v : this->too_large(rng)) {
    auto r = from_hex<F>("0x" + v.get_str(16));
    ASSERT_THAT(r, Not(IsOk()));
    this->expect_rejected(r.error(), "value >= modulus");
  }
  auto rh = from_hex<F>("0x" + std::string(200, 'f'));
  ASSERT_THAT(rh, Not(IsOk()));
  this->expect_rejected(rh.error(), "value >= modulus");
  for (const char* s : {"", "0x", "0X"}) {
    auto r = from_hex<F>(s);
    ASSERT_THAT(r, Not(IsOk())) << s;
    this->expect_rejected(r.error(), "no digits");
  }
  for (const char* s : {"0xg", "-0x1", "+1", "0x 1", "1h", "0x0x1"}) {
    auto r = from_hex<F>(s);
    ASSERT_THAT(r, Not(IsOk())) << s;
    this->expect_rejected(r.error(), "invalid hex character");
  }
}

}  // namespace
}  // namespace pp::ff
