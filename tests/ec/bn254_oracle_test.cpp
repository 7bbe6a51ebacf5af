// BN254 G1 and G2 against @noble/curves bn254 (tools/oracle/ec_oracle.mjs, affine coordinates: noble
// has no BN254 byte encoding): [k]G for fresh random k and k = 0, 1, 2, r-2, r-1, and sums P + Q,
// P + P, P + (-P), O + P, O + O through both point representations. Skips when node or the oracle's
// node_modules are missing.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ec_test_util.hpp"
#include "ff/field_bytes.hpp"
#include "oracle_runner.hpp"

namespace pp::ec::bn254 {
namespace {

using nlohmann::json;
using testing::test_rng;
using fr = ff::bn254::fr;

json coordinate(const ff::bn254::fp& a) { return ff::to_hex(a).substr(2); }
json coordinate(const ff::bn254::fp2& a) { return json::array({coordinate(a.c0), coordinate(a.c1)}); }

// A point as the oracle writes it: canonical hex without leading zeros (ff::to_hex without its 0x).
template <class Curve>
json to_json(const affine<Curve>& p) {
  if (is_infinity(p)) return json{{"infinity", true}};
  return json{{"x", coordinate(p.x)}, {"y", coordinate(p.y)}};
}

template <class Curve>
class Bn254Oracle : public ::testing::Test {};
using bn254_curves = ::testing::Types<g1_curve, g2_curve>;
TYPED_TEST_SUITE(Bn254Oracle, bn254_curves, ec::testing::curve_name_generator);

TYPED_TEST(Bn254Oracle, ScalarMultiplesAndSumsMatchNoble) {
  using C = TypeParam;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const affine<C> g = generator<C>();
  const std::string group = std::string(C::name).substr(6);  // "bn254_g1" -> "g1"

  std::vector<fr> ks = {fr::zero(), fr::one(), fr::from_uint(2), -fr::from_uint(2), -fr::one()};
  while (ks.size() < 45) ks.push_back(ec::testing::random_scalar<fr>(rng));
  std::vector<affine<C>> ours;
  json cases = json::array();
  for (const fr& k : ks) {
    cases.push_back({{"curve", "bn254"}, {"op", "mul"}, {"group", group}, {"k", ff::to_hex(k)}});
    ours.push_back(to_affine(scalar_mul(g, k)));
  }
  const std::vector<testing::sum_case<C>> sums = testing::oracle_sum_cases(ours);
  for (const auto& s : sums) {
    cases.push_back({{"curve", "bn254"}, {"op", "add"}, {"group", group}, {"a", to_json(s.a)}, {"b", to_json(s.b)}});
  }

  json answer;
  std::string why;
  if (!ec::testing::run_oracle("ec_oracle.mjs", "@noble/curves", json{{"cases", cases}}, answer, why)) {
    GTEST_SKIP() << why;
  }
  ASSERT_TRUE(answer.contains("results"));
  const json& res = answer["results"];
  ASSERT_EQ(res.size(), ks.size() + sums.size());
  for (std::size_t i = 0; i < ks.size(); ++i) {
    SCOPED_TRACE("k = " + ff::to_hex(ks[i]));
    ASSERT_FALSE(res[i].contains("error")) << res[i]["error"];
    EXPECT_EQ(to_json(ours[i]), res[i]);
  }
  for (std::size_t i = 0; i < sums.size(); ++i) {
    SCOPED_TRACE("sum case " + std::to_string(i));
    const json& r = res[ks.size() + i];
    ASSERT_FALSE(r.contains("error")) << r["error"];
    const affine<C> jac_sum = to_affine(madd(to_jacobian(sums[i].a), sums[i].b));
    const affine<C> xyzz_sum = to_affine(add(to_xyzz(sums[i].a), to_xyzz(sums[i].b)));
    EXPECT_EQ(jac_sum, xyzz_sum);
    EXPECT_EQ(to_json(jac_sum), r);
  }
}

}  // namespace
}  // namespace pp::ec::bn254
