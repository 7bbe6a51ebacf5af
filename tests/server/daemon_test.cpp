// The daemon end to end with the CPU backend and circom's tiny `mul` circuit: in-process on a temp
// unix socket (and 127.0.0.1 port 0 for TCP), and as a `proofpipe serve` child for SIGTERM drain
// and kill -9 + restart. Every wait is bounded; every daemon stops by itself.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

#include "formats/bellperson_params.hpp"
#include "formats/circom_r1cs.hpp"
#include "formats/circom_wtns.hpp"
#include "formats/snarkjs_json.hpp"
#include "groth16/setup_insecure.hpp"
#include "groth16/verifier.hpp"
#include "server/client.hpp"
#include "server/daemon.hpp"
#include "server/daemon_harness.hpp"
#include "support/files.hpp"
#include "support/status_matchers.hpp"

namespace pp::server {
namespace {
namespace fs = std::filesystem;
namespace pb = proofpipe::v1;
using namespace std::chrono_literals;

using namespace testing;
using test::read_file;

// The mul circuit's key (insecure, seeded) and witness, written once per test binary.
struct fixture {
  fs::path dir, zkey, wtns;
  groth16::verifying_key vk;
  std::vector<ff::fr> witness;
};

const fixture& shared_fixture() {
  static const fixture f = [] {
    fixture f;
    f.dir = test::binary_temp_dir("server_test");  // holds a key and a token
    const fs::path src = test::source_dir() / "tests/fixtures/circom";
    auto r = formats::read_circom_r1cs_file(src / "mul.r1cs");
    EXPECT_THAT(r, IsOk());
    f.zkey = f.dir / "mul.zkey";
    f.vk = write_insecure_zkey(r->cs, 7, f.zkey);
    f.wtns = src / "mul.wtns";
    auto w = formats::read_circom_wtns_file(f.wtns);
    EXPECT_THAT(w, IsOk());
    f.witness = *w;
    return f;
  }();
  return f;
}

client_options tcp_opts(const std::string& target, const std::string& token, const std::string& token_file) {
  client_options o;
  o.target = target;
  o.token = token;
  o.token_file = token_file;
  return o;
}

void verify_response(const pb::AwaitProofResponse& r) {
  ASSERT_EQ(r.state(), pb::JOB_STATE_SUCCEEDED) << r.error().message();
  ASSERT_EQ(r.proofs_size(), 1);
  auto proof = formats::read_snarkjs_proof_json(r.proofs(0).proof_json());
  ASSERT_THAT(proof, IsOk());
  auto pub = formats::read_snarkjs_public_json(r.proofs(0).public_json());
  ASSERT_THAT(pub, IsOk());
  EXPECT_THAT(groth16::verify(shared_fixture().vk, *pub, *proof), IsOk());
  EXPECT_EQ(r.proofs(0).raw().size(), 192u);
}

// The in-process daemon, also on TCP with a token and with a 1 MiB message limit.
class Daemon : public daemon_fixture {
 protected:
  void SetUp() override {
    daemon_fixture::SetUp();
    token_file_ = shared_fixture().dir / "token";
    std::ofstream(token_file_) << "s3cret-token\n";
    cfg_.server.listen = "127.0.0.1:0";
    cfg_.server.token_file = token_file_.string();
    cfg_.server.max_receive_message_mb = 1;
    start_daemon();
  }

  std::string register_key() { return testing::register_key(*client_, shared_fixture().zkey); }
  pb::SubmitProofRequest submit_request(const std::string& key, std::string wtns = {}) {
    pb::SubmitProofRequest req;
    req.set_key_id(key);
    req.add_witnesses()->set_wtns(wtns.empty() ? read_file(shared_fixture().wtns) : wtns);
    return req;
  }

  fs::path token_file_;
};

TEST_F(Daemon, SocketHasTheConfiguredMode) {
  struct stat st {};
  ASSERT_EQ(::stat(socket_.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
  EXPECT_EQ(st.st_mode & 0777, 0660u);
}

TEST_F(Daemon, ProveRoundTripVerifies) {
  const std::string key = register_key();
  EXPECT_EQ(key, fs::weakly_canonical(shared_fixture().zkey).string());
  pb::AwaitProofResponse resp;
  const grpc::Status s = prove(submit_request(key), &resp);
  ASSERT_TRUE(s.ok()) << s.error_code() << " " << s.error_message();
  verify_response(resp);

  // Submit + Await, witness by path; registering the same path again is idempotent.
  EXPECT_EQ(register_key(), key);
  pb::SubmitProofRequest sub;
  sub.set_key_id(key);
  sub.add_witnesses()->set_path(fs::absolute(shared_fixture().wtns).string());
  sub.set_priority(pb::PRIORITY_HIGH);
  pb::SubmitProofResponse sr;
  ASSERT_TRUE(client_->stub().SubmitProof(client_->context(30s).get(), sub, &sr).ok());
  pb::AwaitProofRequest ar;
  ar.set_job_id(sr.job_id());
  ar.set_timeout_ms(60000);
  pb::AwaitProofResponse aw;
  ASSERT_TRUE(client_->stub().AwaitProof(client_->context(90s).get(), ar, &aw).ok());
  verify_response(aw);
}

// The Filecoin parameters file libproofpipe_c2 reads (bellperson layout, monomial H query) as a
// [[keys]] entry with the circuit's .r1cs: the daemon registers it at start-up, proves with it and
// the proof verifies under the file's verifying key; registering the same files again through the
// service is idempotent, and a relative path is refused naming the field.
class DaemonBellpersonKey : public daemon_fixture {
 protected:
  void SetUp() override {
    daemon_fixture::SetUp();
    const fs::path r1cs = fs::absolute(test::source_dir() / "tests/fixtures/circom/mul.r1cs");
    auto r = formats::read_circom_r1cs_file(r1cs);
    ASSERT_THAT(r, IsOk());
    auto pk = groth16::setup_insecure(r->cs, groth16::h_basis::monomial, groth16::toxic_waste_from_seed_insecure(11));
    ASSERT_THAT(pk, IsOk());
    vk_ = pk->vk;
    params_ = shared_fixture().dir / "mul.params";
    ASSERT_THAT(formats::write_bellperson_params_file(*pk, params_), IsOk());
    r1cs_ = r1cs;
    key_entry k;
    k.id = "mul-bellperson";
    k.params = params_.string();
    k.r1cs = r1cs_.string();
    k.preload = true;
    cfg_.keys.push_back(k);
    start_daemon();
  }

  groth16::verifying_key vk_;
  fs::path params_, r1cs_;
};

TEST_F(DaemonBellpersonKey, ProvesWithAFilecoinParametersFileAndVerifies) {
  pb::SubmitProofRequest req;
  req.set_key_id("mul-bellperson");
  req.add_witnesses()->set_wtns(read_file(shared_fixture().wtns));
  pb::AwaitProofResponse resp;
  const grpc::Status s = prove(req, &resp);
  ASSERT_TRUE(s.ok()) << s.error_code() << " " << s.error_message();
  ASSERT_EQ(resp.state(), pb::JOB_STATE_SUCCEEDED) << resp.error().message();
  ASSERT_EQ(resp.proofs_size(), 1);
  auto proof = formats::read_snarkjs_proof_json(resp.proofs(0).proof_json());
  ASSERT_THAT(proof, IsOk());
  auto pub = formats::read_snarkjs_public_json(resp.proofs(0).public_json());
  ASSERT_THAT(pub, IsOk());
  EXPECT_THAT(groth16::verify(vk_, *pub, *proof), IsOk());
  // The zkey's verifying key (other toxic waste) must not accept it: the proof is this file's.
  EXPECT_THAT(groth16::verify(shared_fixture().vk, *pub, *proof), ::testing::Not(IsOk()));

  bool already = false;
  auto again = daemon_->service().register_bellperson("mul-bellperson", params_.string(), r1cs_.string(), &already);
  ASSERT_THAT(again, IsOk());
  EXPECT_TRUE(already);
  EXPECT_THAT(daemon_->service().register_bellperson("other", "mul.params", r1cs_.string(), &already),
              StatusIs(status_code::invalid_argument, ::testing::HasSubstr("params")));
  EXPECT_THAT(daemon_->service().register_bellperson("mul-bellperson", params_.string(), "/elsewhere/mul.r1cs", &already),
              StatusIs(status_code::already_exists));
}

TEST_F(Daemon, HttpMetricsAndStatus) {
  pb::AwaitProofResponse resp;
  ASSERT_TRUE(prove(submit_request(register_key()), &resp).ok());
  const std::string m = http(daemon_->http_port(), "GET", "/metrics");
  EXPECT_NE(m.find(" 200 OK\r\n"), std::string::npos) << m;
  EXPECT_NE(m.find("pp_jobs_total"), std::string::npos) << m;
  const std::string s = http(daemon_->http_port(), "GET", "/status");
  EXPECT_NE(s.find("application/json"), std::string::npos);
  EXPECT_NE(s.find("\"devices\""), std::string::npos) << s;
  EXPECT_NE(http(daemon_->http_port(), "GET", "/nope").find("404"), std::string::npos);
  pb::GetStatusResponse st;
  ASSERT_TRUE(client_->stub().GetStatus(client_->context(10s).get(), {}, &st).ok());
  EXPECT_EQ(st.backend(), "cpu");
  EXPECT_FALSE(st.draining());
}

TEST_F(Daemon, BadRequestsGetPreciseCodesAndTheDaemonKeepsServing) {
  const std::string key = register_key();
  pb::AwaitProofResponse resp;
  // Unknown key.
  grpc::Status s = prove(submit_request("no-such-key"), &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND) << s.error_message();
  // Not a .wtns at all.
  s = prove(submit_request(key, "garbage"), &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
  EXPECT_NE(s.error_message().find("witnesses[0]"), std::string::npos) << s.error_message();
  // A well-formed witness of the wrong size.
  std::vector<ff::fr> shorter = shared_fixture().witness;
  shorter.pop_back();
  auto bytes = formats::write_circom_wtns(shorter);
  ASSERT_THAT(bytes, IsOk());
  s = prove(submit_request(key, std::string(bytes->begin(), bytes->end())), &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
  // Relative witness path.
  pb::SubmitProofRequest rel;
  rel.set_key_id(key);
  rel.add_witnesses()->set_path("mul.wtns");
  s = prove(rel, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::INVALID_ARGUMENT) << s.error_message();
  // Oversized message (limit 1 MiB).
  s = prove(submit_request(key, std::string(2 << 20, 'x')), &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED) << s.error_message();
  // Unknown job.
  pb::AwaitProofRequest ar;
  ar.set_job_id(987654321);
  s = client_->stub().AwaitProof(client_->context(10s).get(), ar, &resp);
  EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND);
  EXPECT_NE(s.error_message().find("unknown to this daemon"), std::string::npos) << s.error_message();
  pb::CancelProofRequest cr;
  cr.set_job_id(987654321);
  pb::CancelProofResponse cresp;
  EXPECT_EQ(client_->stub().CancelProof(client_->context(10s).get(), cr, &cresp).error_code(), grpc::StatusCode::NOT_FOUND);
  // Unknown key for preload / evict; relative zkey path.
  pb::PreloadKeyRequest pr;
  pr.set_key_id("nope");
  pb::PreloadKeyResponse presp;
  EXPECT_EQ(client_->stub().PreloadKey(client_->context(10s).get(), pr, &presp).error_code(), grpc::StatusCode::NOT_FOUND);
  pb::RegisterKeyRequest rk;
  rk.set_zkey_path("mul.zkey");
  pb::RegisterKeyResponse rkr;
  EXPECT_EQ(client_->stub().RegisterKey(client_->context(10s).get(), rk, &rkr).error_code(),
            grpc::StatusCode::INVALID_ARGUMENT);
  rk.set_zkey_path("/nonexistent/x.zkey");
  EXPECT_EQ(client_->stub().RegisterKey(client_->context(10s).get(), rk, &rkr).error_code(), grpc::StatusCode::NOT_FOUND);

  // TCP: no token, a wrong token, then the right one.
  const std::string tcp = "127.0.0.1:" + std::to_string(daemon_->tcp_port());
  pb::GetStatusResponse st;
  for (const char* token : {"", "wrong"}) {
    auto c = client::connect(tcp_opts(tcp, token, ""));
    ASSERT_THAT(c, IsOk());
    EXPECT_EQ(c->stub().GetStatus(c->context(10s).get(), {}, &st).error_code(), grpc::StatusCode::UNAUTHENTICATED);
    pb::SubmitProofResponse sr;
    EXPECT_EQ(c->stub().SubmitProof(c->context(10s).get(), submit_request(key), &sr).error_code(),
              grpc::StatusCode::UNAUTHENTICATED);
  }
  auto good = client::connect(tcp_opts(tcp, "", token_file_.string()));
  ASSERT_THAT(good, IsOk());
  EXPECT_TRUE(good->stub().GetStatus(good->context(10s).get(), {}, &st).ok());

  // Still serving.
  s = prove(submit_request(key), &resp);
  ASSERT_TRUE(s.ok()) << s.error_message();
  verify_response(resp);
}

TEST_F(Daemon, BurstWithPrioritiesCancellationsAndIdempotencyKeys) {
  const std::string key = register_key();
  constexpr int jobs = 200;
  const std::string wtns = read_file(shared_fixture().wtns);
  std::map<uint64_t, int> first_submission;  // job id -> index
  std::set<uint64_t> cancelled_ok;
  const pb::Priority prios[] = {pb::PRIORITY_LOW, pb::PRIORITY_NORMAL, pb::PRIORITY_HIGH, pb::PRIORITY_CRITICAL};
  for (int i = 0; i < jobs; ++i) {
    pb::SubmitProofRequest req = submit_request(key, wtns);
    req.set_priority(prios[i % 4]);
    if (i % 3 == 0) req.set_idempotency_key("idem-" + std::to_string(i));
    pb::SubmitProofResponse r;
    const grpc::Status s = client_->stub().SubmitProof(client_->context(30s).get(), req, &r);
    ASSERT_TRUE(s.ok()) << i << ": " << s.error_message();
    EXPECT_FALSE(r.deduplicated());
    ASSERT_TRUE(first_submission.emplace(r.job_id(), i).second) << "job id " << r.job_id() << " handed out twice";
    if (i % 3 == 0) {  // the same idempotency key again: the same job, nothing new queued
      pb::SubmitProofResponse again;
      ASSERT_TRUE(client_->stub().SubmitProof(client_->context(30s).get(), req, &again).ok());
      EXPECT_EQ(again.job_id(), r.job_id());
      EXPECT_TRUE(again.deduplicated());
    }
    if (i % 5 == 0) {
      pb::CancelProofRequest c;
      c.set_job_id(r.job_id());
      pb::CancelProofResponse cr;
      ASSERT_TRUE(client_->stub().CancelProof(client_->context(10s).get(), c, &cr).ok());
      if (cr.state() == pb::JOB_STATE_CANCELLED) cancelled_ok.insert(r.job_id());
    }
  }
  int succeeded = 0, cancelled = 0;
  for (const auto& [id, i] : first_submission) {
    pb::AwaitProofRequest ar;
    ar.set_job_id(id);
    ar.set_timeout_ms(120000);
    pb::AwaitProofResponse aw;
    const grpc::Status s = client_->stub().AwaitProof(client_->context(150s).get(), ar, &aw);
    ASSERT_TRUE(s.ok()) << id << ": " << s.error_message();
    ASSERT_EQ(aw.job_id(), id);
    if (cancelled_ok.contains(id)) {
      EXPECT_EQ(aw.state(), pb::JOB_STATE_CANCELLED) << "job " << id;
      EXPECT_EQ(aw.error().code(), static_cast<int>(grpc::StatusCode::CANCELLED));
      ++cancelled;
    } else {
      EXPECT_EQ(aw.state(), pb::JOB_STATE_SUCCEEDED) << "job " << id << ": " << aw.error().message();
      if (aw.state() == pb::JOB_STATE_SUCCEEDED) ++succeeded;
      if (i % 10 == 1) verify_response(aw);  // a sample
    }
    // A second await sees the same terminal state.
    pb::AwaitProofResponse again;
    ar.set_timeout_ms(0);
    ASSERT_TRUE(client_->stub().AwaitProof(client_->context(10s).get(), ar, &again).ok());
    EXPECT_EQ(again.state(), aw.state());
  }
  EXPECT_EQ(succeeded + cancelled, jobs);
  pb::GetStatusResponse st;
  ASSERT_TRUE(client_->stub().GetStatus(client_->context(10s).get(), {}, &st).ok());
  EXPECT_EQ(st.jobs_in_flight(), 0u);
  std::printf("burst: %d jobs, %d succeeded, %d cancelled\n", jobs, succeeded, cancelled);
}

// A --by-path witness swapped for a FIFO after submit: the witness stage must refuse it at once
// (it used to block in open(), holding a witness thread that cancel could not free, so every job
// behind it waited forever). One witness thread, so a stuck thread would stall the next job.
TEST(WitnessByPath, FifoSwappedInAfterSubmitFailsWithoutHoldingTheWitnessThread) {
  const fixture& f = shared_fixture();
  const fs::path sock = temp_socket("fifo");
  server_config cfg = cpu_daemon_config(sock);
  cfg.engine.config.witness_threads = 1;
  auto d = daemon::start(cfg);
  ASSERT_THAT(d, IsOk());
  auto c = client::connect(unix_options(sock));
  ASSERT_THAT(c, IsOk());
  const std::string key_id = register_key(*c, f.zkey);
  const std::string wtns = read_file(f.wtns);

  // Work ahead of the by-path job keeps the only witness thread busy while the path is swapped.
  pb::SubmitProofRequest ahead;
  ahead.set_key_id(key_id);
  ahead.set_priority(pb::PRIORITY_HIGH);
  for (int p = 0; p < 512; ++p) ahead.add_witnesses()->set_wtns(wtns);
  pb::SubmitProofResponse ahead_r;
  ASSERT_TRUE(c->stub().SubmitProof(c->context(30s).get(), ahead, &ahead_r).ok());

  const fs::path path = f.dir / "swapped.wtns";
  fs::copy_file(f.wtns, path, fs::copy_options::overwrite_existing);
  pb::SubmitProofRequest by_path;
  by_path.set_key_id(key_id);
  by_path.set_priority(pb::PRIORITY_LOW);
  by_path.add_witnesses()->set_path(path.string());
  pb::SubmitProofResponse by_path_r;
  ASSERT_TRUE(c->stub().SubmitProof(c->context(10s).get(), by_path, &by_path_r).ok());
  const fs::path fifo = f.dir / "swapped.fifo";
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  fs::rename(fifo, path);
  // A reader stuck in open() (the old behaviour) is let go by a writer, so the daemon can stop.
  struct release_reader {
    fs::path p;
    ~release_reader() {
      const int w = ::open(p.c_str(), O_WRONLY | O_NONBLOCK);
      if (w >= 0) ::close(w);
      fs::remove(p);
    }
  } release{path};

  pb::SubmitProofRequest behind = ahead;  // behind the by-path job on the same witness thread
  behind.clear_witnesses();
  behind.add_witnesses()->set_wtns(wtns);
  behind.set_priority(pb::PRIORITY_LOW);
  pb::SubmitProofResponse behind_r;
  ASSERT_TRUE(c->stub().SubmitProof(c->context(10s).get(), behind, &behind_r).ok());

  auto await_job = [&](uint64_t id, pb::AwaitProofResponse* out) {
    pb::AwaitProofRequest ar;
    ar.set_job_id(id);
    ar.set_timeout_ms(30000);
    return c->stub().AwaitProof(c->context(60s).get(), ar, out);
  };
  pb::AwaitProofResponse swapped;
  ASSERT_TRUE(await_job(by_path_r.job_id(), &swapped).ok());
  EXPECT_EQ(swapped.state(), pb::JOB_STATE_FAILED);
  EXPECT_EQ(swapped.error().code(), static_cast<int>(grpc::StatusCode::INVALID_ARGUMENT)) << swapped.error().message();
  EXPECT_NE(swapped.error().message().find(path.string()), std::string::npos) << swapped.error().message();
  EXPECT_NE(swapped.error().message().find("is a FIFO, not a regular file"), std::string::npos)
      << swapped.error().message();
  pb::AwaitProofResponse next;
  ASSERT_TRUE(await_job(behind_r.job_id(), &next).ok());
  verify_response(next);
  pb::AwaitProofResponse first;
  ASSERT_TRUE(await_job(ahead_r.job_id(), &first).ok());
  EXPECT_EQ(first.state(), pb::JOB_STATE_SUCCEEDED) << first.error().message();

}

// ---- `proofpipe serve` as a child process ------------------------------------------------------

// The config of a `proofpipe serve` child (its socket comes by --socket).
fs::path child_config() {
  const fs::path p = shared_fixture().dir / "child.toml";
  std::ofstream(p) << "[server]\ndrain_timeout_s = 60\n[log]\nlevel = \"warn\"\n"
                      "[engine]\nbackend = \"cpu\"\nhost_memory_mb = 1024\nhost_memory_margin_mb = 0\n";
  return p;
}

TEST(ServeProcess, SigtermDrainsInFlightJobs) {
  const fs::path sock = temp_socket("drain");
  serve_child d(child_config(), sock);
  auto c = client::connect(unix_options(sock));
  ASSERT_THAT(c, IsOk());
  ASSERT_TRUE(d.ready(*c)) << "proofpipe serve did not come up";
  const std::string key_id = register_key(*c, shared_fixture().zkey);
  const std::string wtns = read_file(shared_fixture().wtns);
  std::vector<uint64_t> ids;
  for (int i = 0; i < 20; ++i) {
    ASSERT_TRUE(submit_job(*c, key_id, wtns, 1, &ids.emplace_back()));
  }
  // Await from other threads while the daemon drains.
  std::vector<grpc::Status> statuses(ids.size());
  std::vector<pb::AwaitProofResponse> results(ids.size());
  std::vector<std::thread> waiters;
  for (size_t i = 0; i < ids.size(); ++i) {
    waiters.emplace_back([&, i] {
      pb::AwaitProofRequest ar;
      ar.set_job_id(ids[i]);
      ar.set_timeout_ms(60000);
      statuses[i] = c->stub().AwaitProof(c->context(90s).get(), ar, &results[i]);
    });
  }
  std::this_thread::sleep_for(100ms);
  d.signal(SIGTERM);
  for (auto& t : waiters) t.join();
  int ok = 0;
  for (size_t i = 0; i < ids.size(); ++i) {
    if (statuses[i].ok() && results[i].state() == pb::JOB_STATE_SUCCEEDED) {
      ++ok;
      verify_response(results[i]);
    } else if (statuses[i].ok()) {
      EXPECT_EQ(results[i].state(), pb::JOB_STATE_CANCELLED);
      EXPECT_EQ(results[i].error().code(), static_cast<int>(grpc::StatusCode::UNAVAILABLE));
    } else {
      EXPECT_TRUE(statuses[i].error_code() == grpc::StatusCode::UNAVAILABLE ||
                  statuses[i].error_code() == grpc::StatusCode::CANCELLED)
          << statuses[i].error_code() << " " << statuses[i].error_message();
    }
  }
  EXPECT_EQ(ok, static_cast<int>(ids.size())) << "a drain lets every queued job finish";
  EXPECT_EQ(d.wait_exit(60s), 0);
  EXPECT_FALSE(fs::exists(sock)) << "the socket file is removed on exit";
  // Nothing listens any more: a clear UNAVAILABLE.
  pb::GetStatusResponse st;
  EXPECT_EQ(c->stub().GetStatus(c->context(2s).get(), {}, &st).error_code(), grpc::StatusCode::UNAVAILABLE);
}

// A job id names one job of one daemon run: after kill -9 and a restart, another client's job never
// answers to an id from before the crash (ids used to restart at 1 in every run, so awaiting the
// lost job returned the new run's first proof).
TEST(ServeProcess, KillNineThenRestartNeverAnswersWithAnotherJobsProof) {
  const fs::path sock = temp_socket("kill9");
  const std::string wtns = read_file(shared_fixture().wtns);
  std::vector<uint64_t> lost;
  {
    serve_child d(child_config(), sock);
    auto c = client::connect(unix_options(sock));
    ASSERT_TRUE(d.ready(*c));
    const std::string key_id = register_key(*c, shared_fixture().zkey);
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(submit_job(*c, key_id, wtns, 1, &lost.emplace_back()));
    }
    d.signal(SIGKILL);
    EXPECT_EQ(d.wait_exit(10s), 128 + SIGKILL);
    EXPECT_TRUE(fs::exists(sock)) << "kill -9 leaves the socket file behind";
  }
  // Restart on the same (stale) socket path: it is cleaned up and served again.
  fs::remove(sock);  // the child's destructor removed it; leave a stale one as kill -9 does
  {
    const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);  // a stale socket: bound, never listened to, closed
    sockaddr_un a{};
    a.sun_family = AF_UNIX;
    std::strncpy(a.sun_path, sock.c_str(), sizeof a.sun_path - 1);
    ASSERT_EQ(::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    ::close(fd);
  }
  serve_child d2(child_config(), sock);
  auto c = client::connect(unix_options(sock));
  ASSERT_TRUE(d2.ready(*c)) << "restart over a stale socket failed";
  // Another client's jobs on the new run, finished before the old ids are awaited.
  const std::string key_id = register_key(*c, shared_fixture().zkey);
  std::set<uint64_t> fresh;
  for (size_t i = 0; i < lost.size(); ++i) {
    uint64_t id = 0;
    ASSERT_TRUE(submit_job(*c, key_id, wtns, 1, &id));
    fresh.insert(id);
    pb::AwaitProofRequest ar;
    ar.set_job_id(id);
    ar.set_timeout_ms(60000);
    pb::AwaitProofResponse aw;
    ASSERT_TRUE(c->stub().AwaitProof(c->context(90s).get(), ar, &aw).ok());
    verify_response(aw);
  }
  for (const uint64_t id : lost) {
    EXPECT_FALSE(fresh.contains(id)) << "job id " << id << " handed out again after the restart";
    pb::AwaitProofRequest ar;
    ar.set_job_id(id);
    ar.set_timeout_ms(1000);
    pb::AwaitProofResponse aw;
    const grpc::Status s = c->stub().AwaitProof(c->context(10s).get(), ar, &aw);
    EXPECT_EQ(s.error_code(), grpc::StatusCode::NOT_FOUND) << "job " << id << " answered with state " << aw.state();
    EXPECT_NE(s.error_message().find("lost when the daemon restarted"), std::string::npos) << s.error_message();
    EXPECT_EQ(aw.proofs_size(), 0) << "a proof for a job this run never saw";
    pb::CancelProofRequest cr;
    cr.set_job_id(id);
    pb::CancelProofResponse cresp;
    EXPECT_EQ(c->stub().CancelProof(c->context(10s).get(), cr, &cresp).error_code(), grpc::StatusCode::NOT_FOUND);
  }
  d2.signal(SIGTERM);
  EXPECT_EQ(d2.wait_exit(30s), 0);
}

// Jobs of `partitions` partitions each, submitted now; awaited from their own threads by `waiters`.
struct awaited_jobs {
  std::vector<uint64_t> ids;
  std::vector<grpc::Status> statuses;
  std::vector<pb::AwaitProofResponse> results;
  std::vector<std::thread> waiters;

  void submit(const client& c, int jobs, int partitions) {
    const std::string key_id = register_key(c, shared_fixture().zkey);
    const std::string wtns = read_file(shared_fixture().wtns);
    for (int i = 0; i < jobs; ++i) {
      ASSERT_TRUE(submit_job(c, key_id, wtns, partitions, &ids.emplace_back()));
    }
    statuses.resize(ids.size());
    results.resize(ids.size());
    for (size_t i = 0; i < ids.size(); ++i) {
      waiters.emplace_back([&c, this, i] {
        pb::AwaitProofRequest ar;
        ar.set_job_id(ids[i]);
        ar.set_timeout_ms(120000);
        statuses[i] = c.stub().AwaitProof(c.context(150s).get(), ar, &results[i]);
      });
    }
  }
  void join() {
    for (auto& t : waiters) t.join();
    waiters.clear();
  }
  ~awaited_jobs() { join(); }
};

// SIGHUP reopens the log file (logrotate's convention) and changes nothing else: the daemon used to
// die of it (exit 129) mid-job, leaving its socket behind.
TEST(ServeProcess, SighupReopensTheLogFileAndJobsCarryOn) {
  const fs::path dir = shared_fixture().dir;
  const fs::path log = dir / "serve.log", rotated = dir / "serve.log.1", config = dir / "child_log.toml";
  fs::remove(log);
  fs::remove(rotated);
  std::ofstream(config) << "[server]\ndrain_timeout_s = 60\n[log]\nlevel = \"info\"\nfile = \"" << log.string()
                        << "\"\n[engine]\nbackend = \"cpu\"\nhost_memory_mb = 1024\nhost_memory_margin_mb = 0\n";
  const fs::path sock = temp_socket("hup");
  serve_child d(config, sock);
  auto c = client::connect(unix_options(sock));
  ASSERT_THAT(c, IsOk());
  ASSERT_TRUE(d.ready(*c)) << "proofpipe serve did not come up";
  awaited_jobs jobs;
  jobs.submit(*c, 8, 32);
  std::this_thread::sleep_for(200ms);
  fs::rename(log, rotated);  // what logrotate does before it signals
  d.signal(SIGHUP);
  jobs.join();
  for (size_t i = 0; i < jobs.ids.size(); ++i) {
    ASSERT_TRUE(jobs.statuses[i].ok()) << jobs.statuses[i].error_code() << " " << jobs.statuses[i].error_message();
    EXPECT_EQ(jobs.results[i].state(), pb::JOB_STATE_SUCCEEDED) << jobs.results[i].error().message();
  }
  EXPECT_EQ(d.wait_exit(0s), -1) << "SIGHUP ended the daemon";
  pb::GetStatusResponse st;
  EXPECT_TRUE(c->stub().GetStatus(c->context(10s).get(), {}, &st).ok());
  ASSERT_TRUE(fs::exists(log)) << "SIGHUP did not reopen " << log;
  EXPECT_NE(read_file(log).find("SIGHUP"), std::string::npos) << read_file(log);
  EXPECT_NE(read_file(rotated).find("serving"), std::string::npos);
  d.signal(SIGTERM);
  EXPECT_EQ(d.wait_exit(60s), 0);
  EXPECT_FALSE(fs::exists(sock));
}

// A second SIGTERM ends unfinished jobs at once and tells every waiting client so (CANCELLED with an
// UNAVAILABLE cause, as docs/operations.md says) before the process exits and removes its socket; it
// used to exit 3 s later with the drain still waiting, the clients seeing "Socket closed".
TEST(ServeProcess, SecondSigtermAnswersEveryWaiterAndRemovesTheSocket) {
  const fs::path sock = temp_socket("term2");
  serve_child d(child_config(), sock);
  auto c = client::connect(unix_options(sock));
  ASSERT_THAT(c, IsOk());
  ASSERT_TRUE(d.ready(*c)) << "proofpipe serve did not come up";
  awaited_jobs jobs;
  jobs.submit(*c, 16, 128);  // far more than a few seconds of work
  std::this_thread::sleep_for(300ms);
  d.signal(SIGTERM);
  std::this_thread::sleep_for(300ms);
  d.signal(SIGTERM);
  jobs.join();
  int succeeded = 0, cancelled = 0;
  for (size_t i = 0; i < jobs.ids.size(); ++i) {
    ASSERT_TRUE(jobs.statuses[i].ok()) << "job " << jobs.ids[i] << ": " << jobs.statuses[i].error_code() << " "
                                       << jobs.statuses[i].error_message();
    if (jobs.results[i].state() == pb::JOB_STATE_SUCCEEDED) {
      ++succeeded;
      continue;
    }
    EXPECT_EQ(jobs.results[i].state(), pb::JOB_STATE_CANCELLED);
    EXPECT_EQ(jobs.results[i].error().code(), static_cast<int>(grpc::StatusCode::UNAVAILABLE))
        << jobs.results[i].error().message();
    ++cancelled;
  }
  EXPECT_GT(cancelled, 0) << "every job finished before the second signal: nothing was tested";
  EXPECT_EQ(d.wait_exit(30s), 1);
  EXPECT_FALSE(fs::exists(sock)) << "the socket file is removed on exit";
  std::printf("second SIGTERM: %d succeeded, %d cancelled\n", succeeded, cancelled);
}

// A TCP connection to 127.0.0.1:port that never sends a byte; -1 when it is not established within 1 s.
int idle_connection(int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 && errno != EINPROGRESS) {
    ::close(fd);
    return -1;
  }
  pollfd p{fd, POLLOUT, 0};
  int err = 0;
  socklen_t len = sizeof err;
  if (::poll(&p, 1, 1000) != 1 || ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len) != 0 || err != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

// The number after `what` ("tcp port ") in the daemon's "serving" line, waiting up to 60 s for it.
int port_in_log(const fs::path& log, const std::string& what) {
  for (int i = 0; i < 600; ++i) {
    const std::string text = read_file(log);
    if (const size_t at = text.find(what); at != std::string::npos) return std::atoi(text.c_str() + at + what.size());
    std::this_thread::sleep_for(100ms);
  }
  return 0;
}

// About 1,200 idle connections on the TCP gRPC port and 300 on the HTTP port, against a daemon
// limited to 1,100 file descriptors (the usual default is 1,024). libgrpc's own accept loop ran out
// of descriptors and never accepted again ("Failed accept4: Too many open files") while /status
// said healthy, and the HTTP pool queued every idle connection ahead of the scrape. With the caps
// (server.max_tcp_connections, server.max_http_connections) /metrics answers within 5 s, a TCP
// client with the token and a unix-socket client are served during the flood, and TCP after it.
TEST(ServeProcess, AFloodOfIdleConnectionsLeavesEveryPortAnswering) {
  const fs::path dir = shared_fixture().dir;
  const fs::path token = dir / "flood.token", cfg = dir / "flood.toml", log = dir / "flood.log";
  std::ofstream(token) << "flood-token\n";
  ::chmod(token.c_str(), 0600);
  std::ofstream(cfg) << "[server]\nlisten = \"127.0.0.1:0\"\ntoken_file = \"" << token.string()
                     << "\"\nhttp = \"127.0.0.1:0\"\ndrain_timeout_s = 5\n[log]\nlevel = \"info\"\n"
                        "[engine]\nbackend = \"cpu\"\nhost_memory_mb = 1024\nhost_memory_margin_mb = 0\n";
  fs::remove(log);
  const fs::path sock = temp_socket("flood");
  serve_child d(cfg, sock, log, 1100);
  auto local = client::connect(unix_options(sock));
  ASSERT_THAT(local, IsOk());
  ASSERT_TRUE(d.ready(*local)) << read_file(log);
  const int tcp = port_in_log(log, "tcp port ");
  const int http_port = port_in_log(log, "http port ");
  ASSERT_GT(tcp, 0) << read_file(log);
  ASSERT_GT(http_port, 0) << read_file(log);
  client_options remote;
  remote.target = "127.0.0.1:" + std::to_string(tcp);
  remote.token = "flood-token";
  // Whether a fresh TCP client is served within 10 s.
  auto tcp_answers = [&] {
    auto c = client::connect(remote);
    if (!c.ok()) return false;
    for (int i = 0; i < 5; ++i) {
      pb::GetStatusResponse st;
      if (c->stub().GetStatus(c->context(2s).get(), {}, &st).ok()) return true;
    }
    return false;
  };
  ASSERT_TRUE(tcp_answers()) << read_file(log);

  std::vector<int> flood;
  for (int i = 0; i < 1200; ++i) {
    if (const int fd = idle_connection(tcp); fd >= 0) flood.push_back(fd);
  }
  for (int i = 0; i < 300; ++i) {
    if (const int fd = idle_connection(http_port); fd >= 0) flood.push_back(fd);
  }
  std::this_thread::sleep_for(500ms);
  const auto t0 = std::chrono::steady_clock::now();
  const std::string metrics = http(http_port, "GET", "/metrics");
  const auto scrape = std::chrono::steady_clock::now() - t0;
  EXPECT_NE(metrics.find(" 200 "), std::string::npos) << metrics.substr(0, 200);
  EXPECT_LT(scrape, 5s) << "/metrics took " << std::chrono::duration<double>(scrape).count() << " s";
  EXPECT_TRUE(tcp_answers()) << "a TCP client with the token was not served during the flood";
  pb::GetStatusResponse st;
  EXPECT_TRUE(local->stub().GetStatus(local->context(5s).get(), {}, &st).ok()) << "the unix socket stopped answering";

  for (int fd : flood) ::close(fd);
  std::this_thread::sleep_for(1s);
  EXPECT_TRUE(tcp_answers()) << "the TCP port did not recover after the flood";
  d.signal(SIGTERM);
  EXPECT_GE(d.wait_exit(60s), 0);
  std::printf("flood: %zu connections held open\n", flood.size());
}

}  // namespace
}  // namespace pp::server
