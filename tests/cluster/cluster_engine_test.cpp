// cluster_engine in process (a CPU engine under it, a real PostgreSQL: pg_instance.hpp) under the
// faults a node meets: witnesses by path that are FIFOs or far larger than the key allows, a queued
// partition whose shared-directory file is a FIFO, a job whose key no node serves, its own row lost
// from the database, a PostgreSQL restart, a shared directory it cannot write, guessable job ids; a
// BN254 key beside the BLS12-381 one, and witnesses of the other curve than their key's, refused at
// submission or failed by the claimer. Every wait is bounded; a call that would block is unblocked
// by the test before it fails, so a regression fails instead of hanging.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <future>
#include <memory>
#include <string>
#include <thread>

#include "cluster/cluster_engine.hpp"
#include "cluster/job_store.hpp"
#include "cluster/pg_instance.hpp"
#include "cluster/schema.hpp"
#include "formats/circom_wtns.hpp"
#include "formats/key_circuit.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/test_circuits.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/synthetic.hpp"
#include "server/daemon.hpp"
#include "server/daemon_harness.hpp"
#include "support/status_matchers.hpp"

namespace pp::cluster {
namespace {
namespace fs = std::filesystem;
using namespace std::chrono_literals;
using ::testing::AllOf;
using ::testing::HasSubstr;

class ClusterEngine : public ::testing::Test {
 protected:
  void SetUp() override {
    if (test::pg_instance::bin_dir().empty()) GTEST_SKIP() << "PostgreSQL is not installed";
    ASSERT_TRUE(test::shared_pg()) << test::shared_pg_error();
    static std::atomic<int> n{0};
    const std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    conninfo_ = test::shared_pg()->create_database("engine_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    dir_ = fs::temp_directory_path() / ("pp_cluster_engine_" + std::to_string(::getpid()) + "_" + name);
    fs::create_directories(dir_ / "shared");
    r1cs::synthetic_params p;
    p.num_constraints = 64;
    p.num_aux = 64;
    p.num_public = 2;
    auto c = r1cs::make_synthetic(p);
    ASSERT_THAT(c, IsOk());
    zkey_ = dir_ / "k.zkey";
    server::testing::write_insecure_zkey(c->cs, 3, zkey_);
    witness_ = c->w;
    auto bytes = formats::write_circom_wtns(c->w);
    ASSERT_THAT(bytes, IsOk());
    wtns_ = dir_ / "good.wtns";
    std::ofstream(wtns_, std::ios::binary).write(reinterpret_cast<const char*>(bytes->data()),
                                                 static_cast<std::streamsize>(bytes->size()));
  }
  void TearDown() override {
    node_.reset();
    std::error_code ec;
    if (!HasFailure()) fs::remove_all(dir_, ec);
  }

  cluster_config config(const std::string& name) const {
    cluster_config c;
    c.database = conninfo_;
    c.node = name;
    c.lease = 3s;
    c.shared_dir = (dir_ / "shared").string();
    c.claims = 1;
    c.poll = 20ms;
    return c;
  }
  // A node on a CPU engine with key "k" registered.
  std::unique_ptr<cluster_engine> start(const cluster_config& c) {
    auto ec = server::make_engine_config(server::testing::cpu_daemon_config("/unused").engine);
    EXPECT_THAT(ec, IsOk());
    if (!ec.ok()) return nullptr;
    auto local = engine::engine::create(std::move(*ec));
    EXPECT_THAT(local, IsOk());
    if (!local.ok()) return nullptr;
    auto node = cluster_engine::create(std::move(*local), c);
    EXPECT_THAT(node, IsOk());
    if (!node.ok()) return nullptr;
    EXPECT_THAT((*node)->register_key("k", engine::zkey_file_source{zkey_}), IsOk());
    return std::move(*node);
  }
  engine::submit_request by_path(const fs::path& p) const {
    engine::submit_request r;
    r.key_id = "k";
    r.witnesses.push_back(engine::witness_source::file(p));
    return r;
  }
  engine::submit_request in_memory() const {
    engine::submit_request r;
    r.key_id = "k";
    r.witnesses.push_back(engine::witness_source::memory(witness_));
    return r;
  }

  // A one-partition job whose witness row names `path`, as a node with a shared directory stores one.
  result<uint64_t> insert_path_job(const fs::path& path, const std::string& key = "k") const {
    pqxx::connection c(conninfo_);
    apply_migrations(c);
    const new_job j{key, 1, "", 1, "elsewhere"};
    auto r = insert_job(c, j, [&](uint64_t) -> result<std::vector<stored_witness>> {
      stored_witness w;
      w.is_inline = false;
      w.path = path.string();
      w.size = 1000;
      return std::vector<stored_witness>{w};
    });
    if (!r.ok()) return r.error();
    return r->id;
  }

  // A BN254 key of a random circuit, in memory, and a witness satisfying it.
  struct bn254_key {
    engine::bn254::memory_key_source source;
    std::vector<ff::bn254::fr> witness;
  };
  static bn254_key make_bn254_key() {
    using bn = ec::bn254::family;
    uint64_t state = pp::test::test_seed();
    // More variables than the BLS12-381 circuit's, so that its .wtns is within this key's bound.
    auto tc = groth16::testing::random_circuit<bn::fr>(state, 80, 1);
    auto pk = groth16::setup_insecure<bn>(tc.cs, groth16::h_basis::odd_coset_lagrange,
                                          groth16::toxic_waste_from_seed_insecure<bn::fr>(state));
    EXPECT_THAT(pk, IsOk());
    if (!pk.ok()) return {};
    return {{std::make_shared<const groth16::bn254::proving_key>(std::move(*pk)),
             std::make_shared<const r1cs::bn254::constraint_system>(std::move(tc.cs))},
            std::move(tc.w)};
  }

  std::string conninfo_;
  fs::path dir_, zkey_, wtns_;
  std::vector<ff::fr> witness_;
  std::unique_ptr<cluster_engine> node_;
};

// Opens the FIFO for writing and closes it: a reader blocked in open(2) or read(2) then sees EOF.
void unblock(const fs::path& fifo) {
  const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
  if (fd >= 0) ::close(fd);
}

TEST_F(ClusterEngine, AWitnessByPathThatIsAFifoIsRefusedWithoutBlocking) {
  node_ = start(config("n1"));
  ASSERT_TRUE(node_);
  const fs::path fifo = dir_ / "w.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto submitted = std::async(std::launch::async, [&] { return node_->submit(by_path(fifo)); });
  if (submitted.wait_for(20s) != std::future_status::ready) {
    for (int i = 0; i < 100 && submitted.wait_for(100ms) != std::future_status::ready; ++i) unblock(fifo);
    FAIL() << "submit blocked on a FIFO";
  }
  EXPECT_THAT(submitted.get(), StatusIs(status_code::invalid_argument, HasSubstr("is a FIFO")));
}

// A BN254 key beside the BLS12-381 one, held in memory: the node proves its jobs, verifying them
// with the in-memory key's verifying key, and answers them as BN254 proofs.
TEST_F(ClusterEngine, ABn254KeyInMemoryIsProvedBesideTheBls12381One) {
  node_ = start(config("n1"));
  ASSERT_TRUE(node_);
  const bn254_key bn = make_bn254_key();
  ASSERT_THAT(node_->register_key("bn", bn.source), IsOk());
  engine::submit_request req;
  req.key_id = "bn";
  for (int p = 0; p < 2; ++p) req.witnesses.push_back(engine::witness_source::memory(bn.witness));
  auto id = node_->submit(std::move(req));
  ASSERT_THAT(id, IsOk());
  auto r = node_->await(*id, engine::deadline_in(60s));
  ASSERT_THAT(r, IsOk());
  ASSERT_EQ(r->state, engine::job_state::succeeded) << r->error.to_string();
  ASSERT_EQ(r->partitions.size(), 2u);
  for (const engine::partition_result& p : r->partitions) {
    const auto* proved = p.as<ec::bn254::family>();
    ASSERT_NE(proved, nullptr) << "not a BN254 proof";
    EXPECT_THAT(groth16::verify(bn.source.pk->vk, proved->public_inputs, proved->proof), IsOk());
  }
  auto bls = node_->submit(in_memory());
  ASSERT_THAT(bls, IsOk());
  auto b = node_->await(*bls, engine::deadline_in(60s));
  ASSERT_THAT(b, IsOk());
  ASSERT_EQ(b->state, engine::job_state::succeeded) << b->error.to_string();
  EXPECT_NE(b->partitions.front().as<ec::bls12_381::family>(), nullptr);
}

// A witness of the other curve than its key's is refused at submission, naming both curves, whether
// in memory or by path.
TEST_F(ClusterEngine, AWitnessOfTheOtherCurveIsRefusedNamingBoth) {
  node_ = start(config("n1"));
  ASSERT_TRUE(node_);
  const bn254_key bn = make_bn254_key();
  ASSERT_THAT(node_->register_key("bn", bn.source), IsOk());
  engine::submit_request bn_for_bls;
  bn_for_bls.key_id = "k";
  bn_for_bls.witnesses.push_back(engine::witness_source::memory(bn.witness));
  EXPECT_THAT(node_->submit(std::move(bn_for_bls)),
              StatusIs(status_code::invalid_argument, AllOf(HasSubstr("the witness holds BN254 (bn128) values"),
                                                            HasSubstr("is for BLS12-381 (bls12381)"))));
  engine::submit_request bls_for_bn = by_path(wtns_);
  bls_for_bn.key_id = "bn";
  EXPECT_THAT(node_->submit(std::move(bls_for_bn)),
              StatusIs(status_code::invalid_argument, AllOf(HasSubstr("the witness holds BLS12-381 (bls12381) values"),
                                                            HasSubstr("is for BN254 (bn128)"))));
}

// A queued partition whose witness is of the other curve than the claiming node's key (another node
// holds a key of that curve under the same id) fails on the proving node, naming both curves.
TEST_F(ClusterEngine, AQueuedWitnessOfTheOtherCurveFailsNamingBoth) {
  const bn254_key bn = make_bn254_key();
  auto bytes = formats::write_circom_wtns(bn.witness);
  ASSERT_THAT(bytes, IsOk());
  pqxx::connection c(conninfo_);
  apply_migrations(c);
  auto job = insert_job(c, new_job{"k", 1, "", 1, "elsewhere", "bn128"}, [&](uint64_t id) -> result<std::vector<stored_witness>> {
    auto w = witness_store("", 1 << 20).put(id, 0, *bytes);
    if (!w.ok()) return w.error();
    return std::vector<stored_witness>{*w};
  });
  ASSERT_THAT(job, IsOk());
  node_ = start(config("n1"));
  ASSERT_TRUE(node_);
  auto r = node_->await(job->id, engine::deadline_in(30s));
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->state, engine::job_state::failed);
  EXPECT_THAT(r->error.message(), AllOf(HasSubstr("BN254 (bn128)"), HasSubstr("BLS12-381 (bls12381)")));
}

TEST_F(ClusterEngine, AWitnessByPathLargerThanTheKeyAllowsIsRefusedUnread) {
  node_ = start(config("n1"));
  ASSERT_TRUE(node_);
  const fs::path big = dir_ / "big.wtns";
  fs::copy_file(wtns_, big);
  fs::resize_file(big, uint64_t{1} << 30);  // sparse: no disk used, and never read
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_THAT(node_->submit(by_path(big)), StatusIs(status_code::invalid_argument, HasSubstr("larger than a .wtns")));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 10s);
  // The right file by path proves.
  auto id = node_->submit(by_path(wtns_));
  ASSERT_THAT(id, IsOk());
  auto r = node_->await(*id, engine::deadline_in(120s));
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->state, engine::job_state::succeeded) << r->error.to_string();
}

// A partition row whose witness file (in the shared directory, or any path a row names) is a FIFO:
// the claimer that takes it fails it at once and goes on; the node's only claimer proves the next job.
TEST_F(ClusterEngine, AQueuedWitnessFileThatIsAFifoDoesNotStallTheClaimer) {
  const fs::path fifo = dir_ / "shared" / "row.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto fifo_job = insert_path_job(fifo);
  ASSERT_THAT(fifo_job, IsOk());
  node_ = start(config("n1"));
  ASSERT_TRUE(node_);
  auto good = node_->submit(in_memory());
  ASSERT_THAT(good, IsOk());
  auto r = node_->await(*good, engine::deadline_in(60s));
  if (!r.ok() || r->state != engine::job_state::succeeded) {
    for (int i = 0; i < 50; ++i) unblock(fifo);
  }
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->state, engine::job_state::succeeded) << r->error.to_string();
  auto bad = node_->await(*fifo_job, engine::deadline_in(30s));
  ASSERT_THAT(bad, IsOk());
  EXPECT_EQ(bad->state, engine::job_state::failed);
  EXPECT_THAT(bad->error.message(), HasSubstr("is a FIFO"));
}

// A job whose key no node serves: here a key only a dead node ever listed. It fails with
// FAILED_PRECONDITION once cluster.unserved_job_s has passed, instead of staying queued for ever.
TEST_F(ClusterEngine, AJobWhoseKeyNoNodeServesFails) {
  cluster_config c = config("n1");
  c.unserved_job = 2s;
  node_ = start(c);
  ASSERT_TRUE(node_);
  pqxx::connection db(conninfo_);
  {
    pqxx::work w(db);
    w.exec("INSERT INTO pp_nodes (name, lease_s, keys, heartbeat_at, serving_at) "
           "VALUES ('ghost', 3, '{orphan}', now() - interval '1 hour', now() - interval '1 hour')");
    w.commit();
  }
  auto orphan = insert_path_job(dir_ / "shared" / "never-read.wtns", "orphan");
  ASSERT_THAT(orphan, IsOk());
  auto r = node_->await(*orphan, engine::deadline_in(30s));
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->state, engine::job_state::failed);
  EXPECT_EQ(r->error.code(), status_code::failed_precondition) << r->error.to_string();
  EXPECT_THAT(r->error.message(), HasSubstr("\"orphan\" is held by no node"));
  // And a new job for it is refused at once: no live node holds the key.
  engine::submit_request req = in_memory();
  req.key_id = "orphan";
  EXPECT_THAT(node_->submit(std::move(req)), StatusIs(status_code::not_found, HasSubstr("no live node")));
}

// Witness files of a job that ended while their remover was gone (a node killed after ending the
// job, before deleting them) are deleted by a later heartbeat; a running job's and a folder that is
// not a job's stay.
TEST_F(ClusterEngine, WitnessFilesOfAnEndedJobLeftBehindAreDeletedByTheHeartbeat) {
  auto ended = insert_path_job(dir_ / "shared" / "0" / "0.wtns", "elsewhere-key");
  auto running = insert_path_job(dir_ / "shared" / "1" / "0.wtns", "elsewhere-key");
  ASSERT_THAT(ended, IsOk());
  ASSERT_THAT(running, IsOk());
  for (const uint64_t job : {*ended, *running}) {
    fs::create_directories(dir_ / "shared" / std::to_string(job));
    std::ofstream(dir_ / "shared" / std::to_string(job) / "0.wtns") << "w";
  }
  fs::create_directories(dir_ / "shared" / "not-a-job");
  {
    pqxx::connection db(conninfo_);
    ASSERT_EQ(cancel_job(db, *ended, "ended while no node removed its files"), "cancelled");
  }
  cluster_config c = config("n1");
  node_ = start(c);
  ASSERT_TRUE(node_);
  const fs::path gone = dir_ / "shared" / std::to_string(*ended);
  for (int i = 0; i < 300 && fs::exists(gone); ++i) std::this_thread::sleep_for(20ms);
  EXPECT_FALSE(fs::exists(gone)) << "an ended job's witness folder outlived " << 300 * 20 << " ms of heartbeats";
  EXPECT_TRUE(fs::exists(dir_ / "shared" / std::to_string(*running) / "0.wtns"));
  EXPECT_TRUE(fs::exists(dir_ / "shared" / "not-a-job"));
}

// The node's row lost with the database (a restore from a backup, a truncated table) comes back
// with its keys at the next heartbeat, so other nodes send it work again.
TEST_F(ClusterEngine, ANodeRowLostFromTheDatabaseComesBackWithItsKeys) {
  node_ = start(config("n1"));
  ASSERT_TRUE(node_);
  pqxx::connection db(conninfo_);
  {
    pqxx::work w(db);
    w.exec("DELETE FROM pp_nodes");
    w.commit();
  }
  bool back = false;
  for (int i = 0; i < 100 && !back; ++i) {
    std::this_thread::sleep_for(100ms);
    pqxx::read_transaction t(db);
    back = !t.exec("SELECT 1 FROM pp_nodes WHERE name = 'n1' AND 'k' = ANY(keys)").empty();
  }
  EXPECT_TRUE(back) << "the node's row did not come back within 10 s";
}

// PostgreSQL restarted under a running node: the next calls (each on a pooled connection the
// restart cut) succeed, on new connections, instead of failing once each.
TEST_F(ClusterEngine, APostgresRestartCostsNoCallAnError) {
  node_ = start(config("n1"));
  ASSERT_TRUE(node_);
  auto before = node_->submit(in_memory());
  ASSERT_THAT(before, IsOk());
  ASSERT_THAT(node_->await(*before, engine::deadline_in(60s)), IsOk());
  ASSERT_TRUE(test::shared_pg()->restart());
  auto after = node_->submit(in_memory());
  ASSERT_THAT(after, IsOk());
  auto r = node_->await(*after, engine::deadline_in(60s));
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->state, engine::job_state::succeeded) << r->error.to_string();
  EXPECT_THAT(node_->await(*before, engine::deadline_in(10s)), IsOk());
}

// A shared directory the node cannot write stops it at start, naming the knob.
TEST_F(ClusterEngine, ASharedDirectoryThatIsNotAWritableDirectoryStopsTheStart) {
  auto ec = server::make_engine_config(server::testing::cpu_daemon_config("/unused").engine);
  ASSERT_THAT(ec, IsOk());
  auto local = engine::engine::create(std::move(*ec));
  ASSERT_THAT(local, IsOk());
  cluster_config c = config("n1");
  c.shared_dir = (dir_ / "missing").string();
  EXPECT_THAT(cluster_engine::create(std::move(*local), c),
              StatusIs(status_code::failed_precondition, HasSubstr("cluster.shared_dir")));
}

TEST_F(ClusterEngine, JobIdsAreRandomNotASequence) {
  node_ = start(config("n1"));
  ASSERT_TRUE(node_);
  auto a = node_->submit(in_memory());
  auto b = node_->submit(in_memory());
  ASSERT_THAT(a, IsOk());
  ASSERT_THAT(b, IsOk());
  // Two draws of 53 random bits: both below 2^32 or one after the other is a 1-in-2^21 accident.
  EXPECT_FALSE(*a < (uint64_t{1} << 32) && *b < (uint64_t{1} << 32)) << *a << " " << *b;
  EXPECT_NE(*b, *a + 1);
}

}  // namespace
}  // namespace pp::cluster
