// snarkjs JSON readers/writers on random keys and proofs: round trips, snarkjs's exact formatting
// (infinity encodings, bfj's empty array), and malformed inputs with their messages; the
// curve-generic cases ("curve", out-of-range values, the other curve's files) on both families.
#include "formats/snarkjs_json.hpp"

#include <gtest/gtest.h>

#include "ec/ec_test_util.hpp"
#include "ff/field_bytes.hpp"
#include "formats/both_curves.hpp"
#include "pairing/pairing.hpp"
#include "support/status_matchers.hpp"

namespace pp::formats {
namespace {

using ec::testing::random_scalar;
using ec::testing::random_subgroup_point;
using ec::testing::test_rng;

groth16::verifying_key random_vk(test_rng& rng, int n_public) {
  groth16::verifying_key vk;
  vk.alpha_g1 = random_subgroup_point<ec::g1_curve>(rng);
  vk.beta_g2 = random_subgroup_point<ec::g2_curve>(rng);
  vk.gamma_g2 = ec::generator<ec::g2_curve>();
  vk.delta_g2 = random_subgroup_point<ec::g2_curve>(rng);
  for (int i = 0; i <= n_public; ++i) vk.ic.push_back(random_subgroup_point<ec::g1_curve>(rng));
  return vk;
}

groth16::proof random_proof(test_rng& rng) {
  return {random_subgroup_point<ec::g1_curve>(rng), random_subgroup_point<ec::g2_curve>(rng),
          random_subgroup_point<ec::g1_curve>(rng)};
}

template <class T>
void expect_error(const result<T>& r, const std::string& needle) {
  ASSERT_THAT(r, StatusIs(status_code::invalid_argument)) << "expected: " << needle;
  EXPECT_NE(r.error().message().find(needle), std::string::npos) << r.error().to_string();
}

std::string replace(std::string s, const std::string& from, const std::string& to) {
  const auto at = s.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  if (at != std::string::npos) s.replace(at, from.size(), to);
  return s;
}

TEST(SnarkjsJson, VkRoundTrip) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  for (int n_public : {0, 1, 5}) {
    auto vk = random_vk(rng, n_public);
    if (n_public == 5) vk.ic[3] = ec::g1_affine::infinity();
    const std::string text = write_snarkjs_vk_json(vk);
    const auto back = read_snarkjs_vk_json(text);
    ASSERT_THAT(back, IsOk());
    EXPECT_TRUE(back->alpha_g1 == vk.alpha_g1 && back->beta_g2 == vk.beta_g2 && back->gamma_g2 == vk.gamma_g2 &&
                back->delta_g2 == vk.delta_g2 && back->ic == vk.ic);
    EXPECT_EQ(write_snarkjs_vk_json(*back), text);
    EXPECT_EQ(text.rfind("{\n \"protocol\": \"groth16\",\n \"curve\": \"bls12381\",\n \"nPublic\": " +
                             std::to_string(n_public) + ",\n \"vk_alpha_1\": [\n  \"",
                         0),
              0u);
  }
}

TEST(SnarkjsJson, ProofAndPublicRoundTripAndExactShape) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto p = random_proof(rng);
  const std::string text = write_snarkjs_proof_json(p);
  const auto back = read_snarkjs_proof_json(text);
  ASSERT_THAT(back, IsOk());
  EXPECT_TRUE(*back == p);
  EXPECT_NE(text.find("\n  \"1\"\n ],\n \"pi_b\": [\n  [\n   \""), std::string::npos) << text;
  EXPECT_NE(text.find("  [\n   \"1\",\n   \"0\"\n  ]\n ],\n \"pi_c\""), std::string::npos) << text;
  const std::string tail = "\n ],\n \"protocol\": \"groth16\",\n \"curve\": \"bls12381\"\n}";
  EXPECT_EQ(text.substr(text.size() - tail.size()), tail);
  // Infinity is written as snarkjs's toObject does, and read back.
  const groth16::proof inf{ec::g1_affine::infinity(), ec::g2_affine::infinity(), p.c};
  const std::string t2 = write_snarkjs_proof_json(inf);
  EXPECT_EQ(t2.rfind("{\n \"pi_a\": [\n  \"0\",\n  \"1\",\n  \"0\"\n ],\n \"pi_b\": [\n  [\n   \"0\",\n   \"0\"\n  ],\n"
                     "  [\n   \"1\",\n   \"0\"\n  ],\n  [\n   \"0\",\n   \"0\"\n  ]\n ],",
                     0),
            0u);
  EXPECT_TRUE(read_snarkjs_proof_json(t2).value() == inf);

  std::vector<ff::fr> pub = {ff::fr::zero(), ff::fr::one(), -ff::fr::one(), random_scalar(rng)};
  const std::string pt = write_snarkjs_public_json(pub);
  EXPECT_EQ(pt.rfind("[\n \"0\",\n \"1\",\n \"" + ff::to_decimal(-ff::fr::one()) + "\",\n \"", 0), 0u);
  const auto pb = read_snarkjs_public_json(pt);
  ASSERT_THAT(pb, IsOk());
  EXPECT_TRUE(*pb == pub);
  EXPECT_EQ(write_snarkjs_public_json(std::span<const ff::fr>{}), "[\n]");  // bfj, unlike JSON.stringify
  EXPECT_TRUE(read_snarkjs_public_json("[\n]").value().empty());
}

TEST(SnarkjsJson, MalformedProofs) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto p = random_proof(rng);
  const std::string good = write_snarkjs_proof_json(p);
  const std::string ax = ff::to_decimal(p.a.x), ay = ff::to_decimal(p.a.y);
  expect_error(read_snarkjs_proof_json("{\"pi_a\": [1,2"), "malformed JSON");
  expect_error(read_snarkjs_proof_json("[]"), "expected a JSON object, got array");
  expect_error(read_snarkjs_proof_json(""), "malformed JSON");
  expect_error(read_snarkjs_proof_json(replace(good, "\"bls12381\"", "\"bn128\"")), "this proof is for BN254 (bn128), expected BLS12-381 (bls12381)");
  expect_error(read_snarkjs_proof_json(replace(good, "\"bls12381\"", "\"bls12377\"")), "needs \"bls12381\" or \"bn128\"");
  expect_error(read_snarkjs_proof_json(replace(good, "\"groth16\"", "\"plonk\"")), "\"groth16\" only");
  expect_error(read_snarkjs_proof_json(replace(good, "\"pi_c\"", "\"pi_x\"")), "missing \"pi_c\"");
  expect_error(read_snarkjs_proof_json(replace(good, "\"" + ax + "\"", ax)), "pi_a[0]: expected a decimal string, got number");
  expect_error(read_snarkjs_proof_json(replace(good, "\"" + ax + "\"", "\"0x12\"")), "pi_a[0]: fp: invalid decimal character 'x'");
  expect_error(read_snarkjs_proof_json(replace(good, "\"" + ax + "\"", "\"-1\"")), "pi_a[0]: fp: invalid decimal character '-'");
  expect_error(read_snarkjs_proof_json(replace(good, "\"" + ax + "\"", "\"" + ff::to_decimal(-ff::fp::one()) + "0\"")),
               "pi_a[0]: fp: decimal value >= modulus");
  // q itself.
  expect_error(read_snarkjs_proof_json(replace(good, "\"" + ax + "\"",
                                               "\"4002409555221667393417789825735904156556882819939007885332058136124031650490837864442687629129015664037894272559787\"")),
               "pi_a[0]: fp: decimal value >= modulus");
  expect_error(read_snarkjs_proof_json(replace(good, "\"" + ay + "\"", "\"" + ax + "\"")), "pi_a: not on the g1 curve");
  expect_error(read_snarkjs_proof_json(replace(good, "\"" + ay + "\",\n  \"1\"", "\"" + ay + "\",\n  \"2\"")),
               "pi_a[2]: z must be");
  expect_error(read_snarkjs_proof_json(replace(good, "\"" + ay + "\",\n  \"1\"", "\"" + ay + "\"")),
               "pi_a: expected an array of 3, got 2 elements");
  // A curve point outside the subgroup.
  const auto outside = ec::testing::random_curve_point<ec::g1_curve>(rng);
  ASSERT_FALSE(ec::is_in_subgroup(outside));
  groth16::proof bad = p;
  bad.c = outside;
  expect_error(read_snarkjs_proof_json(write_snarkjs_proof_json(bad)), "pi_c: not in the prime-order g1 subgroup");
  // G2 shape errors.
  expect_error(read_snarkjs_proof_json(replace(good, "[\n   \"1\",\n   \"0\"\n  ]", "[\n   \"1\",\n   \"1\"\n  ]")),
               "pi_b[2]: z must be");
  expect_error(read_snarkjs_proof_json(replace(good, "\"pi_b\": [\n  [", "\"pi_b\": [\n  {\"x\":1}, [")),
               "pi_b: expected an array of 3, got 4 elements");
}

TEST(SnarkjsJson, MalformedVkAndPublic) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto vk = random_vk(rng, 2);
  const std::string good = write_snarkjs_vk_json(vk);
  expect_error(read_snarkjs_vk_json(replace(good, "\"nPublic\": 2", "\"nPublic\": 3")), "nPublic is 3, expected 2");
  expect_error(read_snarkjs_vk_json(replace(good, "\"nPublic\": 2", "\"nPublic\": \"2\"")), "nPublic is \"2\"");
  expect_error(read_snarkjs_vk_json(replace(good, "\"IC\": [", "\"IC\": 5, \"x\": [")), "IC: expected a non-empty array");
  expect_error(read_snarkjs_vk_json(replace(good, "\"vk_alphabeta_12\": [", "\"vk_alphabeta_12\": [[],")),
               "vk_alphabeta_12: expected an array of 2, got 3");
  expect_error(read_snarkjs_vk_json(replace(good, "\"curve\": \"bls12381\"", "\"curve\": 7")), "curve must be a string");
  expect_error(read_snarkjs_vk_json(replace(good, "\"vk_delta_2\"", "\"vk_delta_3\"")), "missing \"vk_delta_2\"");
  // vk_alphabeta_12 is optional.
  {
    const auto at = good.find(" \"vk_alphabeta_12\"");
    const auto ic = good.find(" \"IC\"");
    std::string no_ab = good.substr(0, at) + good.substr(ic);
    EXPECT_THAT(read_snarkjs_vk_json(no_ab), IsOk());
  }
  expect_error(read_snarkjs_public_json("{}"), "expected an array of decimal strings, got object");
  expect_error(read_snarkjs_public_json("[\"1\", 2]"), "[1]: expected a decimal string, got number");
  expect_error(read_snarkjs_public_json("[\"\"]"), "[0]: fr: empty decimal string");
  expect_error(read_snarkjs_public_json("[\"52435875175126190479447740508185965837690552500527637822603658699938581184513\"]"),
               "[0]: fr: decimal value >= modulus");
  EXPECT_TRUE(read_snarkjs_public_json("[\"52435875175126190479447740508185965837690552500527637822603658699938581184512\"]")
                  .value()[0] == -ff::fr::one());
}

TEST(SnarkjsJson, Files) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto p = random_proof(rng);
  const auto path = std::filesystem::temp_directory_path() / ("pp_proof_json_" + std::to_string(rng.seed) + ".json");
  ASSERT_THAT(write_text_file(path, write_snarkjs_proof_json(p)), IsOk());
  EXPECT_TRUE(read_snarkjs_proof_json_file(path).value() == p);
  ASSERT_THAT(write_text_file(path, "[\"1\"]"), IsOk());
  const auto bad = read_snarkjs_proof_json_file(path);
  std::filesystem::remove(path);
  expect_error(bad, "reading " + path.string() + ": proof: expected a JSON object");
  EXPECT_EQ(read_snarkjs_vk_json_file(path).error().code(), status_code::not_found);
}

// ---- both curves -------------------------------------------------------------------------------

template <class Family>
groth16::basic_verifying_key<Family> random_family_vk(test_rng& rng, int n_public) {
  using g1 = typename Family::g1_curve;
  using g2 = typename Family::g2_curve;
  groth16::basic_verifying_key<Family> vk;
  vk.alpha_g1 = random_subgroup_point<g1>(rng);
  vk.beta_g2 = random_subgroup_point<g2>(rng);
  vk.gamma_g2 = ec::generator<g2>();
  vk.delta_g2 = random_subgroup_point<g2>(rng);
  for (int i = 0; i <= n_public; ++i) vk.ic.push_back(random_subgroup_point<g1>(rng));
  return vk;
}

template <class Family>
groth16::basic_proof<Family> random_family_proof(test_rng& rng) {
  return {random_subgroup_point<typename Family::g1_curve>(rng), random_subgroup_point<typename Family::g2_curve>(rng),
          random_subgroup_point<typename Family::g1_curve>(rng)};
}

template <class Family>
class SnarkjsJsonCurves : public ::testing::Test {};
TYPED_TEST_SUITE(SnarkjsJsonCurves, testing::families, testing::family_name_generator);

TYPED_TEST(SnarkjsJsonCurves, RoundTripsAndNamesItsCurve) {
  using fr = typename TypeParam::fr;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const std::string curve(ec::snarkjs_curve_name(testing::curve_of<TypeParam>));
  auto vk = random_family_vk<TypeParam>(rng, 3);
  vk.ic[2] = ec::affine<typename TypeParam::g1_curve>::infinity();
  const std::string vt = write_snarkjs_vk_json(vk);
  EXPECT_EQ(vt.rfind("{\n \"protocol\": \"groth16\",\n \"curve\": \"" + curve + "\",\n \"nPublic\": 3,", 0), 0u);
  const auto vb = read_snarkjs_vk_json<TypeParam>(vt);
  ASSERT_THAT(vb, IsOk());
  EXPECT_TRUE(vb->alpha_g1 == vk.alpha_g1 && vb->beta_g2 == vk.beta_g2 && vb->gamma_g2 == vk.gamma_g2 &&
              vb->delta_g2 == vk.delta_g2 && vb->ic == vk.ic);
  EXPECT_EQ(write_snarkjs_vk_json(*vb), vt);
  EXPECT_TRUE(testing::is_curve(read_snarkjs_json_curve(vt), testing::curve_of<TypeParam>));
  // vk_alphabeta_12 is this family's e(alpha, beta): its first Fp value is printed first.
  const auto ab = pairing::pairing(vk.alpha_g1, vk.beta_g2);
  EXPECT_NE(vt.find("\"vk_alphabeta_12\": [\n  [\n   [\n    \"" + ff::to_decimal(ab.c0.c0.c0) + "\""), std::string::npos);

  const auto p = random_family_proof<TypeParam>(rng);
  const std::string pt = write_snarkjs_proof_json(p);
  EXPECT_EQ(pt.substr(pt.size() - 13 - curve.size()), "\"curve\": \"" + curve + "\"\n}");
  const auto pb = read_snarkjs_proof_json<TypeParam>(pt);
  ASSERT_THAT(pb, IsOk());
  EXPECT_TRUE(*pb == p);
  EXPECT_TRUE(testing::is_curve(read_snarkjs_json_curve(pt), testing::curve_of<TypeParam>));

  const std::vector<fr> pub = {fr::zero(), fr::one(), -fr::one(), random_scalar<fr>(rng)};
  const std::string ut = write_snarkjs_public_json(pub);
  EXPECT_TRUE(read_snarkjs_public_json<fr>(ut).value() == pub);

  const auto dir = std::filesystem::temp_directory_path();
  const auto vp = dir / ("pp_vk_curves_" + std::to_string(rng.seed) + ".json");
  const auto pp = dir / ("pp_proof_curves_" + std::to_string(rng.seed) + ".json");
  const auto up = dir / ("pp_public_curves_" + std::to_string(rng.seed) + ".json");
  ASSERT_THAT(write_text_file(vp, vt), IsOk());
  ASSERT_THAT(write_text_file(pp, pt), IsOk());
  ASSERT_THAT(write_text_file(up, ut), IsOk());
  EXPECT_THAT(read_snarkjs_vk_json_file<TypeParam>(vp), IsOk());
  EXPECT_TRUE(read_snarkjs_proof_json_file<TypeParam>(pp).value() == p);
  EXPECT_TRUE(read_snarkjs_public_json_file<fr>(up).value() == pub);
  EXPECT_TRUE(testing::is_curve(read_snarkjs_json_curve_file(vp), testing::curve_of<TypeParam>));
  for (const auto& f : {vp, pp, up}) std::filesystem::remove(f);
  EXPECT_EQ(read_snarkjs_json_curve_file(vp).error().code(), status_code::not_found);
}

TYPED_TEST(SnarkjsJsonCurves, OutOfRangeValuesAreRefused) {
  using fr = typename TypeParam::fr;
  using fp = typename TypeParam::fp;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto p = random_family_proof<TypeParam>(rng);
  const std::string good = write_snarkjs_proof_json(p);
  const std::string ax = ff::to_decimal(p.a.x);
  // q = (q - 1) + 1 in decimal: q - 1 is the largest coordinate.
  const std::string q_minus_1 = ff::to_decimal(-fp::one());
  std::string q = q_minus_1;
  ++q.back();  // q is odd, so q - 1 ends in an even digit below 9
  const std::string field(ff::field_name<typename fp::params>);
  expect_error(read_snarkjs_proof_json<TypeParam>(replace(good, "\"" + ax + "\"", "\"" + q + "\"")),
               "pi_a[0]: " + field + ": decimal value >= modulus");
  expect_error(read_snarkjs_proof_json<TypeParam>(replace(good, "\"" + ax + "\"", "\"" + ax + "0\"")), "pi_a");
  const std::string r_minus_1 = ff::to_decimal(-fr::one());
  std::string r = r_minus_1;
  ++r.back();
  expect_error(read_snarkjs_public_json<fr>("[\"" + r + "\"]"),
               "[0]: " + std::string(ff::field_name<typename fr::params>) + ": decimal value >= modulus");
  EXPECT_TRUE(read_snarkjs_public_json<fr>("[\"" + r_minus_1 + "\"]").value()[0] == -fr::one());
  // Off the curve: y replaced by x.
  expect_error(read_snarkjs_proof_json<TypeParam>(replace(good, "\"" + ff::to_decimal(p.a.y) + "\"", "\"" + ax + "\"")),
               "pi_a: not on the " + std::string(TypeParam::g1_curve::name) + " curve");
  // Outside G2's prime-order subgroup.
  auto bad = p;
  bad.b = ec::testing::random_curve_point<typename TypeParam::g2_curve>(rng);
  expect_error(read_snarkjs_proof_json<TypeParam>(write_snarkjs_proof_json(bad)),
               "pi_b: not in the prime-order " + std::string(TypeParam::g2_curve::name) + " subgroup");
}

TYPED_TEST(SnarkjsJsonCurves, OtherCurvesFilesAreRefusedNamingBoth) {
  using Other = testing::other_family<TypeParam>;
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const std::string other_name(ec::snarkjs_curve_name(testing::curve_of<Other>));
  const std::string tail = std::string("), expected ") + TypeParam::name + " (" +
                           std::string(ec::snarkjs_curve_name(testing::curve_of<TypeParam>)) + ")";
  const std::string vt = write_snarkjs_vk_json(random_family_vk<Other>(rng, 1));
  expect_error(read_snarkjs_vk_json<TypeParam>(vt),
               std::string("verification key: this verification key is for ") + Other::name + " (" + other_name + tail);
  const std::string pt = write_snarkjs_proof_json(random_family_proof<Other>(rng));
  expect_error(read_snarkjs_proof_json<TypeParam>(pt),
               std::string("proof: this proof is for ") + Other::name + " (" + other_name + tail);
  EXPECT_TRUE(testing::is_curve(read_snarkjs_json_curve(pt), testing::curve_of<Other>));
}

TEST(SnarkjsJson, Bn254IsReadAsBn128) {
  test_rng rng;
  SCOPED_TRACE(rng.trace());
  const auto p = random_family_proof<ec::bn254::family>(rng);
  const std::string text = replace(write_snarkjs_proof_json(p), "\"bn128\"", "\"bn254\"");
  EXPECT_TRUE(read_snarkjs_proof_json<ec::bn254::family>(text).value() == p);
  EXPECT_TRUE(testing::is_curve(read_snarkjs_json_curve(text), ec::curve_id::bn254));
  expect_error(read_snarkjs_json_curve(replace(text, "\"bn254\"", "\"bls12377\"")),
               "curve is \"bls12377\", proofpipe needs \"bls12381\" or \"bn128\"");
  expect_error(read_snarkjs_json_curve(replace(text, "\"groth16\"", "\"plonk\"")), "\"groth16\" only");
  expect_error(read_snarkjs_json_curve("[1]"), "expected a JSON object");
}

}  // namespace
}  // namespace pp::formats
