// snarkjs JSON readers/writers on random keys and proofs: round trips, snarkjs's exact formatting
// (infinity encodings, bfj's empty array), and malformed inputs with their messages.
#include "formats/snarkjs_json.hpp"

#include <gtest/gtest.h>

#include "ec/ec_test_util.hpp"
#include "ff/field_bytes.hpp"
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
  EXPECT_EQ(write_snarkjs_public_json({}), "[\n]");  // bfj, unlike JSON.stringify
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
  expect_error(read_snarkjs_proof_json(replace(good, "\"bls12381\"", "\"bn128\"")), "is for BN254 (bn128)");
  expect_error(read_snarkjs_proof_json(replace(good, "\"bls12381\"", "\"bls12377\"")), "needs \"bls12381\"");
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

}  // namespace
}  // namespace pp::formats
