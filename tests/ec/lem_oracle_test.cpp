// ec/lem_encoding.hpp against snarkjs's own writer: [k]G for G1 and G2 of BLS12-381 ("bls12381")
// and BN254 ("bn128") in ffjavascript's LEM form (tools/oracle/lem_oracle.mjs), for fresh random k
// and k = 0, 1, 2, r-1: our bytes equal its bytes, and its bytes decode, fully checked, to our point.
// Skips when node or the oracle's node_modules are missing.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "ec/lem_encoding.hpp"
#include "ec_test_util.hpp"
#include "ff/field_bytes.hpp"
#include "oracle_runner.hpp"
#include "support/status_matchers.hpp"

namespace pp::ec {
namespace {

using nlohmann::json;
using testing::test_rng;
using testing::to_hex;

template <class Curve>
class LemOracle : public ::testing::Test {};
TYPED_TEST_SUITE(LemOracle, testing::all_curve_types, testing::curve_name_generator);

TYPED_TEST(LemOracle, ScalarMultiplesMatchSnarkjs) {
  using C = TypeParam;
  using fr = typename C::scalar_field;
  constexpr bool bn = std::is_same_v<typename C::family, bn254::family>;
  const std::string curve = bn ? "bn128" : "bls12381";
  const std::string group = std::string(C::name).substr(bn ? 6 : 0);  // "bn254_g1" -> "g1"
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  std::vector<fr> ks = {fr::zero(), fr::one(), fr::from_uint(2), -fr::one()};
  while (ks.size() < 16) ks.push_back(testing::random_scalar<fr>(rng));
  json cases = json::array();
  for (const fr& k : ks) cases.push_back({{"curve", curve}, {"group", group}, {"k", ff::to_hex(k)}});

  json answer;
  std::string why;
  if (!testing::run_oracle("lem_oracle.mjs", "ffjavascript", json{{"cases", cases}}, answer, why)) GTEST_SKIP() << why;
  ASSERT_TRUE(answer.contains("results"));
  const json& res = answer["results"];
  ASSERT_EQ(res.size(), ks.size());
  for (std::size_t i = 0; i < ks.size(); ++i) {
    SCOPED_TRACE("k = " + ff::to_hex(ks[i]));
    const affine<C> ours = to_affine(scalar_mul(generator<C>(), ks[i]));
    const std::string theirs = res[i]["lem"];
    EXPECT_EQ(to_hex(encode_lem(ours)), theirs);
    const auto decoded = decode_lem<C>(testing::from_hex(theirs), lem_check::subgroup);
    ASSERT_THAT(decoded, IsOk());
    EXPECT_EQ(*decoded, ours);
  }
}

}  // namespace
}  // namespace pp::ec
