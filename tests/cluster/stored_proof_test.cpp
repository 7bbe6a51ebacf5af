// stored_proof (src/cluster/stored_proof.hpp): a proof of either curve written as a row stores it and
// read back equal; a row read under the other curve's name, or an unknown one, is an error rather
// than a proof; a job's assembled proof per curve. Proofs of generator points (valid encodings; no
// prover or database needed).
#include "cluster/stored_proof.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "formats/snarkjs_json.hpp"
#include "support/status_matchers.hpp"

namespace pp::cluster {
namespace {

using bls = ec::bls12_381::family;
using bn = ec::bn254::family;

template <class Family>
engine::partition_result proved() {
  engine::basic_curve_proof<Family> p;
  p.proof.a = ec::generator<typename Family::g1_curve>();
  p.proof.b = ec::generator<typename Family::g2_curve>();
  p.proof.c = ec::generator<typename Family::g1_curve>();
  p.public_inputs = {Family::fr::one(), Family::fr::one() + Family::fr::one()};
  engine::partition_result r;
  r.output = p;
  return r;
}

result_row row_of(const partition_output& out, uint32_t part = 0) {
  result_row r;
  r.part = part;
  r.proof = out.proof;
  r.public_json = out.public_json;
  r.curve = out.curve;
  return r;
}

template <class Family>
void expect_round_trip() {
  const engine::partition_result p = proved<Family>();
  const partition_output out = store_proof(p);
  EXPECT_EQ(out.curve, std::string(ec::snarkjs_curve_name(ec::curve_id_of<Family>)));
  auto back = read_stored_proof(row_of(out));
  ASSERT_THAT(back, IsOk());
  const auto* got = std::get_if<engine::basic_curve_proof<Family>>(&*back);
  ASSERT_NE(got, nullptr) << "read back as the other curve";
  const auto& want = *p.as<Family>();
  EXPECT_EQ(got->proof, want.proof);
  EXPECT_EQ(got->public_inputs, want.public_inputs);
}

TEST(StoredProof, Bls12381IsBellpersonBytesAndReadsBack) {
  expect_round_trip<bls>();
  EXPECT_EQ(store_proof(proved<bls>()).proof.size(), 192u);
}

TEST(StoredProof, Bn254IsSnarkjsProofJsonAndReadsBack) {
  expect_round_trip<bn>();
  const partition_output out = store_proof(proved<bn>());
  const std::string json(out.proof.begin(), out.proof.end());
  EXPECT_EQ(json, formats::write_snarkjs_proof_json(proved<bn>().as<bn>()->proof));
  EXPECT_NE(json.find("\"bn128\""), std::string::npos) << json;
}

TEST(StoredProof, ARowUnderTheOtherCurvesNameIsAnErrorNotAProof) {
  result_row bls_as_bn = row_of(store_proof(proved<bls>()));
  bls_as_bn.curve = "bn128";
  EXPECT_THAT(read_stored_proof(bls_as_bn), StatusIs(status_code::invalid_argument));
  result_row bn_as_bls = row_of(store_proof(proved<bn>()));
  bn_as_bls.curve = "bls12381";
  EXPECT_THAT(read_stored_proof(bn_as_bls), StatusIs(status_code::invalid_argument));
  bn_as_bls.curve = "bn254";
  EXPECT_THAT(read_stored_proof(bn_as_bls), StatusIs(status_code::invalid_argument));
}

TEST(StoredProof, AJobsProofPerCurve) {
  std::vector<result_row> bls_rows, bn_rows;
  for (uint32_t p = 0; p < 3; ++p) {
    bls_rows.push_back(row_of(store_proof(proved<bls>()), p));
    bn_rows.push_back(row_of(store_proof(proved<bn>()), p));
  }
  EXPECT_EQ(assemble_job_proof(bls_rows).size(), 3 * 192u);
  const std::vector<uint8_t> bytes = assemble_job_proof(bn_rows);
  const auto doc = nlohmann::json::parse(std::string(bytes.begin(), bytes.end()), nullptr, false);
  ASSERT_TRUE(doc.is_array());
  ASSERT_EQ(doc.size(), 3u);
  for (const auto& proof : doc) EXPECT_THAT(formats::read_snarkjs_proof_json<bn>(proof.dump()), IsOk());
}

}  // namespace
}  // namespace pp::cluster
