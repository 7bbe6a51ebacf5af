// The cluster's database layer against a real PostgreSQL (pg_instance.hpp): migrations (an older
// database gaining the curve columns), the job store, the partition claimer (priority order, SKIP
// LOCKED, leases, write-once results, assembly by the last writer, failures on several nodes), the
// witness store and node-labelled metrics. Each test gets a fresh database.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <set>
#include <mutex>
#include <thread>

#include <nlohmann/json.hpp>

#include "cluster/cluster_status.hpp"
#include "cluster/db_session.hpp"
#include "cluster/job_store.hpp"
#include "cluster/node_metrics.hpp"
#include "cluster/node_registry.hpp"
#include "cluster/partition_claimer.hpp"
#include "cluster/schema.hpp"
#include "cluster/pg_instance.hpp"
#include "support/status_matchers.hpp"

namespace pp::cluster {
namespace {

using ::testing::Not;
using namespace std::chrono_literals;

test::pg_instance* server() { return test::shared_pg().get(); }

// A node report listing one key (witnesses up to 1 MiB).
node_report holding(const std::string& key) {
  node_report r;
  r.keys[key] = 1 << 20;
  return r;
}

class ClusterStore : public ::testing::Test {
 protected:
  void SetUp() override {
    if (test::pg_instance::bin_dir().empty()) GTEST_SKIP() << "PostgreSQL is not installed";
    ASSERT_TRUE(server()) << test::shared_pg_error();
    static std::atomic<int> n{0};
    conninfo_ = server()->create_database("store_" + std::to_string(::getpid()) + "_" + std::to_string(n++));
    conn_ = std::make_unique<pqxx::connection>(conninfo_);
    apply_migrations(*conn_);
  }

  // A job of `parts` inline witnesses ("w<job>/<part>" as bytes).
  uint64_t add_job(int priority, uint32_t parts, const std::string& key = "k", const std::string& idem = "") {
    new_job j{key, priority, idem, parts, "submitter"};
    auto r = insert_job(*conn_, j, [&](uint64_t id) -> result<std::vector<stored_witness>> {
      std::vector<stored_witness> out;
      witness_store inline_only("", 1 << 20);
      for (uint32_t p = 0; p < parts; ++p) {
        const std::string text = "w" + std::to_string(id) + "/" + std::to_string(p);
        auto w = inline_only.put(id, p, std::span(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
        if (!w.ok()) return w.error();
        out.push_back(*w);
      }
      return out;
    });
    EXPECT_THAT(r, IsOk());
    return r.ok() ? r->id : 0;
  }

  std::optional<claim> take(const std::string& node, const std::string& keys = "{k}", std::chrono::seconds lease = 30s) {
    return claim_next(*conn_, node, keys, lease);
  }

  int64_t scalar(const std::string& sql) {
    pqxx::nontransaction n(*conn_);
    return n.exec1(sql)[0].as<int64_t>();
  }

  static partition_output output(uint8_t tag) { return {std::vector<uint8_t>(192, tag), "[\"1\"]", "cpu0"}; }
  static status accept(const std::vector<result_row>&) { return ok_status(); }

  std::string conninfo_;
  std::unique_ptr<pqxx::connection> conn_;
};

TEST_F(ClusterStore, MigrationsAreVersionedAndIdempotent) {
  EXPECT_EQ(apply_migrations(*conn_), migrations().back().version);
  EXPECT_EQ(apply_migrations(*conn_), migrations().back().version);
  EXPECT_EQ(scalar("SELECT count(*) FROM pp_schema_migrations"), static_cast<int64_t>(migrations().size()));
  // Nodes starting together: each applies or finds the schema, none fails.
  std::vector<std::thread> ts;
  std::atomic<int> ok{0};
  for (int i = 0; i < 4; ++i) {
    ts.emplace_back([&] {
      pqxx::connection c(conninfo_);
      if (apply_migrations(c) == migrations().back().version) ++ok;
    });
  }
  for (auto& t : ts) t.join();
  EXPECT_EQ(ok.load(), 4);
}

// A database of nodes from before migration 3 (which stored BLS12-381 proofs only): migrating it
// names its jobs' and results' curve bls12381, and its results read back as before.
TEST_F(ClusterStore, AnOlderDatabaseGainsCurvesNamingItsRowsBls12381) {
  static std::atomic<int> n{0};
  pqxx::connection c(server()->create_database("store_v2_" + std::to_string(::getpid()) + "_" + std::to_string(n++)));
  {
    pqxx::work w(c);
    w.exec("CREATE TABLE pp_schema_migrations (version integer PRIMARY KEY, description text NOT NULL, "
           "applied_at timestamptz NOT NULL DEFAULT now())");
    for (const migration& m : migrations().first(2)) {
      w.exec(std::string(m.sql));
      w.exec_params("INSERT INTO pp_schema_migrations (version, description) VALUES ($1, $2)", m.version,
                    std::string(m.description));
    }
    w.exec("INSERT INTO pp_jobs (id, key_id, priority, num_partitions, submitted_by, state, proof) "
           "VALUES (7, 'k', 1, 1, 'old', 'succeeded', decode('01', 'hex'))");
    w.exec("INSERT INTO pp_partitions (job_id, part, priority, key_id, state, witness_inline, witness_bytes) "
           "VALUES (7, 0, 1, 'k', 'done', decode('00', 'hex'), 1)");
    w.exec("INSERT INTO pp_results (job_id, part, proof, public_json, node, device) "
           "VALUES (7, 0, decode('01', 'hex'), '[]', 'old', 'cpu0')");
    w.commit();
  }
  EXPECT_EQ(apply_migrations(c), migrations().back().version);
  pqxx::nontransaction t(c);
  EXPECT_EQ(t.exec1("SELECT curve FROM pp_jobs WHERE id = 7")[0].as<std::string>(), "bls12381");
  t.commit();
  const auto rows = load_results(c, 7);
  ASSERT_EQ(rows.size(), 1u);
  EXPECT_EQ(rows[0].curve, "bls12381");
  EXPECT_EQ(rows[0].proof, std::vector<uint8_t>{1});
}

TEST_F(ClusterStore, ClaimsInPriorityThenJobThenPartitionOrder) {
  const uint64_t low = add_job(0, 1);
  const uint64_t normal = add_job(1, 2);
  const uint64_t critical = add_job(3, 2);
  const uint64_t other_key = add_job(3, 1, "other");
  std::vector<std::pair<uint64_t, uint32_t>> order;
  while (auto c = take("n1")) order.emplace_back(c->job, c->part);
  const std::vector<std::pair<uint64_t, uint32_t>> want = {{critical, 0}, {critical, 1}, {normal, 0}, {normal, 1}, {low, 0}};
  EXPECT_EQ(order, want);
  // Only keys this node has: "other" is still queued.
  EXPECT_EQ(scalar("SELECT count(*) FROM pp_partitions WHERE state = 'queued' AND job_id = " + std::to_string(other_key)), 1);
  auto c = take("n1", "{k,other}");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->job, other_key);
  EXPECT_EQ(c->claims, 1u);
  EXPECT_EQ(c->num_partitions, 1u);
  ASSERT_TRUE(c->witness.is_inline);
  auto bytes = witness_store::get(c->witness, {});
  ASSERT_THAT(bytes, IsOk());
  EXPECT_EQ(std::string(bytes->begin(), bytes->end()), "w" + std::to_string(other_key) + "/0");
}

TEST_F(ClusterStore, SkipLockedNeverHandsOneRowToTwoClaimers) {
  const uint64_t a = add_job(1, 1);
  const uint64_t b = add_job(1, 1);
  // Another transaction holds job a's row locked: a claimer skips it rather than waiting.
  pqxx::connection other(conninfo_);
  pqxx::work hold(other);
  hold.exec("SELECT 1 FROM pp_partitions WHERE job_id = " + std::to_string(a) + " FOR UPDATE");
  auto c = take("n1");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->job, b);
  EXPECT_FALSE(take("n1"));
  hold.abort();
  // Many claimers at once over many partitions: each partition claimed exactly once.
  for (int i = 0; i < 40; ++i) add_job(1, 5);
  std::mutex mu;  // guards seen
  std::multiset<std::pair<uint64_t, uint32_t>> seen;
  std::vector<std::thread> ts;
  for (int t = 0; t < 6; ++t) {
    ts.emplace_back([&, t] {
      pqxx::connection cc(conninfo_);
      while (auto got = claim_next(cc, "n" + std::to_string(t), "{k}", 30s)) {
        std::lock_guard lock(mu);
        seen.emplace(got->job, got->part);
      }
    });
  }
  for (auto& t : ts) t.join();
  EXPECT_EQ(seen.size(), 201u);  // job a's partition and the 200 new ones
  EXPECT_EQ(std::set(seen.begin(), seen.end()).size(), seen.size());
}

TEST_F(ClusterStore, ResultsAreWrittenOnceAndTheLastWriterAssembles) {
  const uint64_t job = add_job(1, 3);
  std::vector<claim> cs;
  while (auto c = take("n1")) cs.push_back(*c);
  ASSERT_EQ(cs.size(), 3u);
  int verified = 0;
  auto verify = [&](const std::vector<result_row>& rows) {
    ++verified;
    EXPECT_EQ(rows.size(), 3u);
    return ok_status();
  };
  auto d0 = complete_partition(*conn_, "n1", cs[0], output(1), verify);
  EXPECT_TRUE(d0.written);
  EXPECT_FALSE(d0.assembled);
  // A second write of the same partition (a node whose lease had expired) changes nothing.
  auto again = complete_partition(*conn_, "n2", cs[0], output(9), verify);
  EXPECT_FALSE(again.written);
  EXPECT_FALSE(again.assembled);
  EXPECT_TRUE(complete_partition(*conn_, "n1", cs[2], output(3), verify).written);
  EXPECT_EQ(verified, 0);
  auto last = complete_partition(*conn_, "n2", cs[1], output(2), verify);
  EXPECT_TRUE(last.written);
  EXPECT_TRUE(last.assembled);
  EXPECT_EQ(last.job_state, "succeeded");
  EXPECT_EQ(verified, 1);
  EXPECT_EQ(scalar("SELECT count(*) FROM pp_results WHERE job_id = " + std::to_string(job)), 3);
  EXPECT_EQ(scalar("SELECT length(proof) FROM pp_jobs WHERE id = " + std::to_string(job)), 3 * 192);
  // The stored proof is the partitions' in order; the first write of partition 0 won.
  auto results = load_results(*conn_, job);
  ASSERT_EQ(results.size(), 3u);
  for (uint32_t p = 0; p < 3; ++p) EXPECT_EQ(results[p].proof, std::vector<uint8_t>(192, uint8_t(p + 1)));
  EXPECT_EQ(results[0].node, "n1");
  EXPECT_EQ(load_job(*conn_, job)->state, "succeeded");
}

TEST_F(ClusterStore, ConcurrentLastPartitionsAssembleExactlyOnce) {
  for (int round = 0; round < 20; ++round) {
    const uint64_t job = add_job(1, 4);
    std::vector<claim> cs;
    while (auto c = take("n1")) cs.push_back(*c);
    ASSERT_EQ(cs.size(), 4u);
    std::atomic<int> assembled{0}, verified{0};
    std::vector<std::thread> ts;
    for (const claim& c : cs) {
      ts.emplace_back([&, c] {
        pqxx::connection cc(conninfo_);
        auto d = complete_partition(cc, "n" + std::to_string(c.part), c, output(uint8_t(c.part)), [&](const std::vector<result_row>& rows) {
          ++verified;
          EXPECT_EQ(rows.size(), 4u);
          return ok_status();
        });
        if (d.assembled) ++assembled;
      });
    }
    for (auto& t : ts) t.join();
    EXPECT_EQ(assembled.load(), 1) << "job " << job;
    EXPECT_EQ(verified.load(), 1) << "job " << job;
    EXPECT_EQ(load_job(*conn_, job)->state, "succeeded");
  }
}

TEST_F(ClusterStore, AFailedVerificationFailsTheJob) {
  const uint64_t job = add_job(1, 1);
  auto c = take("n1");
  ASSERT_TRUE(c);
  auto d = complete_partition(*conn_, "n1", *c, output(1), [](const std::vector<result_row>&) {
    return invalid_argument("partition 0 (proved on n1) does not verify");
  });
  EXPECT_TRUE(d.assembled);
  EXPECT_EQ(d.job_state, "failed");
  auto j = load_job(*conn_, job);
  EXPECT_EQ(j->error_code, static_cast<int>(status_code::invalid_argument));
  EXPECT_NE(j->error.find("does not verify"), std::string::npos) << j->error;
}

TEST_F(ClusterStore, ExpiredLeasesGoBackToTheQueueAndTheOldHolderLosesIt) {
  const uint64_t job = add_job(1, 1);
  auto c = take("n1", "{k}", 1s);
  ASSERT_TRUE(c);
  EXPECT_EQ(renew_lease(*conn_, "n1", job, 0, 1s), lease_state::held);
  EXPECT_TRUE(reclaim_expired(*conn_).empty());  // not expired yet
  std::this_thread::sleep_for(1200ms);
  auto back = reclaim_expired(*conn_);
  ASSERT_EQ(back.size(), 1u);
  EXPECT_NE(back[0].find("on n1"), std::string::npos) << back[0];
  auto c2 = take("n2");
  ASSERT_TRUE(c2);
  EXPECT_EQ(c2->claims, 2u);
  EXPECT_EQ(renew_lease(*conn_, "n1", job, 0, 30s), lease_state::lost);
  EXPECT_EQ(renew_lease(*conn_, "n2", job, 0, 30s), lease_state::held);
  release_claim(*conn_, "n1", job, 0);  // not n1's any more: no effect
  EXPECT_EQ(scalar("SELECT count(*) FROM pp_partitions WHERE state = 'claimed' AND node = 'n2'"), 1);
  // Cancelled meanwhile: the holder is told the job ended.
  ASSERT_EQ(cancel_job(*conn_, job, "test").value(), "cancelled");
  EXPECT_EQ(renew_lease(*conn_, "n2", job, 0, 30s), lease_state::job_ended);
  EXPECT_EQ(cancel_job(*conn_, job, "again").value(), "cancelled");
  EXPECT_FALSE(cancel_job(*conn_, job + 1000, "unknown"));
}

TEST_F(ClusterStore, ARestartedNodeGivesBackWhatItsPreviousRunHeld) {
  add_job(1, 3);
  ASSERT_TRUE(take("n1"));
  ASSERT_TRUE(take("n1"));
  ASSERT_TRUE(take("n2"));
  EXPECT_EQ(release_node_claims(*conn_, "n1"), 2);
  EXPECT_EQ(scalar("SELECT count(*) FROM pp_partitions WHERE state = 'queued'"), 2);
  EXPECT_EQ(scalar("SELECT count(*) FROM pp_partitions WHERE state = 'claimed' AND node = 'n2'"), 1);
}

TEST_F(ClusterStore, APartitionFailingOnThreeNodesFailsItsJobWithEachError) {
  for (const char* n : {"n1", "n2", "n3"}) register_node(*conn_, n, 30s, holding("k"));
  const uint64_t job = add_job(1, 2);
  auto fail_on = [&](const std::string& node) {
    for (;;) {
      auto c = take(node);
      if (!c) return failure_outcome{};
      if (c->part == 1) return fail_partition(*conn_, node, *c, invalid_argument("bad witness seen by " + node));
      release_claim(*conn_, node, c->job, c->part);
      return failure_outcome{};
    }
  };
  // Partition 0 sits claimed by n9 so that the claims below reach partition 1.
  auto p0 = take("n9");
  ASSERT_TRUE(p0);
  ASSERT_EQ(p0->part, 0u);
  auto f1 = fail_on("n1");
  EXPECT_EQ(f1.failures, 1u);
  EXPECT_FALSE(f1.job_failed);
  EXPECT_FALSE(take("n1")) << "a node does not take back a partition that failed on it";
  auto f2 = fail_on("n2");
  EXPECT_EQ(f2.failures, 2u);
  EXPECT_FALSE(f2.job_failed);
  auto f3 = fail_on("n3");
  EXPECT_EQ(f3.failures, 3u);
  EXPECT_TRUE(f3.job_failed);
  auto j = load_job(*conn_, job);
  EXPECT_EQ(j->state, "failed");
  EXPECT_EQ(j->error_code, static_cast<int>(status_code::invalid_argument));
  for (const char* n : {"n1", "n2", "n3"}) {
    EXPECT_NE(j->error.find(std::string("[") + n + ": "), std::string::npos) << j->error;
    EXPECT_NE(j->error.find(std::string("seen by ") + n), std::string::npos) << j->error;
  }
  EXPECT_EQ(scalar("SELECT count(*) FROM pp_partitions WHERE state IN ('queued', 'claimed') AND job_id = " + std::to_string(job)), 0);
  EXPECT_EQ(renew_lease(*conn_, "n9", job, 0, 30s), lease_state::job_ended);
}

TEST_F(ClusterStore, WithFewerLiveNodesEveryLiveNodeFailingIsEnough) {
  register_node(*conn_, "solo", 30s, holding("k"));
  const uint64_t job = add_job(1, 1);
  auto c = take("solo");
  ASSERT_TRUE(c);
  auto f = fail_partition(*conn_, "solo", *c, internal_error("boom"));
  EXPECT_TRUE(f.job_failed);
  EXPECT_EQ(load_job(*conn_, job)->state, "failed");
}

TEST_F(ClusterStore, IdempotencyKeysMapToOneJob) {
  const uint64_t a = add_job(1, 2, "k", "idem-1");
  new_job again{"k", 1, "idem-1", 2, "other-node"};
  auto r = insert_job(*conn_, again, [](uint64_t) -> result<std::vector<stored_witness>> {
    ADD_FAILURE() << "witnesses stored for a deduplicated job";
    return std::vector<stored_witness>{};
  });
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->id, a);
  EXPECT_TRUE(r->deduplicated);
  new_job conflict{"k", 1, "idem-1", 3, "other-node"};
  auto bad = insert_job(*conn_, conflict, [](uint64_t) -> result<std::vector<stored_witness>> { return std::vector<stored_witness>{}; });
  ASSERT_THAT(bad, StatusIs(status_code::already_exists));
  EXPECT_EQ(scalar("SELECT count(*) FROM pp_jobs"), 1);
  // A witness store error aborts the submission: no job row stays behind.
  auto aborted = insert_job(*conn_, new_job{"k", 1, "", 1, "n"}, [](uint64_t) -> result<std::vector<stored_witness>> {
    return failed_precondition("no shared_dir");
  });
  ASSERT_THAT(aborted, Not(IsOk()));
  EXPECT_EQ(scalar("SELECT count(*) FROM pp_jobs"), 1);
}

TEST_F(ClusterStore, EndedJobsAreThoseNoLongerRunning) {
  const uint64_t running = add_job(1, 1), cancelled = add_job(1, 1), proved = add_job(1, 1);
  ASSERT_EQ(cancel_job(*conn_, cancelled, "test"), "cancelled");
  // The two claimable partitions (the cancelled job's is not), in whichever order their ids give.
  std::optional<claim> c = take("n1");
  if (c && c->job != proved) c = take("n1");
  ASSERT_TRUE(c && c->job == proved);
  EXPECT_TRUE(complete_partition(*conn_, "n1", *c, output(1), accept).assembled);
  const uint64_t unknown = running ^ 1, past_bigint = ~uint64_t{0};
  std::vector<uint64_t> want = {cancelled, proved};
  std::sort(want.begin(), want.end());
  EXPECT_EQ(ended_jobs(*conn_, {running, cancelled, proved, unknown, past_bigint}), want);
  EXPECT_TRUE(ended_jobs(*conn_, {}).empty());
}

TEST_F(ClusterStore, StatusShowsNodesClaimsAndQueueByPriority) {
  register_node(*conn_, "n1", 30s, holding("k"));
  node_report r = holding("k");
  r.devices_json = R"([{"name":"cpu0","kind":"cpu","healthy":true}])";
  r.key_curves["k"] = "bn128";
  heartbeat(*conn_, "n1", 30s, r);
  add_job(3, 2);
  add_job(0, 3);
  ASSERT_TRUE(take("n1"));
  const auto j = nlohmann::json::parse(cluster_status_json(*conn_));
  EXPECT_EQ(j["schema_version"], migrations().back().version);
  ASSERT_EQ(j["nodes"].size(), 1u);
  EXPECT_EQ(j["nodes"][0]["name"], "n1");
  EXPECT_TRUE(j["nodes"][0]["live"].get<bool>());
  EXPECT_EQ(j["nodes"][0]["claims"], 1);
  EXPECT_EQ(j["nodes"][0]["devices"][0]["name"], "cpu0");
  EXPECT_EQ(j["nodes"][0]["keys"], nlohmann::json::array({"k"}));
  EXPECT_EQ(j["nodes"][0]["key_curves"]["k"], "bn128");
  EXPECT_EQ(j["queued_partitions"]["critical"], 1);
  EXPECT_EQ(j["queued_partitions"]["low"], 3);
  EXPECT_EQ(j["jobs"]["running"], 2);
}

// What the database costs per partition with nothing else running: claim, one lease renewal, the
// result write (and, for every third, the job's assembly bookkeeping), one thread, unix socket.
// The figures in docs/perf/cluster-cpu.md; run with --gtest_also_run_disabled_tests.
TEST_F(ClusterStore, DISABLED_DatabaseCostPerPartition) {
  constexpr int jobs = 300, parts = 3;
  for (int i = 0; i < jobs; ++i) add_job(1, parts);
  using clock = std::chrono::steady_clock;
  clock::duration claim_t{}, renew_t{}, write_t{};
  int n = 0;
  for (;;) {
    auto t0 = clock::now();
    auto c = take("n1");
    auto t1 = clock::now();
    if (!c) break;
    EXPECT_EQ(renew_lease(*conn_, "n1", c->job, c->part, 30s), lease_state::held);
    auto t2 = clock::now();
    EXPECT_TRUE(complete_partition(*conn_, "n1", *c, output(1), accept).written);
    auto t3 = clock::now();
    claim_t += t1 - t0;
    renew_t += t2 - t1;
    write_t += t3 - t2;
    ++n;
  }
  ASSERT_EQ(n, jobs * parts);
  auto ms = [&](clock::duration d) { return std::chrono::duration<double, std::milli>(d).count() / n; };
  std::printf("| partitions | claim ms | renew ms | write+assemble ms | total ms/partition |\n|---|---|---|---|---|\n");
  std::printf("| %d | %.3f | %.3f | %.3f | %.3f |\n", n, ms(claim_t), ms(renew_t), ms(write_t), ms(claim_t + renew_t + write_t));
  EXPECT_EQ(load_job(*conn_, 1)->state, "succeeded");
}

TEST(WitnessStore, InlineBelowTheThresholdFilesAboveWithChecksums) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("pp_ws_" + std::to_string(::getpid()));
  witness_store store(dir, 16);
  const std::string small = "0123456789abcdef", large = std::string(1000, 'x');
  auto a = store.put(7, 0, std::span(reinterpret_cast<const uint8_t*>(small.data()), small.size()));
  ASSERT_THAT(a, IsOk());
  EXPECT_TRUE(a->is_inline);
  auto b = store.put(7, 1, std::span(reinterpret_cast<const uint8_t*>(large.data()), large.size()));
  ASSERT_THAT(b, IsOk());
  EXPECT_FALSE(b->is_inline);
  EXPECT_EQ(b->path, (dir / "7" / "1.wtns").string());
  auto back = witness_store::get(*b, {});
  ASSERT_THAT(back, IsOk());
  EXPECT_EQ(std::string(back->begin(), back->end()), large);
  // A corrupted file (same size) is data_loss, as is a missing one.
  {
    std::fstream f(b->path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(500);
    f.put('y');
  }
  EXPECT_EQ(witness_store::get(*b, {}).error().code(), status_code::data_loss);
  store.remove_job(7, {});
  EXPECT_FALSE(std::filesystem::exists(dir / "7"));
  EXPECT_EQ(witness_store::get(*b, {}).error().code(), status_code::data_loss);
  // Too large and nowhere to put it.
  witness_store no_dir("", 16);
  auto c = no_dir.put(8, 0, std::span(reinterpret_cast<const uint8_t*>(large.data()), large.size()));
  ASSERT_THAT(c, StatusIs(status_code::failed_precondition));
  std::filesystem::remove_all(dir);
  // SHA-256 of "abc" (FIPS 180-2, appendix B.1).
  const std::string abc = "abc";
  const sha256_digest d = sha256(std::span(reinterpret_cast<const uint8_t*>(abc.data()), abc.size()));
  EXPECT_EQ(d[0], 0xba);
  EXPECT_EQ(d[1], 0x78);
  EXPECT_EQ(d[31], 0xad);
}

// A job's files are removed where its rows say they are (another node's directory too), but only
// paths shaped <dir>/<job>/<part>.wtns: a row cannot make a node delete any other file.
TEST(WitnessStore, RemovesTheRecordedFilesOnlyWhenShapedAsTheJobsWitnesses) {
  const std::filesystem::path root = std::filesystem::temp_directory_path() / ("pp_ws_rm_" + std::to_string(::getpid()));
  const std::filesystem::path mine = root / "mine", theirs = root / "theirs";
  std::filesystem::create_directories(theirs / "9");
  std::ofstream(theirs / "9" / "0.wtns") << "w";
  std::ofstream(theirs / "9" / "notes.txt") << "keep";
  std::ofstream(root / "victim") << "keep";
  witness_store store(mine, 16);
  store.remove_job(9, {(theirs / "9" / "0.wtns").string(), (theirs / "9" / "notes.txt").string(), (root / "victim").string(),
                       "9/1.wtns"});
  EXPECT_FALSE(std::filesystem::exists(theirs / "9" / "0.wtns"));
  EXPECT_TRUE(std::filesystem::exists(theirs / "9" / "notes.txt"));
  EXPECT_TRUE(std::filesystem::exists(root / "victim"));
  std::filesystem::remove_all(root);
}

// The jobs with files are the folders named by a number; anything else in the directory is not one.
TEST(WitnessStore, StoredJobsAreTheNumberedFolders) {
  const std::filesystem::path root = std::filesystem::temp_directory_path() / ("pp_ws_jobs_" + std::to_string(::getpid()));
  for (const char* d : {"7", "12", "3x", "notes", "-4"}) std::filesystem::create_directories(root / d);
  std::ofstream(root / "5") << "a file";
  std::vector<uint64_t> jobs = witness_store(root, 16).stored_jobs();
  std::sort(jobs.begin(), jobs.end());
  EXPECT_EQ(jobs, (std::vector<uint64_t>{7, 12}));
  EXPECT_TRUE(witness_store("", 16).stored_jobs().empty());
  EXPECT_TRUE(witness_store(root / "missing", 16).stored_jobs().empty());
  std::filesystem::remove_all(root);
}

// A shared directory that is missing, a file, or not writable stops the node at start.
TEST(WitnessStore, TheSharedDirectoryMustBeAWritableDirectory) {
  const std::filesystem::path root = std::filesystem::temp_directory_path() / ("pp_ws_chk_" + std::to_string(::getpid()));
  std::filesystem::create_directories(root / "dir");
  std::ofstream(root / "file") << "x";
  EXPECT_THAT(witness_store(root / "dir", 16).check_writable("n1"), IsOk());
  EXPECT_FALSE(std::filesystem::exists(root / "dir" / ".proofpipe-probe-n1")) << "the probe is removed";
  EXPECT_THAT(witness_store(root / "missing", 16).check_writable("n1"),
              StatusIs(status_code::failed_precondition, ::testing::HasSubstr("does not exist")));
  EXPECT_THAT(witness_store(root / "file", 16).check_writable("n1"),
              StatusIs(status_code::failed_precondition, ::testing::HasSubstr("regular file")));
  EXPECT_THAT(witness_store("", 16).check_writable("n1"), IsOk());
  std::filesystem::remove_all(root);
}

TEST(NodeMetrics, EverySampleCarriesTheNodeLabel) {
  const std::string in = "# HELP a x\n# TYPE a counter\na 1\nb{stage=\"x\"} 2\nc{} 3\n";
  EXPECT_EQ(label_with_node(in, "n\"1"),
            "# HELP a x\n# TYPE a counter\na{node=\"n\\\"1\"} 1\nb{node=\"n\\\"1\",stage=\"x\"} 2\nc{node=\"n\\\"1\"} 3\n");
  cluster_counters c;
  c.proved = 5;
  db_meter m;
  const std::string text = cluster_metrics_text(c, m, "n1");
  EXPECT_NE(text.find("pp_cluster_partitions_total{node=\"n1\",result=\"proved\"} 5"), std::string::npos) << text;
}

TEST(DbSession, AnUnreachableDatabaseIsUnavailableNotAnException) {
  db_meter m;
  db_session s("host=/nonexistent/dir port=1 dbname=x connect_timeout=2", &m);
  status st = s.run("probe", [](pqxx::connection&) {});
  EXPECT_EQ(st.code(), status_code::unavailable) << st.to_string();
  EXPECT_NE(st.message().find("probe"), std::string::npos) << st.to_string();
  EXPECT_EQ(m.errors.load(), 1u);
  EXPECT_EQ(text_array({"a", "b\"c"}), "{\"a\",\"b\\\"c\"}");
}

}  // namespace
}  // namespace pp::cluster
