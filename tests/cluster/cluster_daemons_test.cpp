// Three `proofpipe serve` nodes (CPU backend) sharing one PostgreSQL (pg_instance.hpp): 200 jobs of
// three partitions submitted round-robin to the three nodes, one node killed with -9 mid-run and
// restarted. Every job must end with verifying proofs (or, for the one job with a bad witness, a
// failure naming each node's error); none lost, none proved twice (result rows counted in the
// database); a CRITICAL job submitted last finishes before the bulk; cancel, await and
// `status --cluster` work from any node; /metrics carries the node label.
// DISABLED_ThroughputOneVsThreeNodes is the measurement behind docs/perf/cluster-cpu.md (run it with
// --gtest_also_run_disabled_tests).
#include <gtest/gtest.h>

#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <set>
#include <thread>

#include "cluster/pg_instance.hpp"
#include "formats/circom_wtns.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/verifier.hpp"
#include "r1cs/synthetic.hpp"
#include "server/client.hpp"
#include "server/daemon_harness.hpp"
#include "support/files.hpp"
#include "support/status_matchers.hpp"

namespace pp::cluster {
namespace {
namespace fs = std::filesystem;
namespace pb = proofpipe::v1;
using namespace std::chrono_literals;

// A synthetic circuit's key (insecure, seeded) and a satisfying witness as .wtns bytes.
struct circuit_fixture {
  fs::path zkey;
  groth16::verifying_key vk;
  std::string wtns;      // satisfies the circuit
  std::string bad_wtns;  // the right size, every aux value changed: does not
};

circuit_fixture make_circuit(const fs::path& dir, uint64_t constraints) {
  circuit_fixture f;
  r1cs::synthetic_params p;
  p.num_constraints = constraints;
  p.num_aux = constraints;
  p.num_public = 2;
  p.seed = 11;
  auto c = r1cs::make_synthetic(p);
  EXPECT_THAT(c, IsOk());
  f.zkey = dir / ("synthetic_" + std::to_string(constraints) + ".zkey");
  f.vk = server::testing::write_insecure_zkey(c->cs, 5, f.zkey);
  auto good = formats::write_circom_wtns(c->w);
  EXPECT_THAT(good, IsOk());
  f.wtns.assign(good->begin(), good->end());
  r1cs::witness bad = c->w;
  for (size_t i = 1 + p.num_public; i < bad.size(); ++i) bad[i] = bad[i] + ff::fr::one();
  auto b = formats::write_circom_wtns(bad);
  EXPECT_THAT(b, IsOk());
  f.bad_wtns.assign(b->begin(), b->end());
  return f;
}

// One `proofpipe serve` child with its own config, socket and log.
struct node_proc {
  std::string name;
  fs::path config, socket, log;
  std::unique_ptr<server::testing::serve_child> proc;  // null until started
  bool terminated = false;  // SIGTERM sent (a second one would stop it at once, not drain)
};

class cluster_harness {
 public:
  cluster_harness(const fs::path& dir, std::string conninfo, const fs::path& zkey)
      : dir_(dir), conninfo_(std::move(conninfo)), zkey_(zkey) {}

  // inline_bytes: that node stores larger witnesses in the shared directory.
  node_proc& add(const std::string& name, uint64_t inline_bytes) {
    node_proc n;
    n.name = name;
    n.socket = server::testing::temp_socket(name);
    n.config = dir_ / (name + ".toml");
    n.log = dir_ / (name + ".log");
    std::ofstream cfg(n.config);
    cfg << "[server]\nsocket = \"" << n.socket.string() << "\"\ndrain_timeout_s = 60\n"
        << "[log]\nlevel = \"info\"\n"
        << "[engine]\nbackend = \"cpu\"\ncpu_devices = 1\nhost_memory_mb = 4096\nhost_memory_margin_mb = 0\n"
        << "[cluster]\ndatabase = \"" << conninfo_ << "\"\nnode = \"" << name << "\"\nlease_s = 3\n"
        << "shared_dir = \"" << (dir_ / "shared").string() << "\"\ninline_witness_bytes = " << inline_bytes << "\npoll_ms = 50\n"
        << "[[keys]]\nid = \"synthetic\"\nzkey = \"" << zkey_.string() << "\"\npreload = true\n";
    nodes_.push_back(std::move(n));
    return nodes_.back();
  }

  void start(node_proc& n) {
    n.terminated = false;
    n.proc = std::make_unique<server::testing::serve_child>(n.config, fs::path{}, n.log);
  }

  // Waits until the node answers GetStatus.
  ::testing::AssertionResult ready(const node_proc& n) {
    auto c = server::client::connect(opts(n));
    if (!c.ok()) return ::testing::AssertionFailure() << n.name << ": " << c.error().to_string();
    ::testing::AssertionResult r = n.proc->ready(*c, 60s);
    if (!r) r << " (" << n.name << "); log: " << log_of(n);
    return r;
  }

  void kill_now(node_proc& n) { n.proc->kill_now(); }

  // SIGTERM (drain) to every node at once.
  void drain_all() {
    for (auto& n : nodes_) {
      if (!n.terminated) n.proc->signal(SIGTERM);
      n.terminated = true;
    }
  }
  // SIGTERM (drain) and the exit status; -2 when it had to be killed after 90 s.
  int stop(node_proc& n) {
    if (!n.terminated) n.proc->signal(SIGTERM);
    n.terminated = true;
    const int st = n.proc->wait_exit(90s);
    if (st >= 0) return st;
    n.proc->kill_now();
    return -2;
  }

  static server::client_options opts(const node_proc& n) {
    server::client_options o;
    o.socket = n.socket.string();
    return o;
  }
  static std::string log_of(const node_proc& n) { return pp::test::read_file(n.log); }

  std::vector<node_proc>& nodes() { return nodes_; }

 private:
  fs::path dir_;
  std::string conninfo_;
  fs::path zkey_;
  std::vector<node_proc> nodes_;
};

pb::SubmitProofRequest job_request(const std::vector<std::string>& witnesses, pb::Priority prio) {
  pb::SubmitProofRequest r;
  r.set_key_id("synthetic");
  r.set_priority(prio);
  for (const std::string& w : witnesses) r.add_witnesses()->set_wtns(w);
  return r;
}

int64_t scalar(pqxx::connection& c, const std::string& sql) {
  pqxx::nontransaction n(c);
  return n.exec1(sql)[0].as<int64_t>();
}

class ClusterDaemons : public ::testing::Test {
 protected:
  void SetUp() override {
    if (test::pg_instance::bin_dir().empty()) GTEST_SKIP() << "PostgreSQL is not installed";
    ASSERT_TRUE(test::shared_pg()) << test::shared_pg_error();
    dir_ = fs::temp_directory_path() / ("pp_cluster_" + std::to_string(::getpid()) + "_" +
                                        ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::create_directories(dir_ / "shared");
  }
  void TearDown() override {
    std::error_code ec;
    if (!HasFailure()) fs::remove_all(dir_, ec);
  }
  fs::path dir_;
};

TEST_F(ClusterDaemons, TwoHundredJobsOnThreeNodesSurviveAKilledNode) {
  const std::string conninfo = test::shared_pg()->create_database("daemons_" + std::to_string(::getpid()));
  const auto t0 = std::chrono::steady_clock::now();
  auto progress = [&](const std::string& what) {
    std::printf("[%6.1f s] %s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count(), what.c_str());
    std::fflush(stdout);
  };
  const circuit_fixture fx = make_circuit(dir_, 1024);
  progress("circuit ready");
  cluster_harness h(dir_, conninfo, fx.zkey);
  // node-a keeps every witness in the shared directory, node-b and node-c inline.
  h.add("node-a", 0);
  h.add("node-b", 1 << 20);
  h.add("node-c", 1 << 20);
  for (auto& n : h.nodes()) h.start(n);
  for (auto& n : h.nodes()) ASSERT_TRUE(h.ready(n));
  progress("three nodes ready");
  std::vector<server::client> clients;
  for (auto& n : h.nodes()) clients.push_back(*server::client::connect(cluster_harness::opts(n)));
  pqxx::connection db(conninfo);

  // One job whose partition 1 cannot be proved: it must fail on all three nodes, with each error.
  pb::SubmitProofResponse bad;
  ASSERT_TRUE(clients[0].stub().SubmitProof(clients[0].context(30s).get(),
                                           job_request({fx.wtns, fx.bad_wtns, fx.wtns}, pb::PRIORITY_HIGH), &bad).ok());

  constexpr int jobs = 200;
  std::vector<uint64_t> ids;
  for (int i = 0; i < jobs; ++i) {
    server::client& c = clients[i % 3];
    pb::SubmitProofResponse r;
    const grpc::Status s = c.stub().SubmitProof(c.context(30s).get(), job_request({fx.wtns, fx.wtns, fx.wtns}, pb::PRIORITY_NORMAL), &r);
    ASSERT_TRUE(s.ok()) << i << ": " << s.error_message();
    ids.push_back(r.job_id());
  }
  EXPECT_EQ(std::set(ids.begin(), ids.end()).size(), ids.size()) << "a job id handed out twice";

  progress("200 jobs submitted");
  // A LOW job cancelled through another node than the one that took it.
  pb::SubmitProofResponse doomed;
  ASSERT_TRUE(clients[1].stub().SubmitProof(clients[1].context(30s).get(),
                                           job_request({fx.wtns, fx.wtns}, pb::PRIORITY_LOW), &doomed).ok());
  pb::CancelProofRequest cr;
  cr.set_job_id(doomed.job_id());
  pb::CancelProofResponse cresp;
  ASSERT_TRUE(clients[2].stub().CancelProof(clients[2].context(30s).get(), cr, &cresp).ok());
  EXPECT_EQ(cresp.state(), pb::JOB_STATE_CANCELLED);

  // The CRITICAL job, submitted last.
  const int64_t bulk_open = scalar(db, "SELECT count(*) FROM pp_jobs WHERE state = 'running' AND priority = 1");
  pb::SubmitProofResponse critical;
  ASSERT_TRUE(clients[2].stub().SubmitProof(clients[2].context(30s).get(),
                                           job_request({fx.wtns, fx.wtns, fx.wtns}, pb::PRIORITY_CRITICAL), &critical).ok());

  // Kill node-b with -9 once a fifth of the bulk is proved, restart it a moment later.
  for (int i = 0; i < 3000 && scalar(db, "SELECT count(*) FROM pp_results") < 3 * jobs / 5; ++i) std::this_thread::sleep_for(20ms);
  const int64_t held_by_b = scalar(db, "SELECT count(*) FROM pp_partitions WHERE state = 'claimed' AND node = 'node-b'");
  h.kill_now(h.nodes()[1]);
  const int64_t done_at_kill = scalar(db, "SELECT count(*) FROM pp_results");
  std::this_thread::sleep_for(500ms);
  progress("node-b killed with " + std::to_string(held_by_b) + " partitions claimed, " + std::to_string(done_at_kill) +
           " results written");
  h.start(h.nodes()[1]);
  ASSERT_TRUE(h.ready(h.nodes()[1]));
  progress("node-b restarted");
  clients[1] = *server::client::connect(cluster_harness::opts(h.nodes()[1]));

  // `status --cluster` and /metrics while work is running.
  {
    const std::string cmd = (pp::test::binary_dir() / "proofpipe").string() + " status --cluster --socket " +
                            h.nodes()[0].socket.string();
    FILE* p = ::popen(cmd.c_str(), "r");
    ASSERT_NE(p, nullptr);
    std::string out;
    char buf[4096];
    while (size_t n = std::fread(buf, 1, sizeof buf, p)) out.append(buf, n);
    EXPECT_EQ(::pclose(p), 0) << out;
    for (const char* n : {"node-a", "node-b", "node-c", "(bls12381)", "queued partitions: critical", "jobs: running"}) {
      EXPECT_NE(out.find(n), std::string::npos) << n << " missing from:\n" << out;
    }
    pb::GetMetricsResponse m;
    ASSERT_TRUE(clients[2].stub().GetMetrics(clients[2].context(10s).get(), {}, &m).ok());
    EXPECT_NE(m.prometheus_text().find("pp_jobs_in_flight{node=\"node-c\"}"), std::string::npos);
    EXPECT_NE(m.prometheus_text().find("pp_cluster_partitions_total{node=\"node-c\",result=\"proved\"}"), std::string::npos);
  }

  // Every job, awaited through a node other than the one that took it.
  auto await = [&](uint64_t id, int via) {
    pb::AwaitProofRequest ar;
    ar.set_job_id(id);
    ar.set_timeout_ms(240'000);
    pb::AwaitProofResponse resp;
    const grpc::Status s = clients[via].stub().AwaitProof(clients[via].context(250s).get(), ar, &resp);
    EXPECT_TRUE(s.ok()) << "job " << id << ": " << s.error_message();
    return resp;
  };
  auto verify_all = [&](const pb::AwaitProofResponse& r, uint64_t id) {
    ASSERT_EQ(r.state(), pb::JOB_STATE_SUCCEEDED) << "job " << id << ": " << r.error().message();
    ASSERT_EQ(r.proofs_size(), 3) << "job " << id;
    for (const auto& p : r.proofs()) {
      auto proof = formats::read_snarkjs_proof_json(p.proof_json());
      auto pub = formats::read_snarkjs_public_json(p.public_json());
      ASSERT_TRUE(proof.ok() && pub.ok());
      EXPECT_THAT(groth16::verify(fx.vk, *pub, *proof), IsOk()) << "job " << id << " on " << p.device();
    }
  };
  verify_all(await(critical.job_id(), 0), critical.job_id());
  for (int i = 0; i < jobs; ++i) verify_all(await(ids[i], (i + 1) % 3), ids[i]);
  progress("every job awaited");
  const pb::AwaitProofResponse b = await(bad.job_id(), 1);
  EXPECT_EQ(b.state(), pb::JOB_STATE_FAILED);
  EXPECT_NE(b.error().message().find("partition 1 failed on 3 nodes"), std::string::npos) << b.error().message();
  for (const char* n : {"[node-a: ", "[node-b: ", "[node-c: "}) {
    EXPECT_NE(b.error().message().find(n), std::string::npos) << n << " missing from " << b.error().message();
  }
  EXPECT_EQ(await(doomed.job_id(), 0).state(), pb::JOB_STATE_CANCELLED);

  // None lost, none proved twice: exactly three result rows per succeeded job, nothing left running.
  EXPECT_EQ(scalar(db, "SELECT count(*) FROM pp_jobs WHERE state = 'running'"), 0);
  EXPECT_EQ(scalar(db, "SELECT count(*) FROM pp_jobs WHERE state = 'succeeded'"), jobs + 1);
  EXPECT_EQ(scalar(db, "SELECT count(*) FROM pp_results r JOIN pp_jobs j ON j.id = r.job_id WHERE j.state = 'succeeded'"),
            3 * (jobs + 1));
  EXPECT_EQ(scalar(db, "SELECT count(*) FROM (SELECT job_id FROM pp_results r JOIN pp_jobs j ON j.id = r.job_id "
                       "WHERE j.state = 'succeeded' GROUP BY job_id HAVING count(*) <> 3) x"), 0);
  EXPECT_EQ(scalar(db, "SELECT count(*) FROM pp_jobs WHERE state = 'succeeded' AND (assembled_by IS NULL OR length(proof) <> 3 * 192)"), 0);
  EXPECT_EQ(scalar(db, "SELECT count(*) FROM pp_failures WHERE job_id = " + std::to_string(bad.job_id())), 3);
  // Every node proved some; the restarted node-b gave back what its killed run held.
  for (const char* n : {"node-a", "node-b", "node-c"}) {
    EXPECT_GT(scalar(db, std::string("SELECT count(*) FROM pp_results WHERE node = '") + n + "'"), 0) << n;
  }
  EXPECT_LT(done_at_kill, 3 * jobs) << "node-b was killed after the work had finished";
  if (held_by_b > 0) {
    EXPECT_NE(cluster_harness::log_of(h.nodes()[1]).find("partitions its previous run held"), std::string::npos);
    EXPECT_GT(scalar(db, "SELECT count(*) FROM pp_partitions WHERE claims > 1"), 0);
  }
  // Shared-directory witnesses are gone once their jobs ended: removed right after a job's end is
  // written (a client may read the end first), else by a heartbeat (a remover killed in between).
  for (int i = 0; i < 500 && !fs::is_empty(dir_ / "shared"); ++i) std::this_thread::sleep_for(20ms);
  EXPECT_TRUE(fs::is_empty(dir_ / "shared")) << "witness files left in " << (dir_ / "shared") << " 10 s after the jobs ended";

  // The CRITICAL job, submitted after 200 NORMAL ones, finished before most of them.
  const int64_t bulk_after = scalar(db, "SELECT count(*) FROM pp_jobs b, pp_jobs c WHERE c.id = " + std::to_string(critical.job_id()) +
                                            " AND b.priority = 1 AND b.finished_at > c.finished_at");
  EXPECT_GT(bulk_open, 30) << "the bulk ran out before the CRITICAL job was submitted: no ordering to check";
  EXPECT_GT(bulk_after, bulk_open / 2) << bulk_after << " of the " << bulk_open
                                       << " NORMAL jobs open at its submission finished after the CRITICAL job";

  progress(std::to_string(bulk_after) + " of " + std::to_string(bulk_open) + " open NORMAL jobs finished after the CRITICAL one");
  h.drain_all();
  for (auto& n : h.nodes()) EXPECT_EQ(h.stop(n), 0) << n.name << ": " << cluster_harness::log_of(n);
  progress("nodes drained and stopped");
  for (const char* n : {"node-a", "node-b", "node-c"}) {
    EXPECT_EQ(scalar(db, std::string("SELECT count(*) FROM pp_nodes WHERE draining AND name = '") + n + "'"), 1) << n;
  }
}

// Proving-dominated throughput: one node with a third of the jobs, then three nodes with all of
// them (on one machine they share its cores), and the database time per partition.
TEST_F(ClusterDaemons, DISABLED_ThroughputOneVsThreeNodes) {
  const char* log_n = std::getenv("PP_CLUSTER_BENCH_LOG");
  const char* jobs_env = std::getenv("PP_CLUSTER_BENCH_JOBS");
  const uint64_t constraints = uint64_t{1} << std::stoi(log_n != nullptr ? log_n : "16");
  const int jobs = std::stoi(jobs_env != nullptr ? jobs_env : "12");
  const circuit_fixture fx = make_circuit(dir_, constraints);
  auto run = [&](int nodes, int njobs, const std::string& db_name) {
    const std::string conninfo = test::shared_pg()->create_database(db_name);
    cluster_harness h(dir_, conninfo, fx.zkey);
    const char* names[] = {"bench-a", "bench-b", "bench-c"};
    for (int i = 0; i < nodes; ++i) h.add(names[i], 0);
    for (auto& n : h.nodes()) h.start(n);
    for (auto& n : h.nodes()) EXPECT_TRUE(h.ready(n));
    std::vector<server::client> clients;
    for (auto& n : h.nodes()) clients.push_back(*server::client::connect(cluster_harness::opts(n)));
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<uint64_t> ids;
    for (int i = 0; i < njobs; ++i) {
      pb::SubmitProofResponse r;
      EXPECT_TRUE(clients[i % nodes].stub().SubmitProof(clients[i % nodes].context(60s).get(),
                                                        job_request({fx.wtns, fx.wtns, fx.wtns}, pb::PRIORITY_NORMAL), &r).ok());
      ids.push_back(r.job_id());
    }
    for (uint64_t id : ids) {
      pb::AwaitProofRequest ar;
      ar.set_job_id(id);
      ar.set_timeout_ms(3'600'000);
      pb::AwaitProofResponse resp;
      EXPECT_TRUE(clients[0].stub().AwaitProof(clients[0].context(3700s).get(), ar, &resp).ok());
      EXPECT_EQ(resp.state(), pb::JOB_STATE_SUCCEEDED) << resp.error().message();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    double db_s = 0, proved = 0;
    for (auto& c : clients) {
      pb::GetMetricsResponse m;
      EXPECT_TRUE(c.stub().GetMetrics(c.context(10s).get(), {}, &m).ok());
      std::istringstream in(m.prometheus_text());
      for (std::string line; std::getline(in, line);) {
        const double v = std::atof(line.substr(line.rfind(' ') + 1).c_str());
        if (line.starts_with("pp_cluster_partition_db_seconds_total")) db_s += v;
        if (line.starts_with("pp_cluster_partitions_total") && line.find("result=\"proved\"") != std::string::npos) proved += v;
      }
    }
    h.drain_all();
    for (auto& n : h.nodes()) h.stop(n);
    std::printf("| %d | %d | %d | %.2f | %.3f | %.2f |\n", nodes, njobs, 3 * njobs, seconds, 3.0 * njobs / seconds,
                proved > 0 ? 1000.0 * db_s / proved : 0.0);
    return seconds;
  };
  std::printf("constraints per partition: %llu, 3 partitions per job\n", static_cast<unsigned long long>(constraints));
  std::printf("| nodes | jobs | partitions | seconds | partitions/s | DB ms/partition |\n|---|---|---|---|---|---|\n");
  const double one_third = run(1, jobs / 3, "bench_one_" + std::to_string(::getpid()));
  const double one_all = run(1, jobs, "bench_one_all_" + std::to_string(::getpid()));
  const double three = run(3, jobs, "bench_three_" + std::to_string(::getpid()));
  std::printf("three nodes, all jobs / one node, a third of them: %.2f; three nodes / one node, all jobs: %.2f\n",
              three / one_third, three / one_all);
}

}  // namespace
}  // namespace pp::cluster
