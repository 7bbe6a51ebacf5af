// cluster_engine: the database is the only shared state. A claimer holds one partition at a time;
// between the local engine's await slices (a third of the lease) it renews the lease, and it stops
// the local proof as soon as the lease is lost or the job has ended elsewhere.
#include "cluster/cluster_engine.hpp"

#include <algorithm>
#include <optional>
#include <span>

#include <nlohmann/json.hpp>

#include "cluster/cluster_status.hpp"
#include "cluster/job_store.hpp"
#include "cluster/node_registry.hpp"
#include "cluster/schema.hpp"
#include "cluster/stored_proof.hpp"
#include "core/log.hpp"
#include "core/status_macros.hpp"
#include "engine/curves.hpp"
#include "engine/witness_file.hpp"
#include "formats/circom_r1cs.hpp"
#include "formats/circom_wtns.hpp"
#include "formats/snarkjs_zkey.hpp"
#include "groth16/verifier.hpp"

namespace pp::cluster {
namespace {

using std::chrono::milliseconds;

pp::engine::job_state from_state(const std::string& s) {
  if (s == "succeeded") return pp::engine::job_state::succeeded;
  if (s == "failed") return pp::engine::job_state::failed;
  if (s == "cancelled") return pp::engine::job_state::cancelled;
  return pp::engine::job_state::running;
}

// A .wtns over the curve its prime names, as the local engine takes it.
result<pp::engine::witness_source> parse_wtns(std::span<const uint8_t> bytes) {
  PP_ASSIGN_OR_RETURN(const ec::curve_id curve, formats::read_circom_wtns_curve(bytes));
  return ec::visit_curve(curve, [&]<class Family>() -> result<pp::engine::witness_source> {
    PP_ASSIGN_OR_RETURN(std::vector<typename Family::fr> v, formats::read_circom_wtns<typename Family::fr>(bytes));
    return pp::engine::witness_source::memory(std::move(v));
  });
}

// A partition's witness as the job's row stores it, and the curve of its values.
struct wtns_bytes {
  std::vector<uint8_t> bytes;
  ec::curve_id curve = ec::curve_id::bls12_381;
};

template <class Family>
result<wtns_bytes> memory_wtns(const pp::engine::witness_ptr<Family>& w) {
  if (!w) return invalid_argument("null witness");
  PP_ASSIGN_OR_RETURN(std::vector<uint8_t> bytes, formats::write_circom_wtns(*w));
  return wtns_bytes{std::move(bytes), ec::curve_id_of<Family>};
}

// A witness by path is read as the engine reads one (engine/witness_file.hpp): never waiting on a
// FIFO or a device, a regular file no larger than max_bytes, in chunks that `stop` interrupts.
result<wtns_bytes> witness_bytes(const pp::engine::witness_source& w, uint64_t max_bytes,
                                 const std::function<bool()>& stop) {
  using bls = ec::bls12_381::family;
  using bn = ec::bn254::family;
  if (const auto* m = std::get_if<pp::engine::witness_ptr<bls>>(&w.value)) return memory_wtns<bls>(*m);
  if (const auto* m = std::get_if<pp::engine::witness_ptr<bn>>(&w.value)) return memory_wtns<bn>(*m);
  const auto& path = std::get<std::filesystem::path>(w.value);
  auto f = pp::engine::witness_file::open(path, max_bytes);
  if (!f.ok()) return f.error();
  auto bytes = f->read_bytes(stop);
  if (!bytes.ok()) return bytes.error();
  if (auto parsed = parse_wtns(*bytes); !parsed.ok()) return parsed.error().with_context(path.string());
  PP_ASSIGN_OR_RETURN(const ec::curve_id curve, formats::read_circom_wtns_curve(*bytes));
  return wtns_bytes{std::move(*bytes), curve};
}

// The curve a key is for: a zkey's header says; bellperson parameters are BLS12-381's.
result<ec::curve_id> key_curve(const pp::engine::key_source& source) {
  if (const auto* z = std::get_if<pp::engine::zkey_file_source>(&source)) {
    return formats::read_snarkjs_zkey_curve_file(z->zkey);
  }
  if (std::holds_alternative<pp::engine::bn254::memory_key_source>(source)) return ec::curve_id::bn254;
  return ec::curve_id::bls12_381;
}

// A stored result checked with the key's verifying key; failed_precondition naming both curves when
// the result is of another curve than this node's key (nodes holding different keys under one id).
template <class Family, class Proved>
pp::status verify_stored(const std::string& key_id, const groth16::basic_verifying_key<Family>& vk,
                         const Proved& proved) {
  using proved_family = typename decltype(proved.proof)::family;
  if constexpr (std::is_same_v<proved_family, Family>) {
    return groth16::verify(vk, proved.public_inputs, proved.proof);
  } else {
    return failed_precondition("a " + ec::curve_text(ec::curve_id_of<proved_family>) + " proof, key '" + key_id +
                               "' on this node is for " + ec::curve_text(ec::curve_id_of<Family>));
  }
}

// The largest .wtns file a key's circuit allows, from the key's header alone.
result<uint64_t> witness_bound(const pp::engine::key_source& source) {
  uint64_t variables = 0;
  if (const auto* z = std::get_if<pp::engine::zkey_file_source>(&source)) {
    PP_ASSIGN_OR_RETURN(variables, formats::read_snarkjs_zkey_num_variables_file(z->zkey));
  } else if (const auto* b = std::get_if<pp::engine::bellperson_file_source>(&source)) {
    PP_ASSIGN_OR_RETURN(variables, formats::read_circom_r1cs_num_wires_file(b->r1cs));
  } else if (const auto* m = std::get_if<pp::engine::memory_key_source>(&source); m && m->cs) {
    variables = m->cs->num_variables();
  } else if (const auto* b = std::get_if<pp::engine::bn254::memory_key_source>(&source); b && b->cs) {
    variables = b->cs->num_variables();
  }
  return pp::engine::max_wtns_file_bytes(variables);
}

}  // namespace

status validate(const cluster_config& c) {
  if (c.database.empty()) return invalid_argument("cluster.database: required (a libpq connection string or URI)");
  if (c.node.empty() || c.node.size() > 128) {
    return invalid_argument("cluster.node: expected a name of 1 to 128 characters, got \"" + c.node + "\"");
  }
  if (c.lease.count() < 3) return invalid_argument("cluster.lease_s: expected at least 3 seconds");
  if (c.poll.count() < 1) return invalid_argument("cluster.poll_ms: expected at least 1");
  if (c.unserved_job.count() < 1) return invalid_argument("cluster.unserved_job_s: expected at least 1");
  if (!c.shared_dir.empty() && !std::filesystem::path(c.shared_dir).is_absolute()) {
    return invalid_argument("cluster.shared_dir: \"" + c.shared_dir + "\" must be absolute");
  }
  return ok_status();
}

// A session leased from pool_; back to the pool on destruction.
class cluster_engine::pooled_session {
 public:
  pooled_session(cluster_engine& e, std::unique_ptr<db_session> s) : e_(e), s_(std::move(s)) {}
  ~pooled_session() {
    pp::mutex_lock lock(e_.pool_mu_);
    e_.pool_.push_back(std::move(s_));
    e_.pool_cv_.notify_one();
  }
  db_session* operator->() { return s_.get(); }

 private:
  cluster_engine& e_;
  std::unique_ptr<db_session> s_;
};

cluster_engine::pooled_session cluster_engine::session() {
  pp::mutex_lock lock(pool_mu_);
  lock.wait(pool_cv_, [this]() PP_REQUIRES(pool_mu_) { return !pool_.empty() || pool_open_ < max_api_sessions; });
  if (pool_.empty()) {
    ++pool_open_;
    return {*this, std::make_unique<db_session>(config_.database, &meter_)};
  }
  auto s = std::move(pool_.back());
  pool_.pop_back();
  return {*this, std::move(s)};
}

cluster_engine::cluster_engine(std::unique_ptr<pp::engine::engine> local, cluster_config config)
    : local_(std::move(local)), config_(std::move(config)), witnesses_(config_.shared_dir, config_.inline_witness_bytes) {}

result<std::unique_ptr<cluster_engine>> cluster_engine::create(std::unique_ptr<pp::engine::engine> local, cluster_config config) {
  if (pp::status s = validate(config); !s.ok()) return s;
  auto log = pp::log::get("cluster");
  std::unique_ptr<cluster_engine> e(new cluster_engine(std::move(local), std::move(config)));
  const cluster_config& c = e->config_;
  PP_RETURN_IF_ERROR(e->witnesses_.check_writable(c.node));
  int version = 0;
  int released = 0;
  {
    auto db = e->session();
    pp::status s = db->run("start-up", [&](pqxx::connection& conn) {
      version = apply_migrations(conn);
      register_node(conn, c.node, c.lease, node_report{});
      released = release_node_claims(conn, c.node);
    });
    if (!s.ok()) return s.with_context("cluster.database");
  }
  const int ours = migrations().back().version;
  if (version > ours) {
    return failed_precondition("cluster.database: schema version " + std::to_string(version) +
                               " is newer than this proofpipe's (" + std::to_string(ours) + "); upgrade this node");
  }
  log->info("cluster node {} joined (schema version {}){}", c.node, version,
            released ? "; put back " + std::to_string(released) + " partitions its previous run held" : "");
  uint32_t claims = c.claims;
  if (claims == 0) {
    for (const auto& d : e->local_->status().devices) claims += d.workers;
    claims += 1;
  }
  for (uint32_t i = 0; i < claims; ++i) e->claimers_.emplace_back([p = e.get()] { p->claimer_loop(); });
  e->heartbeat_ = std::thread([p = e.get()] { p->heartbeat_loop(); });
  return e;
}

cluster_engine::~cluster_engine() { shutdown({.drain = false}).ignore(); }

pp::status cluster_engine::register_key(const std::string& id, pp::engine::key_source source) {
  std::string path;
  std::optional<any_verifying_key> vk;
  if (const auto* z = std::get_if<pp::engine::zkey_file_source>(&source)) path = z->zkey.string();
  if (const auto* m = std::get_if<pp::engine::memory_key_source>(&source); m && m->pk) {
    vk = std::make_shared<const groth16::verifying_key>(m->pk->vk);
  }
  if (const auto* m = std::get_if<pp::engine::bn254::memory_key_source>(&source); m && m->pk) {
    vk = std::make_shared<const groth16::bn254::verifying_key>(m->pk->vk);
  }
  auto curve = key_curve(source);
  if (!curve.ok()) return curve.error().with_context("register_key '" + id + "'");
  auto bound = witness_bound(source);
  if (!bound.ok()) return bound.error().with_context("register_key '" + id + "'");
  if (pp::status s = local_->register_key(id, std::move(source)); !s.ok()) return s;
  {
    pp::mutex_lock lock(keys_mu_);
    key_paths_[id] = path;
    key_bounds_[id] = *bound;
    key_curves_[id] = *curve;
    if (vk) verifying_keys_[id] = *vk;
  }
  // Other nodes see the key now rather than at the next heartbeat (a lease/3 later).
  pp::status published = session()->run("register key", [&](pqxx::connection& c) {
    pp::mutex_lock publishing(publish_mu_);
    heartbeat(c, config_.node, config_.lease, report());
  });
  if (!published.ok()) pp::log::get("cluster")->warn("key {}: {}; the next heartbeat publishes it", id, published.to_string());
  return ok_status();
}

node_report cluster_engine::report() const {
  node_report r;
  r.draining = draining_.load() || !claiming_.load();
  nlohmann::json devices = nlohmann::json::array();
  for (const auto& d : local_->status().devices) {
    devices.push_back({{"name", d.name}, {"kind", d.kind}, {"healthy", d.healthy}, {"workers", d.workers},
                       {"running", d.running}, {"partitions_done", d.partitions_done}});
  }
  r.devices_json = devices.dump();
  pp::mutex_lock lock(keys_mu_);
  r.keys = key_bounds_;
  for (const auto& [id, curve] : key_curves_) r.key_curves[id] = curve_column(curve);
  return r;
}

std::vector<std::string> cluster_engine::key_ids() const {
  pp::mutex_lock lock(keys_mu_);
  std::vector<std::string> ids;
  for (const auto& [id, path] : key_paths_) ids.push_back(id);
  return ids;
}

result<cluster_engine::any_verifying_key> cluster_engine::verifying_key_for(const std::string& key_id) {
  std::string path;
  ec::curve_id curve = ec::curve_id::bls12_381;
  {
    pp::mutex_lock lock(keys_mu_);
    if (auto it = verifying_keys_.find(key_id); it != verifying_keys_.end()) return it->second;
    auto p = key_paths_.find(key_id);
    if (p == key_paths_.end() || p->second.empty()) return not_found("key \"" + key_id + "\" is not registered on this node");
    path = p->second;
    curve = key_curves_.at(key_id);
  }
  auto vk = ec::visit_curve(curve, [&]<class Family>() -> result<any_verifying_key> {
    auto z = formats::read_snarkjs_zkey_file<Family>(path);
    if (!z.ok()) return z.error().with_context("verifying key of \"" + key_id + "\"");
    return any_verifying_key(std::make_shared<const groth16::basic_verifying_key<Family>>(z->pk.vk));
  });
  if (!vk.ok()) return vk.error();
  pp::mutex_lock lock(keys_mu_);
  verifying_keys_.emplace(key_id, *vk);
  return vk;
}

result<cluster_engine::key_limits> cluster_engine::limits_for(const std::string& key_id) {
  {
    pp::mutex_lock lock(keys_mu_);
    if (auto it = key_bounds_.find(key_id); it != key_bounds_.end()) {
      return key_limits{it->second, {key_curves_.at(key_id)}};
    }
  }
  std::optional<uint64_t> bound;
  std::vector<std::string> published;
  PP_RETURN_IF_ERROR(session()->run("submit", [&](pqxx::connection& c) {
    bound = live_witness_bound(c, key_id);
    published = live_key_curves(c, key_id);
  }));
  if (!bound) {
    return not_found("key \"" + key_id +
                     "\" is held by no live node of the cluster: register it on a node that is up (or start one that has it)");
  }
  key_limits out{*bound, {}};
  for (const std::string& name : published) {
    if (auto c = curve_from_column(name); c.ok()) out.curves.push_back(*c);
  }
  return out;
}

result<pp::engine::job_id> cluster_engine::submit(pp::engine::submit_request request) {
  if (!claiming_.load()) return unavailable("this cluster node is shutting down; submit to another node");
  if (request.key_id.empty()) return invalid_argument("key_id: required");
  if (request.witnesses.empty() || request.witnesses.size() > pp::engine::max_partitions) {
    return invalid_argument("witnesses: expected 1 to " + std::to_string(pp::engine::max_partitions) + " (one per partition), got " +
                            std::to_string(request.witnesses.size()));
  }
  // A witness file may be no larger than the key allows, and its values are over the key's curve: as
  // this node's key says, else as the live nodes holding the key publish (none: no node could prove
  // the job). A witness of the other curve is refused here, as the local engine words it.
  PP_ASSIGN_OR_RETURN(const key_limits limits, limits_for(request.key_id));
  std::vector<std::vector<uint8_t>> bytes;
  std::optional<ec::curve_id> curve;  // the job's: its first witness's
  for (size_t i = 0; i < request.witnesses.size(); ++i) {
    const std::string field = "witnesses[" + std::to_string(i) + "]";
    auto b = witness_bytes(request.witnesses[i], limits.witness_bytes, [this] { return !claiming_.load(); });
    if (!b.ok()) return b.error().with_context(field);
    const auto& key_curves = limits.curves;
    if (!key_curves.empty() && std::find(key_curves.begin(), key_curves.end(), b->curve) == key_curves.end()) {
      return invalid_argument(field + ": the witness holds " + ec::curve_text(b->curve) + " values, key '" +
                              request.key_id + "' is for " + ec::curve_text(key_curves.front()));
    }
    if (curve && b->curve != *curve) {
      return invalid_argument(field + ": the witness holds " + ec::curve_text(b->curve) + " values, witnesses[0] " +
                              ec::curve_text(*curve) + " ones: a job's witnesses are of its key's one curve");
    }
    curve = b->curve;
    bytes.push_back(std::move(b->bytes));
  }
  new_job job{request.key_id, static_cast<int>(request.prio), request.idempotency_key,
              static_cast<uint32_t>(bytes.size()), config_.node, curve_column(*curve)};
  result<submitted_job> out = internal_error("not run");
  auto db = session();
  pp::status s = db->run("submit", [&](pqxx::connection& c) {
    out = insert_job(c, job, [&](uint64_t id) -> result<std::vector<stored_witness>> {
      std::vector<stored_witness> stored;
      for (uint32_t p = 0; p < bytes.size(); ++p) {
        auto w = witnesses_.put(id, p, bytes[p]);
        if (!w.ok()) {
          std::vector<std::string> written;
          for (const stored_witness& s : stored) {
            if (!s.is_inline) written.push_back(s.path);
          }
          witnesses_.remove_job(id, written);
          return w.error().with_context("witnesses[" + std::to_string(p) + "]");
        }
        stored.push_back(std::move(*w));
      }
      return stored;
    });
  });
  if (!s.ok()) return s;
  if (!out.ok()) return out.error();
  return out->id;
}

result<pp::engine::job_result> cluster_engine::await(pp::engine::job_id id, pp::engine::deadline d) {
  while (true) {
    std::optional<job_row> job;
    std::vector<result_row> rows;
    pp::status s = session()->run("await", [&](pqxx::connection& c) {
      job = load_job(c, id);
      if (job && job->state == "succeeded") rows = load_results(c, id);
    });
    if (!s.ok()) return s;
    if (!job) return not_found("job " + std::to_string(id) + " is not in the cluster's database");
    if (job->state != "running") {
      pp::engine::job_result r;
      r.id = id;
      r.state = from_state(job->state);
      if (r.state != pp::engine::job_state::succeeded) r.error = pp::status(static_cast<status_code>(job->error_code), job->error);
      for (const result_row& row : rows) {
        auto stored = read_stored_proof(row);
        if (!stored.ok()) {
          return data_loss("job " + std::to_string(id) + " partition " + std::to_string(row.part) +
                           ": stored result unreadable: " + stored.error().to_string());
        }
        pp::engine::partition_result p;
        p.output = std::move(*stored);
        p.device = row.node + "/" + row.device;
        r.partitions.push_back(std::move(p));
      }
      return r;
    }
    const auto now = pp::engine::steady_clock::now();
    if (now >= d) return deadline_exceeded("job " + std::to_string(id) + " is still running");
    std::this_thread::sleep_for(std::min<pp::engine::steady_clock::duration>(config_.poll, d - now));
  }
}

pp::status cluster_engine::cancel(pp::engine::job_id id) {
  std::optional<std::string> state;
  std::vector<std::string> paths;
  auto db = session();
  PP_RETURN_IF_ERROR(db->run("cancel", [&](pqxx::connection& c) {
    state = cancel_job(c, id, "cancelled by a client (through node " + config_.node + ")");
    if (state == "cancelled") paths = witness_paths(c, id);
  }));
  if (!state) return not_found("job " + std::to_string(id) + " is not in the cluster's database");
  if (*state != "cancelled") return failed_precondition("job " + std::to_string(id) + " has already ended (" + *state + ")");
  witnesses_.remove_job(id, paths);
  return ok_status();
}

pp::status cluster_engine::forget(pp::engine::job_id id) {
  bool deleted = false;
  std::vector<std::string> paths;
  auto db = session();
  PP_RETURN_IF_ERROR(db->run("forget", [&](pqxx::connection& c) {
    paths = witness_paths(c, id);
    deleted = delete_job(c, id);
  }));
  if (!deleted) return failed_precondition("job " + std::to_string(id) + " is unknown or still running");
  witnesses_.remove_job(id, paths);
  return ok_status();
}

std::string cluster_engine::metrics_text() const {
  return label_with_node(local_->metrics_text(), config_.node) + cluster_metrics_text(counters_, meter_, config_.node);
}

std::string cluster_engine::cluster_status_json() {
  std::string out;
  auto db = session();
  pp::status s = db->run("cluster status", [&](pqxx::connection& c) { out = cluster::cluster_status_json(c); });
  if (!s.ok()) return nlohmann::json({{"error", s.to_string()}}).dump();
  return out;
}

void cluster_engine::nap(milliseconds d) {
  pp::mutex_lock lock(stop_mu_);
  lock.wait_for(stop_cv_, d, [this]() PP_REQUIRES(stop_mu_) { return stopped_ || !claiming_.load(); });
}

void cluster_engine::heartbeat_loop() {
  auto log = pp::log::get("cluster");
  db_session db(config_.database, &meter_);
  const milliseconds period = std::chrono::duration_cast<milliseconds>(config_.lease) / 3;
  while (true) {
    std::vector<std::string> expired;
    std::vector<uint64_t> unserved, ended_with_files;
    const bool stopping = !claiming_.load();
    const std::vector<uint64_t> stored = stopping ? std::vector<uint64_t>{} : witnesses_.stored_jobs();
    pp::status s = db.run("heartbeat", [&](pqxx::connection& c) {
      {
        pp::mutex_lock publishing(publish_mu_);
        heartbeat(c, config_.node, config_.lease, report());
      }
      if (!stopping) {
        expired = reclaim_expired(c);
        unserved = fail_unserved_jobs(c, config_.unserved_job);
        // Files of a job that ended while its remover died (or the remove raced a client reading
        // the end): the job's end is committed first, so these are never files still needed.
        ended_with_files = ended_jobs(c, stored);
      }
    });
    if (!s.ok()) log->warn("{}", s.to_string());
    for (const std::string& e : expired) log->warn("lease expired: partition {} back in the queue", e);
    for (const uint64_t job : unserved) {
      log->warn("job {} failed: its key is held by no node taking work (cluster.unserved_job_s)", job);
      remove_witnesses(db, job);
    }
    for (const uint64_t job : ended_with_files) remove_witnesses(db, job);
    counters_.reclaimed.fetch_add(expired.size());
    pp::mutex_lock lock(stop_mu_);
    if (lock.wait_for(stop_cv_, period, [this]() PP_REQUIRES(stop_mu_) { return stopped_; })) return;
  }
}

void cluster_engine::claimer_loop() {
  auto log = pp::log::get("cluster");
  db_session db(config_.database, &meter_);
  while (claiming_.load()) {
    const auto keys = key_ids();
    if (keys.empty()) {
      nap(config_.poll);
      continue;
    }
    std::optional<claim> cl;
    pp::status s = db.run("claim", [&](pqxx::connection& c) { cl = claim_next(c, config_.node, text_array(keys), config_.lease); });
    if (!s.ok()) {
      log->warn("{}", s.to_string());
      nap(std::max(config_.poll, milliseconds(1000)));
      continue;
    }
    if (!cl) {
      nap(config_.poll);
      continue;
    }
    counters_.active.fetch_add(1);
    work(db, *cl);
    counters_.active.fetch_sub(1);
  }
}

void cluster_engine::work(db_session& db, const claim& cl) {
  auto log = pp::log::get("cluster");
  const std::string where = "job " + std::to_string(cl.job) + " partition " + std::to_string(cl.part);
  uint64_t db_nanos = 0;
  // A database call on this partition's behalf, its time counted for the per-partition cost.
  auto timed = [&](std::string_view what, const std::function<void(pqxx::connection&)>& body) {
    const auto t0 = std::chrono::steady_clock::now();
    pp::status s = db.run(what, body);
    db_nanos += static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
    return s;
  };
  auto release = [&] {
    timed("release", [&](pqxx::connection& c) { release_claim(c, config_.node, cl.job, cl.part); }).ignore();
    counters_.released.fetch_add(1);
  };
  auto fail = [&](const pp::status& error) {
    log->warn("{} failed on {}: {}", where, config_.node, error.to_string());
    failure_outcome f;
    pp::status s = timed("fail", [&](pqxx::connection& c) { f = fail_partition(c, config_.node, cl, error); });
    if (!s.ok()) log->warn("{}: {}", where, s.to_string());
    counters_.failed.fetch_add(1);
    if (f.job_failed) remove_witnesses(db, cl.job);
  };

  auto bytes = witness_store::get(cl.witness, [this] { return abandon_.load(); });
  if (!bytes.ok()) return fail(bytes.error());
  auto w = parse_wtns(*bytes);
  if (!w.ok()) return fail(w.error().with_context("witness"));
  pp::engine::submit_request req;
  req.key_id = cl.key_id;
  req.prio = static_cast<pp::engine::priority>(cl.priority);
  req.witnesses.push_back(std::move(*w));
  auto local_id = local_->submit(std::move(req));
  if (!local_id.ok()) {
    if (local_id.error().code() == status_code::unavailable || local_id.error().code() == status_code::resource_exhausted) {
      release();
      nap(config_.poll);  // the local engine is full or stopping: do not take the partition straight back
      return;
    }
    return fail(local_id.error());
  }
  const milliseconds slice = std::chrono::duration_cast<milliseconds>(config_.lease) / 3;
  result<pp::engine::job_result> r = deadline_exceeded("not yet");
  while (true) {
    r = local_->await(*local_id, pp::engine::deadline_in(slice));
    if (r.ok() || r.error().code() != status_code::deadline_exceeded) break;
    if (abandon_.load()) {
      local_->cancel(*local_id).ignore();
      local_->forget(*local_id).ignore();
      return release();
    }
    lease_state held = lease_state::held;
    pp::status s = timed("renew lease", [&](pqxx::connection& c) { held = renew_lease(c, config_.node, cl.job, cl.part, config_.lease); });
    if (!s.ok()) log->warn("{}: {}", where, s.to_string());  // keep proving: the write is a no-op if the lease went
    if (held != lease_state::held) {
      log->info("{}: {}; stopping it here", where, held == lease_state::lost ? "lease lost" : "job ended elsewhere");
      local_->cancel(*local_id).ignore();
      local_->forget(*local_id).ignore();
      counters_.released.fetch_add(1);
      return;
    }
  }
  local_->forget(*local_id).ignore();
  if (!r.ok()) return fail(r.error());
  if (r->state == pp::engine::job_state::cancelled) return release();  // the local engine is shutting down
  if (r->state != pp::engine::job_state::succeeded || r->partitions.size() != 1) return fail(r->error);

  const pp::engine::partition_result& p = r->partitions.front();
  partition_output out = store_proof(p);
  out.device = p.device;
  // The verifying key is read before the transaction (it holds the job row's lock), and the
  // verification's time is not counted as database time.
  if (auto vk = verifying_key_for(cl.key_id); !vk.ok()) log->warn("{}: {}", where, vk.error().to_string());
  uint64_t verify_nanos = 0;
  completion done;
  pp::status s = timed("write result", [&](pqxx::connection& c) {
    done = complete_partition(c, config_.node, cl, out, [&](const std::vector<result_row>& rows) {
      const auto v0 = std::chrono::steady_clock::now();
      pp::status verified = verify_all(cl.key_id, rows);
      verify_nanos += static_cast<uint64_t>(
          std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - v0).count());
      return verified;
    });
  });
  db_nanos -= std::min(db_nanos, verify_nanos);
  if (!s.ok()) {
    log->warn("{}: result not written ({}); the lease will expire and another node proves it", where, s.to_string());
    return;
  }
  counters_.partition_db_nanos.fetch_add(db_nanos);
  (done.written ? counters_.proved : counters_.duplicates).fetch_add(1);
  if (done.assembled) {
    counters_.assembled.fetch_add(1);
    remove_witnesses(db, cl.job);
    log->debug("job {} {} (assembled on {})", cl.job, done.job_state, config_.node);
  }
}

void cluster_engine::remove_witnesses(db_session& db, uint64_t job) {
  std::vector<std::string> paths;
  if (pp::status s = db.run("witness paths", [&](pqxx::connection& c) { paths = witness_paths(c, job); }); !s.ok()) {
    pp::log::get("cluster")->warn("job {}: witness files not removed: {}", job, s.to_string());
    return;
  }
  witnesses_.remove_job(job, paths);
}

pp::status cluster_engine::verify_all(const std::string& key_id, const std::vector<result_row>& rows) {
  auto vk = verifying_key_for(key_id);
  if (!vk.ok()) return vk.error();
  for (const result_row& row : rows) {
    const std::string where = "partition " + std::to_string(row.part) + " (proved on " + row.node + ")";
    auto stored = read_stored_proof(row);
    if (!stored.ok()) return stored.error().with_context(where);
    const pp::status s = std::visit(
        [&](const auto& key, const auto& proved) { return verify_stored(key_id, *key, proved); }, *vk, *stored);
    if (!s.ok()) return s.with_context(where + " does not verify");
  }
  return ok_status();
}

pp::status cluster_engine::shutdown(pp::engine::shutdown_options options) {
  if (!options.drain) abandon_.store(true);
  bool later = false;
  {
    pp::mutex_lock lock(stop_mu_);
    later = shutdown_started_;
    shutdown_started_ = true;
    claiming_.store(false);
    stop_cv_.notify_all();
  }
  // A later call (a drain escalated to a stop, or the destructor): abandon_ makes the claimers give
  // their partitions back; the local engine ends its jobs now.
  if (later) return options.drain ? ok_status() : local_->shutdown(options);
  // Partitions in progress finish (drain, until options.until) or are given back (abandon_).
  std::thread watchdog([this, until = options.until] {
    pp::mutex_lock lock(stop_mu_);
    auto all_returned = [this]() PP_REQUIRES(stop_mu_) { return stopped_; };
    if (until == pp::engine::no_deadline()) {
      lock.wait(stop_cv_, all_returned);
    } else if (!lock.wait_until(stop_cv_, until, all_returned)) {
      abandon_.store(true);
    }
  });
  for (std::thread& t : claimers_) t.join();
  {
    pp::mutex_lock lock(stop_mu_);
    stopped_ = true;
    stop_cv_.notify_all();
  }
  watchdog.join();
  if (heartbeat_.joinable()) {  // not started when create() failed: the node never joined
    heartbeat_.join();
    db_session db(config_.database, &meter_);
    node_report leaving = report();
    leaving.draining = true;
    leaving.devices_json = "[]";
    db.run("leave", [&](pqxx::connection& c) { heartbeat(c, config_.node, config_.lease, leaving); }).ignore();
  }
  return local_->shutdown(options);
}

}  // namespace pp::cluster
