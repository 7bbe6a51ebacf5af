// proof_service: request -> engine call -> response. Each handler authorizes, validates its
// request into engine types (errors name the field), calls the engine and maps the status by value.
#include "server/proof_service.hpp"

#include <algorithm>
#include <filesystem>
#include <span>
#include <variant>

#include <nlohmann/json.hpp>

#include "core/file_type.hpp"
#include "core/status_macros.hpp"
#include "ec/curve_id.hpp"
#include "formats/bellperson_proof.hpp"
#include "formats/circom_wtns.hpp"
#include "formats/snarkjs_json.hpp"
#include "server/grpc_status.hpp"

namespace pp::server {
namespace pb = proofpipe::v1;
using std::chrono::milliseconds;

namespace {

// Constant-time comparison, so the token cannot be guessed byte by byte from response times.
bool same_token(std::string_view a, std::string_view b) {
  unsigned char diff = a.size() == b.size() ? 0 : 1;
  for (size_t i = 0; i < a.size(); ++i) diff |= static_cast<unsigned char>(a[i] ^ b[i % std::max<size_t>(b.size(), 1)]);
  return diff == 0 && !b.empty();
}

result<engine::priority> to_engine(pb::Priority p) {
  switch (p) {
    case pb::PRIORITY_UNSPECIFIED:
    case pb::PRIORITY_NORMAL: return engine::priority::normal;
    case pb::PRIORITY_LOW: return engine::priority::low;
    case pb::PRIORITY_HIGH: return engine::priority::high;
    case pb::PRIORITY_CRITICAL: return engine::priority::critical;
    default: return invalid_argument("priority: unknown value " + std::to_string(static_cast<int>(p)));
  }
}

pb::JobState to_proto(engine::job_state s) {
  switch (s) {
    case engine::job_state::queued: return pb::JOB_STATE_RUNNING;  // the engine's await does not tell them apart
    case engine::job_state::running: return pb::JOB_STATE_RUNNING;
    case engine::job_state::succeeded: return pb::JOB_STATE_SUCCEEDED;
    case engine::job_state::failed: return pb::JOB_STATE_FAILED;
    case engine::job_state::cancelled: return pb::JOB_STATE_CANCELLED;
  }
  return pb::JOB_STATE_UNSPECIFIED;
}

double seconds(std::chrono::nanoseconds d) { return std::chrono::duration<double>(d).count(); }

void fill(const engine::job_result& r, pb::AwaitProofResponse* out) {
  out->set_job_id(r.id);
  out->set_state(to_proto(r.state));
  if (!r.error.ok()) {
    out->mutable_error()->set_code(static_cast<int>(r.error.code()));
    out->mutable_error()->set_message(r.error.message());
  }
  for (const engine::partition_result& p : r.partitions) {
    pb::PartitionProof* pp = out->add_proofs();
    std::visit(
        [&](const auto& proved) {
          pp->set_proof_json(formats::write_snarkjs_proof_json(proved.proof));
          pp->set_public_json(formats::write_snarkjs_public_json(proved.public_inputs));
        },
        p.output);
    // bellperson's encoding is BLS12-381's: a BN254 proof has no raw bytes (proofpipe.proto).
    if (const auto* bls = p.as<ec::bls12_381::family>()) {
      const auto raw = formats::write_bellperson_proof(bls->proof);
      pp->set_raw(raw.data(), raw.size());
    }
    pp->set_device(p.device);
    for (const engine::stage_timing& t : p.stages) {
      pb::StageTiming* st = pp->add_stages();
      st->set_stage(t.stage);
      st->set_queued_seconds(seconds(t.queued));
      st->set_elapsed_seconds(seconds(t.elapsed));
    }
  }
}

// A .wtns sent inline, over the curve its prime names; the engine refuses one whose curve is not
// its key's, naming both.
result<engine::witness_source> read_wtns(std::span<const uint8_t> bytes) {
  PP_ASSIGN_OR_RETURN(const ec::curve_id curve, formats::read_circom_wtns_curve(bytes));
  return ec::visit_curve(curve, [&]<class Family>() -> result<engine::witness_source> {
    PP_ASSIGN_OR_RETURN(std::vector<typename Family::fr> v, formats::read_circom_wtns<typename Family::fr>(bytes));
    return engine::witness_source::memory(std::move(v));
  });
}

status unknown_job(engine::job_id id, const status& s) {
  return not_found("job " + std::to_string(id) +
                   " is unknown to this daemon: it was never submitted here, its result was dropped after "
                   "retention, or it was lost when the daemon restarted (submit it again)" +
                   (s.message().empty() ? std::string() : " [" + s.message() + "]"));
}

}  // namespace

proof_service::proof_service(engine::engine& e, service_options options) : engine_(e), options_(std::move(options)) {}

grpc::Status proof_service::authorize(const grpc::ServerContext* ctx) const {
  if (ctx->peer().starts_with("unix:")) return grpc::Status::OK;  // the socket's file mode is the access control
  const auto& md = ctx->client_metadata();
  const auto it = md.find("authorization");
  if (it == md.end()) {
    return {grpc::StatusCode::UNAUTHENTICATED, "TCP calls need the metadata \"authorization: Bearer <token>\""};
  }
  const std::string_view v(it->second.data(), it->second.size());
  constexpr std::string_view bearer = "Bearer ";
  if (!v.starts_with(bearer) || !same_token(v.substr(bearer.size()), options_.token)) {
    return {grpc::StatusCode::UNAUTHENTICATED, "bad bearer token"};
  }
  if (options_.authenticated) options_.authenticated(ctx->peer());
  return grpc::Status::OK;
}

grpc::Status proof_service::refuse_if_draining(std::string_view what) const {
  if (!draining()) return grpc::Status::OK;
  return {grpc::StatusCode::UNAVAILABLE,
          std::string(what) + " refused: the daemon is shutting down (draining); retry against another daemon or "
                              "after the restart"};
}

#define PP_GRPC_TRY(expr)                          \
  do {                                             \
    if (grpc::Status s_ = (expr); !s_.ok()) return s_; \
  } while (0)

namespace {

// An absolute path, canonical when it can be made so; `field` names it in the error.
result<std::string> daemon_path(const char* field, const std::string& path, const char* what) {
  if (path.empty()) return invalid_argument(std::string(field) + ": required (" + what + " the daemon can read)");
  // Before canonicalizing: weakly_canonical would resolve the part before a NUL and drop the rest.
  if (status s = refuse_embedded_nul(path); !s.ok()) return s.with_context(field);
  if (!std::filesystem::path(path).is_absolute()) {
    return invalid_argument(std::string(field) + ": \"" + path +
                            "\" must be absolute (the daemon's working directory is not the client's)");
  }
  std::error_code ec;
  const std::string canonical = std::filesystem::weakly_canonical(path, ec).string();
  return ec ? path : canonical;
}

}  // namespace

result<std::string> proof_service::register_zkey(std::string id, const std::string& zkey_path, bool* already) {
  PP_ASSIGN_OR_RETURN(const std::string path, daemon_path("zkey_path", zkey_path, "a snarkjs .zkey"));
  return register_source(std::move(id), path, engine::zkey_file_source{path}, already);
}

result<std::string> proof_service::register_bellperson(std::string id, const std::string& params_path,
                                                       const std::string& r1cs_path, bool* already) {
  PP_ASSIGN_OR_RETURN(const std::string params, daemon_path("params", params_path, "a bellperson parameters file"));
  PP_ASSIGN_OR_RETURN(const std::string r1cs, daemon_path("r1cs", r1cs_path, "the circom .r1cs of the parameters"));
  if (id.empty()) id = params;
  return register_source(std::move(id), params + " (" + r1cs + ")", engine::bellperson_file_source{params, r1cs},
                         already);
}

result<std::string> proof_service::register_source(std::string id, const std::string& files,
                                                   engine::key_source source, bool* already) {
  if (id.empty()) id = files;
  mutex_lock lock(keys_mu_);
  if (const auto it = key_paths_.find(id); it != key_paths_.end()) {
    if (it->second == files) {
      *already = true;
      return id;
    }
    return already_exists("key_id: \"" + id + "\" is already registered for " + it->second);
  }
  if (status s = engine_.register_key(id, std::move(source)); !s.ok()) return s;
  key_paths_.emplace(id, files);
  *already = false;
  return id;
}

grpc::Status proof_service::RegisterKey(grpc::ServerContext* ctx, const pb::RegisterKeyRequest* req,
                                        pb::RegisterKeyResponse* resp) {
  PP_GRPC_TRY(authorize(ctx));
  PP_GRPC_TRY(refuse_if_draining("RegisterKey"));
  bool already = false;
  auto id = register_zkey(req->key_id(), req->zkey_path(), &already);
  if (!id.ok()) return to_grpc(id.error());
  resp->set_key_id(*id);
  resp->set_already_registered(already);
  for (const engine::key_status& k : engine_.status().keys) {
    if (k.id == *id) resp->set_curve(std::string(ec::snarkjs_curve_name(k.curve)));
  }
  return grpc::Status::OK;
}

grpc::Status proof_service::PreloadKey(grpc::ServerContext* ctx, const pb::PreloadKeyRequest* req, pb::PreloadKeyResponse*) {
  PP_GRPC_TRY(authorize(ctx));
  PP_GRPC_TRY(refuse_if_draining("PreloadKey"));
  return to_grpc(engine_.preload_key(req->key_id(), await_deadline(ctx, options_.max_await_s * 1000)));
}

grpc::Status proof_service::EvictKey(grpc::ServerContext* ctx, const pb::EvictKeyRequest* req, pb::EvictKeyResponse*) {
  PP_GRPC_TRY(authorize(ctx));
  return to_grpc(engine_.evict_key(req->key_id()));
}

result<engine::submit_request> proof_service::to_engine(const pb::SubmitProofRequest& r) const {
  engine::submit_request out;
  if (r.key_id().empty()) return invalid_argument("key_id: required");
  out.key_id = r.key_id();
  auto prio = server::to_engine(r.priority());
  if (!prio.ok()) return prio.error();
  out.prio = *prio;
  out.idempotency_key = r.idempotency_key();
  if (r.witnesses_size() == 0) return invalid_argument("witnesses: at least one (one per partition) is required");
  for (int i = 0; i < r.witnesses_size(); ++i) {
    const pb::Witness& w = r.witnesses(i);
    const std::string field = "witnesses[" + std::to_string(i) + "]";
    switch (w.source_case()) {
      case pb::Witness::kWtns: {
        const auto& b = w.wtns();
        auto v = read_wtns(std::span(reinterpret_cast<const uint8_t*>(b.data()), b.size()));
        if (!v.ok()) return v.error().with_context(field + ".wtns");
        out.witnesses.push_back(std::move(*v));
        break;
      }
      case pb::Witness::kPath:
        if (!std::filesystem::path(w.path()).is_absolute()) {
          return invalid_argument(field + ".path: \"" + w.path() + "\" must be absolute (the daemon reads it)");
        }
        out.witnesses.push_back(engine::witness_source::file(w.path()));
        break;
      default: return invalid_argument(field + ": set wtns (bytes) or path");
    }
  }
  return out;
}

grpc::Status proof_service::SubmitProof(grpc::ServerContext* ctx, const pb::SubmitProofRequest* req,
                                        pb::SubmitProofResponse* resp) {
  PP_GRPC_TRY(authorize(ctx));
  PP_GRPC_TRY(refuse_if_draining("SubmitProof"));
  auto sr = to_engine(*req);
  if (!sr.ok()) return to_grpc(sr.error());
  const bool idempotent = !req->idempotency_key().empty();
  auto id = engine_.submit(std::move(*sr));
  if (!id.ok()) return to_grpc(id.error());
  resp->set_job_id(*id);
  // The engine returns the first job's id for a repeated idempotency key without saying so: an id
  // this service already handed out for an idempotent submission is a deduplicated one.
  if (idempotent) {
    mutex_lock lock(keys_mu_);
    resp->set_deduplicated(!idempotent_jobs_.insert(*id).second);
  }
  return grpc::Status::OK;
}

engine::deadline proof_service::await_deadline(const grpc::ServerContext* ctx, uint32_t timeout_ms) const {
  const uint64_t cap_ms = uint64_t{options_.max_await_s} * 1000;
  const uint64_t ms = std::min<uint64_t>(timeout_ms, cap_ms);
  engine::deadline d = engine::deadline_in(milliseconds(ms));
  const auto call = ctx->deadline();
  if (call != std::chrono::system_clock::time_point::max()) {
    const auto left = call - std::chrono::system_clock::now();
    d = std::min(d, engine::steady_clock::now() + std::chrono::duration_cast<engine::steady_clock::duration>(left));
  }
  return d;
}

result<engine::job_result> proof_service::wait_for(grpc::ServerContext* ctx, engine::job_id id, engine::deadline until) {
  while (true) {
    const engine::deadline slice = std::min(until, engine::deadline_in(milliseconds(200)));
    auto r = engine_.await(id, slice);
    if (r.ok()) return r;
    if (r.error().code() != status_code::deadline_exceeded) return r;
    if (ctx->IsCancelled()) return cancelled("the client cancelled the call");
    if (engine::steady_clock::now() >= until) return r;
  }
}

grpc::Status proof_service::AwaitProof(grpc::ServerContext* ctx, const pb::AwaitProofRequest* req,
                                       pb::AwaitProofResponse* resp) {
  PP_GRPC_TRY(authorize(ctx));
  const engine::job_id id = req->job_id();
  auto r = req->timeout_ms() == 0 ? engine_.await(id, engine::immediate())
                                  : wait_for(ctx, id, await_deadline(ctx, req->timeout_ms()));
  if (r.ok()) {
    fill(*r, resp);
    return grpc::Status::OK;
  }
  switch (r.error().code()) {
    case status_code::deadline_exceeded:  // not finished yet: a successful answer
      resp->set_job_id(id);
      resp->set_state(pb::JOB_STATE_RUNNING);
      return grpc::Status::OK;
    case status_code::not_found: return to_grpc(unknown_job(id, r.error()));
    default: return to_grpc(r.error());
  }
}

grpc::Status proof_service::Prove(grpc::ServerContext* ctx, const pb::ProveRequest* req, pb::AwaitProofResponse* resp) {
  PP_GRPC_TRY(authorize(ctx));
  PP_GRPC_TRY(refuse_if_draining("Prove"));
  auto sr = to_engine(req->submit());
  if (!sr.ok()) return to_grpc(sr.error());
  auto id = engine_.submit(std::move(*sr));
  if (!id.ok()) return to_grpc(id.error());
  const uint32_t timeout_ms = req->timeout_ms() == 0 ? options_.max_await_s * 1000 : req->timeout_ms();
  auto r = wait_for(ctx, *id, await_deadline(ctx, timeout_ms));
  if (!r.ok()) {
    engine_.cancel(*id).ignore();  // nobody will await it
    if (r.error().code() == status_code::deadline_exceeded) {
      return {grpc::StatusCode::DEADLINE_EXCEEDED, "job " + std::to_string(*id) + " did not finish in time; cancelled"};
    }
    return to_grpc(r.error().with_context("job " + std::to_string(*id)));
  }
  fill(*r, resp);
  if (r->state != engine::job_state::succeeded) return to_grpc(r->error);
  return grpc::Status::OK;
}

grpc::Status proof_service::CancelProof(grpc::ServerContext* ctx, const pb::CancelProofRequest* req,
                                        pb::CancelProofResponse* resp) {
  PP_GRPC_TRY(authorize(ctx));
  const engine::job_id id = req->job_id();
  const status s = engine_.cancel(id);
  if (s.ok()) {
    resp->set_state(pb::JOB_STATE_CANCELLED);
    return grpc::Status::OK;
  }
  if (s.code() == status_code::failed_precondition) {  // already ended: report how
    auto r = engine_.await(id, engine::immediate());
    if (r.ok()) {
      resp->set_state(to_proto(r->state));
      return grpc::Status::OK;
    }
  }
  if (s.code() == status_code::not_found) return to_grpc(unknown_job(id, s));
  return to_grpc(s);
}

std::string proof_service::status_json() const {
  const engine::engine_status st = engine_.status();
  nlohmann::json j;
  j["version"] = options_.version;
  j["accepting"] = st.accepting && !draining();
  j["draining"] = draining();
  j["jobs"] = {{"in_flight", st.jobs_in_flight}, {"retained", st.jobs_retained}, {"succeeded", st.jobs_succeeded},
               {"failed", st.jobs_failed}, {"cancelled", st.jobs_cancelled}};
  j["queues"] = nlohmann::json::array();
  for (const auto& q : st.queues) j["queues"].push_back({{"stage", q.stage}, {"depth", q.depth}, {"capacity", q.capacity}});
  j["devices"] = nlohmann::json::array();
  for (const auto& d : st.devices) {
    std::vector<std::string> curves;
    for (const ec::curve_id c : d.curves) curves.emplace_back(ec::snarkjs_curve_name(c));
    j["devices"].push_back({{"name", d.name}, {"kind", d.kind}, {"healthy", d.healthy}, {"fault", d.fault},
                            {"workers", d.workers}, {"running", d.running}, {"queued", d.queued},
                            {"partitions_done", d.partitions_done}, {"failures", d.failures},
                            {"busy_fraction", d.busy_fraction}, {"recent_keys", d.recent_keys},
                            {"curves", curves}});
  }
  const auto& m = st.memory;
  j["memory"] = {{"total", m.total}, {"keys_total", m.keys_total}, {"keys_in_use", m.keys_in_use},
                 {"partitions_total", m.partitions_total}, {"partitions_in_use", m.partitions_in_use},
                 {"partitions_peak", m.partitions_peak}, {"waiters", m.waiters},
                 {"bytes_per_partition_hint", m.bytes_per_partition_hint}};
  j["keys"] = nlohmann::json::array();
  for (const auto& k : st.keys) {
    j["keys"].push_back({{"id", k.id}, {"curve", ec::snarkjs_curve_name(k.curve)}, {"resident", k.resident},
                         {"in_use", k.in_use}, {"bytes", k.bytes}});
  }
  if (options_.cluster_status) j["cluster"] = nlohmann::json::parse(options_.cluster_status(), nullptr, false);
  return j.dump(1);
}

grpc::Status proof_service::GetStatus(grpc::ServerContext* ctx, const pb::GetStatusRequest*, pb::GetStatusResponse* resp) {
  PP_GRPC_TRY(authorize(ctx));
  const engine::engine_status st = engine_.status();
  resp->set_version(options_.version);
  std::string backend = "cpu";
  for (const auto& d : st.devices) {
    if (d.kind != "cpu") backend = d.kind;
  }
  resp->set_backend(backend);
  resp->set_draining(draining());
  resp->set_engine_json(status_json());
  resp->set_jobs_in_flight(st.jobs_in_flight);
  return grpc::Status::OK;
}

grpc::Status proof_service::GetMetrics(grpc::ServerContext* ctx, const pb::GetMetricsRequest*, pb::GetMetricsResponse* resp) {
  PP_GRPC_TRY(authorize(ctx));
  resp->set_prometheus_text(engine_.metrics_text());
  return grpc::Status::OK;
}

}  // namespace pp::server
