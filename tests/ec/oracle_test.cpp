// Cross-checks against @noble/curves (tools/oracle/ec_oracle.mjs, one node run per test): encodings
// of [k]G for fresh random k and k = 0, 1, 2, r-2, r-1; encodings of sums P + Q, P + P, P + (-P),
// O + P; and decoding noble's encodings must give our points. Skips when node or the oracle's
// node_modules are missing.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ec/encoding.hpp"
#include "ec_test_util.hpp"
#include "ff/field_bytes.hpp"
#include "oracle_runner.hpp"
#include "support/status_matchers.hpp"

namespace pp::ec {
namespace {

using nlohmann::json;
using testing::from_hex;
using testing::random_scalar;
using testing::to_hex;
using testing::test_rng;

template <class Curve>
class Oracle : public ::testing::Test {};
TYPED_TEST_SUITE(Oracle, testing::curve_types, testing::curve_name_generator);

TYPED_TEST(Oracle, ScalarMultiplesAndSumsMatchNoble) {
  using C = TypeParam;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const affine<C> g = generator<C>();

  // [k] G for edge and random k.
  std::vector<ff::fr> ks = {ff::fr::zero(), ff::fr::one(), ff::fr::from_uint(2), -ff::fr::from_uint(2), -ff::fr::one()};
  while (ks.size() < 45) ks.push_back(random_scalar(rng));
  std::vector<affine<C>> ours;
  json cases = json::array();
  for (const ff::fr& k : ks) {
    cases.push_back({{"op", "mul"}, {"group", C::name}, {"k", ff::to_hex(k)}});
    ours.push_back(to_affine(scalar_mul(g, k)));
  }
  // Sums: random pairs, P + P, P + (-P), O + P, O + O; operands sent in either encoding.
  const std::vector<testing::sum_case<C>> sums = testing::oracle_sum_cases(ours);
  for (std::size_t i = 0; i < sums.size(); ++i) {
    const auto& s = sums[i];
    const std::string a = i % 2 ? to_hex(encode_compressed(s.a)) : to_hex(encode_uncompressed(s.a));
    const std::string b = i % 3 ? to_hex(encode_compressed(s.b)) : to_hex(encode_uncompressed(s.b));
    cases.push_back({{"op", "add"}, {"group", C::name}, {"a", a}, {"b", b}});
  }

  json answer;
  std::string why;
  if (!testing::run_oracle("ec_oracle.mjs", "@noble/curves", json{{"cases", cases}}, answer, why)) GTEST_SKIP() << why;
  ASSERT_TRUE(answer.contains("results"));
  const json& res = answer["results"];
  ASSERT_EQ(res.size(), ks.size() + sums.size());

  for (std::size_t i = 0; i < ks.size(); ++i) {
    SCOPED_TRACE("k = " + ff::to_hex(ks[i]));
    ASSERT_FALSE(res[i].contains("error")) << res[i]["error"];
    const std::string nc = res[i]["compressed"], nu = res[i]["uncompressed"];
    EXPECT_EQ(to_hex(encode_compressed(ours[i])), nc);
    EXPECT_EQ(to_hex(encode_uncompressed(ours[i])), nu);
    auto dc = decode_compressed<C>(from_hex(nc));
    auto du = decode_uncompressed<C>(from_hex(nu));
    ASSERT_THAT(dc, IsOk());
    ASSERT_THAT(du, IsOk());
    EXPECT_EQ(*dc, ours[i]);
    EXPECT_EQ(*du, ours[i]);
  }
  for (std::size_t i = 0; i < sums.size(); ++i) {
    SCOPED_TRACE("sum case " + std::to_string(i));
    const json& r = res[ks.size() + i];
    ASSERT_FALSE(r.contains("error")) << r["error"];
    const affine<C> jac_sum = to_affine(madd(to_jacobian(sums[i].a), sums[i].b));
    const affine<C> xyzz_sum = to_affine(add(to_xyzz(sums[i].a), to_xyzz(sums[i].b)));
    EXPECT_EQ(jac_sum, xyzz_sum);
    EXPECT_EQ(to_hex(encode_compressed(jac_sum)), r["compressed"].get<std::string>());
    EXPECT_EQ(to_hex(encode_uncompressed(jac_sum)), r["uncompressed"].get<std::string>());
  }
}

}  // namespace
}  // namespace pp::ec
