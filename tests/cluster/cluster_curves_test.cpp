// Two cluster nodes (in-process daemons, CPU engines, one PostgreSQL: pg_instance.hpp) serving a
// BN254 (circom's bn128) key beside a BLS12-381 one, through gRPC as clients see them. Each key is
// held by one node and submitted through the other, so the proving node is never the submitting one,
// then one key held by both proves a job of several partitions. Every proof is checked as
// tests/server/daemon_curves_test.cpp checks the single-host daemon's: with its curve's verifier,
// from the snarkjs JSON returned, raw bellperson bytes only for BLS12-381. The rows name their
// curve; a witness of the other curve is refused naming both, whichever node takes it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "cluster/pg_instance.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/verifier.hpp"
#include "server/client.hpp"
#include "server/daemon.hpp"
#include "server/daemon_harness.hpp"
#include "support/files.hpp"
#include "support/curve_zkey_fixture.hpp"
#include "support/status_matchers.hpp"

namespace pp::cluster {
namespace {
namespace fs = std::filesystem;
namespace pb = proofpipe::v1;
using namespace std::chrono_literals;
using bls = ec::bls12_381::family;
using bn = ec::bn254::family;

using pp::test::curve_zkey;
using pp::test::make_curve_zkey;

// Every partition of a succeeded answer verifies with vk, read from the JSON the daemon returns.
template <class Family>
void expect_verifies(const pb::AwaitProofResponse& r, int partitions, const groth16::basic_verifying_key<Family>& vk) {
  ASSERT_EQ(r.state(), pb::JOB_STATE_SUCCEEDED) << r.error().message();
  ASSERT_EQ(r.proofs_size(), partitions);
  for (const pb::PartitionProof& p : r.proofs()) {
    auto proof = formats::read_snarkjs_proof_json<Family>(p.proof_json());
    ASSERT_THAT(proof, IsOk());
    auto pub = formats::read_snarkjs_public_json<typename Family::fr>(p.public_json());
    ASSERT_THAT(pub, IsOk());
    EXPECT_THAT(groth16::verify(vk, *pub, *proof), IsOk()) << "proved on " << p.device();
    EXPECT_EQ(p.raw().size(), ec::curve_id_of<Family> == ec::curve_id::bls12_381 ? 192u : 0u)
        << "bellperson bytes for BLS12-381 only";
  }
}

pb::SubmitProofRequest job(const std::string& key, const std::string& wtns, int partitions) {
  pb::SubmitProofRequest r;
  r.set_key_id(key);
  for (int p = 0; p < partitions; ++p) r.add_witnesses()->set_wtns(wtns);
  return r;
}

class ClusterCurves : public ::testing::Test {
 protected:
  void SetUp() override {
    if (test::pg_instance::bin_dir().empty()) GTEST_SKIP() << "PostgreSQL is not installed";
    ASSERT_TRUE(test::shared_pg()) << test::shared_pg_error();
    static std::atomic<int> n{0};
    conninfo_ = test::shared_pg()->create_database("curves_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    dir_ = pp::test::binary_temp_dir("cluster_curves");
    bn_ = make_curve_zkey<bn>(dir_ / "bn.zkey", 1);
    bls_ = make_curve_zkey<bls>(dir_ / "bls.zkey", 2);
  }
  void TearDown() override {
    for (auto& d : daemons_) {
      d->stop(false);
      EXPECT_THAT(d->wait(), IsOk());
    }
  }

  // A node named `name` holding `keys` (ids "bn", "bls"); its client.
  std::unique_ptr<server::client> start(const std::string& name, const std::vector<std::string>& keys) {
    const fs::path socket = server::testing::temp_socket(name);
    server::server_config cfg = server::testing::cpu_daemon_config(socket);
    cfg.server.drain_timeout_s = 30;
    for (const std::string& k : keys) {
      cfg.keys.push_back({.id = k, .zkey = (k == "bn" ? bn_.zkey : bls_.zkey).string()});
    }
    cfg.cluster.enabled = true;
    cfg.cluster.config.database = conninfo_;
    cfg.cluster.config.node = name;
    cfg.cluster.config.lease = 3s;
    cfg.cluster.config.poll = 20ms;
    auto d = server::daemon::start(cfg);
    EXPECT_THAT(d, IsOk());
    if (!d.ok()) return nullptr;
    daemons_.push_back(std::move(*d));
    auto c = server::client::connect(server::testing::unix_options(socket));
    EXPECT_THAT(c, IsOk());
    return c.ok() ? std::make_unique<server::client>(std::move(*c)) : nullptr;
  }

  // Submits through `via`, awaits through `at` (up to 60 s).
  pb::AwaitProofResponse run(const server::client& via, const server::client& at, const pb::SubmitProofRequest& req) {
    pb::SubmitProofResponse sub;
    const grpc::Status s = via.stub().SubmitProof(via.context(30s).get(), req, &sub);
    EXPECT_TRUE(s.ok()) << s.error_code() << " " << s.error_message();
    pb::AwaitProofRequest aw;
    aw.set_job_id(sub.job_id());
    aw.set_timeout_ms(60000);
    pb::AwaitProofResponse out;
    const grpc::Status a = at.stub().AwaitProof(at.context(90s).get(), aw, &out);
    EXPECT_TRUE(a.ok()) << a.error_code() << " " << a.error_message();
    return out;
  }

  std::string scalar(const std::string& sql) const {
    pqxx::connection c(conninfo_);
    pqxx::nontransaction t(c);
    return t.exec1(sql)[0].as<std::string>();
  }

  std::string conninfo_;
  fs::path dir_;
  curve_zkey<bn> bn_;
  curve_zkey<bls> bls_;
  std::vector<std::unique_ptr<server::daemon>> daemons_;
};

TEST_F(ClusterCurves, EachCurveIsProvedOnTheNodeHoldingItsKeyAndAnsweredByTheOther) {
  auto a = start("a", {"bls"});
  auto b = start("b", {"bn"});
  ASSERT_TRUE(a && b);
  // "bn" submitted to a, which does not hold it: proved on b, stored, read back and answered on a.
  const pb::AwaitProofResponse bn_resp = run(*a, *a, job("bn", bn_.wtns, 3));
  expect_verifies(bn_resp, 3, bn_.vk);
  for (const pb::PartitionProof& p : bn_resp.proofs()) {
    EXPECT_EQ(p.device().rfind("b/", 0), 0u) << p.device();
    EXPECT_NE(p.proof_json().find("\"bn128\""), std::string::npos) << p.proof_json();
  }
  const std::string bn_job = std::to_string(bn_resp.job_id());
  EXPECT_EQ(scalar("SELECT curve FROM pp_jobs WHERE id = " + bn_job), "bn128");
  EXPECT_EQ(scalar("SELECT string_agg(DISTINCT curve, ',') FROM pp_results WHERE job_id = " + bn_job), "bn128");
  // The job's proof: the partitions' proof.json documents as one JSON array.
  const auto assembled =
      nlohmann::json::parse(scalar("SELECT convert_from(proof, 'UTF8') FROM pp_jobs WHERE id = " + bn_job), nullptr, false);
  ASSERT_TRUE(assembled.is_array());
  ASSERT_EQ(assembled.size(), 3u);
  EXPECT_THAT(formats::read_snarkjs_proof_json<bn>(assembled[2].dump()), IsOk());

  // "bls" submitted to b, which does not hold it: proved on a, answered on b.
  const pb::AwaitProofResponse bls_resp = run(*b, *b, job("bls", bls_.wtns, 2));
  expect_verifies(bls_resp, 2, bls_.vk);
  for (const pb::PartitionProof& p : bls_resp.proofs()) EXPECT_EQ(p.device().rfind("a/", 0), 0u) << p.device();
  const std::string bls_job = std::to_string(bls_resp.job_id());
  EXPECT_EQ(scalar("SELECT curve FROM pp_jobs WHERE id = " + bls_job), "bls12381");
  EXPECT_EQ(scalar("SELECT length(proof) FROM pp_jobs WHERE id = " + bls_job), std::to_string(2 * 192));
}

TEST_F(ClusterCurves, ABn254KeyOnBothNodesProvesAJobOfManyPartitions) {
  auto a = start("a", {"bn", "bls"});
  auto b = start("b", {"bn"});
  ASSERT_TRUE(a && b);
  const pb::AwaitProofResponse r = run(*a, *b, job("bn", bn_.wtns, 8));
  expect_verifies(r, 8, bn_.vk);
  EXPECT_EQ(scalar("SELECT count(*) FROM pp_results WHERE curve = 'bn128' AND job_id = " + std::to_string(r.job_id())),
            "8");
  expect_verifies(run(*b, *a, job("bls", bls_.wtns, 2)), 2, bls_.vk);
}

TEST_F(ClusterCurves, AWitnessOfTheOtherCurveIsRefusedNamingBothOnEitherNode) {
  auto a = start("a", {"bls"});
  auto b = start("b", {"bn"});
  ASSERT_TRUE(a && b);
  // Each node, for the key it holds (its own key's curve) and the key it does not (the curve the
  // holder publishes).
  for (server::client* c : {a.get(), b.get()}) {
    for (const auto& [key, wtns] : {std::pair<std::string, std::string>{"bn", bls_.wtns}, {"bls", bn_.wtns}}) {
      pb::SubmitProofResponse sub;
      const grpc::Status s = c->stub().SubmitProof(c->context(30s).get(), job(key, wtns, 1), &sub);
      ASSERT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << key << ": " << s.error_message();
      EXPECT_NE(s.error_message().find("BN254 (bn128)"), std::string::npos) << s.error_message();
      EXPECT_NE(s.error_message().find("BLS12-381 (bls12381)"), std::string::npos) << s.error_message();
    }
  }
  // A job's witnesses are of one curve.
  pb::SubmitProofRequest mixed = job("bn", bn_.wtns, 1);
  mixed.add_witnesses()->set_wtns(bls_.wtns);
  pb::SubmitProofResponse sub;
  const grpc::Status s = b->stub().SubmitProof(b->context(30s).get(), mixed, &sub);
  ASSERT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
  EXPECT_NE(s.error_message().find("witnesses[1]"), std::string::npos) << s.error_message();
  EXPECT_EQ(scalar("SELECT count(*) FROM pp_jobs"), "0");
}

}  // namespace
}  // namespace pp::cluster
