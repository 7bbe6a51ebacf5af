// snarkjs's LEM point encoding (ec/lem_encoding.hpp), written once and run for G1 and G2 of
// BLS12-381 and BN254: round trips, the byte layout (Montgomery little-endian, c0 before c1),
// infinity as zeros, and a rejection with its own message for every check.
#include "ec/lem_encoding.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "ec_test_util.hpp"
#include "support/status_matchers.hpp"

namespace pp::ec {
namespace {

using ::testing::HasSubstr;
using testing::random_curve_point;
using testing::random_field;
using testing::random_subgroup_point;
using testing::random_x_off_curve;
using testing::test_rng;

template <class Curve>
class LemEncoding : public ::testing::Test {};
TYPED_TEST_SUITE(LemEncoding, testing::all_curve_types, testing::curve_name_generator);

// The Fp components of a coordinate, in snarkjs's order (c0 before c1).
template <class F>
std::vector<const uint64_t*> components(const F& a) {
  if constexpr (requires { typename F::tower; }) {
    return {a.c0.l, a.c1.l};
  } else {
    return {a.l};
  }
}

TYPED_TEST(LemEncoding, SizesAndLayout) {
  using C = TypeParam;
  using base = typename C::family::fp;
  constexpr std::size_t n8q = 8 * base::n64;
  constexpr std::size_t coords = sizeof(typename C::field) / sizeof(base);  // 1 (Fp) or 2 (Fp2)
  static_assert(lem_size<C> == 2 * coords * n8q);
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const affine<C> p = random_subgroup_point<C>(rng);
  const lem_bytes<C> b = encode_lem(p);
  // x then y; each Fp component as its Montgomery limbs, least significant byte first.
  std::size_t off = 0;
  for (const auto* coord : {&p.x, &p.y}) {
    for (const uint64_t* l : components(*coord)) {
      for (int i = 0; i < base::n64; ++i) {
        for (int byte = 0; byte < 8; ++byte) {
          ASSERT_EQ(b[off++], static_cast<uint8_t>(l[i] >> (8 * byte))) << "byte " << off - 1;
        }
      }
    }
  }
  EXPECT_EQ(off, lem_size<C>);
  // One in Montgomery form is R mod p: the generator of BN254's G1, (1, 2), starts with R's bytes.
  if constexpr (std::is_same_v<C, bn254::g1_curve>) {
    const lem_bytes<C> g = encode_lem(generator<C>());
    uint64_t r_mod[4];
    std::memcpy(r_mod, g.data(), 32);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(r_mod[i], ff::bn254::fp_params::r_mod[i]);
  }
}

TYPED_TEST(LemEncoding, RoundTrip) {
  using C = TypeParam;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  for (int i = 0; i < 16; ++i) {
    const affine<C> p = random_subgroup_point<C>(rng);
    for (lem_check check : {lem_check::range_only, lem_check::on_curve, lem_check::subgroup}) {
      const auto d = decode_lem<C>(encode_lem(p), check);
      ASSERT_THAT(d, IsOk());
      EXPECT_EQ(*d, p);
    }
  }
}

TYPED_TEST(LemEncoding, InfinityIsAllZeros) {
  using C = TypeParam;
  const lem_bytes<C> b = encode_lem(affine<C>::infinity());
  for (uint8_t x : b) ASSERT_EQ(x, 0);
  const auto d = decode_lem<C>(b, lem_check::subgroup);
  ASSERT_THAT(d, IsOk());
  EXPECT_TRUE(is_infinity(*d));
}

TYPED_TEST(LemEncoding, RejectionsEachHaveTheirOwnMessage) {
  using C = TypeParam;
  using base = typename C::family::fp;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const affine<C> p = random_subgroup_point<C>(rng);
  const lem_bytes<C> good = encode_lem(p);
  const std::string name = C::name;

  // Lengths: empty, one short, one long.
  EXPECT_THAT(decode_lem<C>({}, lem_check::subgroup),
              StatusIs(status_code::invalid_argument, HasSubstr(name + " lem: expected")));
  EXPECT_THAT(decode_lem<C>(std::span(good).first(good.size() - 1), lem_check::range_only),
              StatusIs(status_code::invalid_argument, HasSubstr("got " + std::to_string(good.size() - 1))));
  std::vector<uint8_t> longer(good.begin(), good.end());
  longer.push_back(0);
  EXPECT_THAT(decode_lem<C>(longer, lem_check::range_only), StatusIs(status_code::invalid_argument));

  // Every Fp component at p (not canonical), even with only the range checked.
  for (std::size_t c = 0; c < lem_size<C> / sizeof(base); ++c) {
    lem_bytes<C> bad = good;
    std::memcpy(bad.data() + c * sizeof(base), base::params::modulus, sizeof(base));
    EXPECT_THAT(decode_lem<C>(bad, lem_check::range_only),
                StatusIs(status_code::invalid_argument, HasSubstr("not canonical"))) << "component " << c;
  }

  // Off the curve: y + 1. Refused from on_curve up; range_only lets it through.
  affine<C> off = p;
  off.y = off.y + C::field::one();
  EXPECT_THAT(decode_lem<C>(encode_lem(off), lem_check::on_curve),
              StatusIs(status_code::invalid_argument, HasSubstr("not on the curve")));
  EXPECT_THAT(decode_lem<C>(encode_lem(off), lem_check::range_only), IsOk());
  affine<C> no_y{random_x_off_curve<C>(rng), random_field<typename C::field>(rng)};
  EXPECT_THAT(decode_lem<C>(encode_lem(no_y), lem_check::subgroup), StatusIs(status_code::invalid_argument));

  // Outside the subgroup (every curve with a cofactor): refused by the subgroup check only.
  if constexpr (!testing::cofactor_is_one<C>) {
    const affine<C> q = random_curve_point<C>(rng);
    ASSERT_FALSE(is_in_subgroup_naive(q));
    EXPECT_THAT(decode_lem<C>(encode_lem(q), lem_check::subgroup),
                StatusIs(status_code::invalid_argument, HasSubstr("not in the prime-order subgroup")));
    EXPECT_THAT(decode_lem<C>(encode_lem(q), lem_check::on_curve), IsOk());
  }
}

}  // namespace
}  // namespace pp::ec
