// The daemon serving a BN254 (circom's bn128) key beside a BLS12-381 one, in-process with the CPU
// backend: the BN254 zkey from the config, the BLS12-381 one registered at run time, random
// circuits (fresh each run); each proof checked with its curve's verifier from the snarkjs JSON
// the daemon returns; raw bellperson bytes only for BLS12-381; each key's curve in RegisterKey's
// answer and the status document; a witness of the other curve refused naming both.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "formats/snarkjs_json.hpp"
#include "groth16/verifier.hpp"
#include "server/daemon_harness.hpp"
#include "support/files.hpp"
#include "support/curve_zkey_fixture.hpp"
#include "support/status_matchers.hpp"

namespace pp::server {
namespace {
namespace fs = std::filesystem;
namespace pb = proofpipe::v1;
using namespace std::chrono_literals;
using bls = ec::bls12_381::family;
using bn = ec::bn254::family;

using pp::test::curve_zkey;
using pp::test::make_curve_zkey;

pb::SubmitProofRequest submit(const std::string& key, const std::string& wtns) {
  pb::SubmitProofRequest req;
  req.set_key_id(key);
  req.add_witnesses()->set_wtns(wtns);
  return req;
}

template <class Family>
void expect_verifies(const pb::AwaitProofResponse& r, const groth16::basic_verifying_key<Family>& vk) {
  ASSERT_EQ(r.state(), pb::JOB_STATE_SUCCEEDED) << r.error().message();
  ASSERT_EQ(r.proofs_size(), 1);
  auto proof = formats::read_snarkjs_proof_json<Family>(r.proofs(0).proof_json());
  ASSERT_THAT(proof, IsOk());
  auto pub = formats::read_snarkjs_public_json<typename Family::fr>(r.proofs(0).public_json());
  ASSERT_THAT(pub, IsOk());
  EXPECT_THAT(groth16::verify(vk, *pub, *proof), IsOk());
}

class DaemonCurves : public testing::daemon_fixture {
 protected:
  void SetUp() override {
    daemon_fixture::SetUp();
    bn_ = make_curve_zkey<bn>(test::binary_temp_dir("server_curves") / "bn.zkey", 1);
    bls_ = make_curve_zkey<bls>(test::binary_temp_dir("server_curves") / "bls.zkey", 2);
    cfg_.keys.push_back({.id = "bn", .zkey = bn_.zkey.string()});
    start_daemon();
  }

  curve_zkey<bn> bn_;
  curve_zkey<bls> bls_;
};

TEST_F(DaemonCurves, ServesBn254BesideBls12381WithEachCurveInStatus) {
  pb::RegisterKeyRequest reg;
  reg.set_key_id("bls");
  reg.set_zkey_path(bls_.zkey.string());
  pb::RegisterKeyResponse reg_resp;
  const grpc::Status rs = client_->stub().RegisterKey(client_->context(30s).get(), reg, &reg_resp);
  ASSERT_TRUE(rs.ok()) << rs.error_message();
  EXPECT_EQ(reg_resp.curve(), "bls12381");

  pb::AwaitProofResponse bn_resp, bls_resp;
  const grpc::Status s1 = prove(submit("bn", bn_.wtns), &bn_resp);
  ASSERT_TRUE(s1.ok()) << s1.error_code() << " " << s1.error_message();
  expect_verifies(bn_resp, bn_.vk);
  EXPECT_TRUE(bn_resp.proofs(0).raw().empty()) << "bellperson has no BN254 encoding";
  EXPECT_NE(bn_resp.proofs(0).proof_json().find("bn128"), std::string::npos) << bn_resp.proofs(0).proof_json();
  const grpc::Status s2 = prove(submit("bls", bls_.wtns), &bls_resp);
  ASSERT_TRUE(s2.ok()) << s2.error_code() << " " << s2.error_message();
  expect_verifies(bls_resp, bls_.vk);
  EXPECT_EQ(bls_resp.proofs(0).raw().size(), 192u);

  pb::GetStatusResponse st;
  ASSERT_TRUE(client_->stub().GetStatus(client_->context(10s).get(), {}, &st).ok());
  const auto j = nlohmann::json::parse(st.engine_json(), nullptr, false);
  ASSERT_FALSE(j.is_discarded()) << st.engine_json();
  std::map<std::string, std::string> curves;
  for (const auto& k : j["keys"]) curves[k["id"].get<std::string>()] = k["curve"].get<std::string>();
  EXPECT_EQ(curves["bn"], "bn128") << st.engine_json();
  EXPECT_EQ(curves["bls"], "bls12381") << st.engine_json();
  ASSERT_FALSE(j["devices"].empty());
  EXPECT_EQ(j["devices"][0]["curves"], nlohmann::json::array({"bls12381", "bn128"})) << "the CPU proves both";
}

TEST_F(DaemonCurves, AWitnessOfTheOtherCurveIsRefusedNamingBoth) {
  pb::AwaitProofResponse resp;
  const grpc::Status s = prove(submit("bn", bls_.wtns), &resp);
  ASSERT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
  EXPECT_NE(s.error_message().find("BN254"), std::string::npos) << s.error_message();
  EXPECT_NE(s.error_message().find("BLS12-381"), std::string::npos) << s.error_message();
}

}  // namespace
}  // namespace pp::server
