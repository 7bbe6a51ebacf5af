// proof_service: the proofpipe.v1 gRPC service, a thin adapter over engine::engine. It checks the
// bearer token on TCP, turns requests into engine calls and engine results into responses, and maps
// pp::status codes to gRPC codes by value. It owns no jobs: the engine does.
#pragma once
#include <atomic>
#include <functional>
#include <map>
#include <string>
#include <unordered_set>

#include "core/mutex.hpp"
#include "core/thread_annotations.hpp"
#include "engine/engine.hpp"
#include "server/proofpipe.grpc.pb.h"

namespace pp::server {

struct service_options {
  std::string token;          // required from non-unix peers; empty: TCP calls are refused
  uint32_t max_await_s = 3600;
  std::string version;
  // A cluster node's view of the cluster (JSON), added to status_json() as "cluster"; empty: none.
  std::function<std::string()> cluster_status;
  // Told the peer of every TCP call that carried the token (grpc_tcp_gate::authenticated); empty: none.
  std::function<void(std::string_view peer)> authenticated;
};

class proof_service final : public proofpipe::v1::ProofPipe::Service {
 public:
  proof_service(engine::engine& e, service_options options);

  // From now on submissions, registrations and preloads get UNAVAILABLE; awaits keep working.
  void set_draining() { draining_.store(true); }
  [[nodiscard]] bool draining() const { return draining_.load(); }

  // Registers a snarkjs zkey under `id` (empty: the canonical path). already_exists when the id is
  // taken by another path; *already is set when it is taken by this same path.
  [[nodiscard]] result<std::string> register_zkey(std::string id, const std::string& zkey_path, bool* already);
  // The same for a bellperson parameters file and the circom .r1cs it was made for (both absolute;
  // id empty: the parameters file's canonical path).
  [[nodiscard]] result<std::string> register_bellperson(std::string id, const std::string& params_path,
                                                        const std::string& r1cs_path, bool* already);
  // The engine's status() as JSON: the GetStatus engine_json and HTTP GET /status document.
  [[nodiscard]] std::string status_json() const;

  grpc::Status RegisterKey(grpc::ServerContext*, const proofpipe::v1::RegisterKeyRequest*,
                           proofpipe::v1::RegisterKeyResponse*) override;
  grpc::Status PreloadKey(grpc::ServerContext*, const proofpipe::v1::PreloadKeyRequest*,
                          proofpipe::v1::PreloadKeyResponse*) override;
  grpc::Status EvictKey(grpc::ServerContext*, const proofpipe::v1::EvictKeyRequest*,
                        proofpipe::v1::EvictKeyResponse*) override;
  grpc::Status SubmitProof(grpc::ServerContext*, const proofpipe::v1::SubmitProofRequest*,
                           proofpipe::v1::SubmitProofResponse*) override;
  grpc::Status AwaitProof(grpc::ServerContext*, const proofpipe::v1::AwaitProofRequest*,
                          proofpipe::v1::AwaitProofResponse*) override;
  grpc::Status Prove(grpc::ServerContext*, const proofpipe::v1::ProveRequest*,
                     proofpipe::v1::AwaitProofResponse*) override;
  grpc::Status CancelProof(grpc::ServerContext*, const proofpipe::v1::CancelProofRequest*,
                           proofpipe::v1::CancelProofResponse*) override;
  grpc::Status GetStatus(grpc::ServerContext*, const proofpipe::v1::GetStatusRequest*,
                         proofpipe::v1::GetStatusResponse*) override;
  grpc::Status GetMetrics(grpc::ServerContext*, const proofpipe::v1::GetMetricsRequest*,
                          proofpipe::v1::GetMetricsResponse*) override;

 private:
  grpc::Status authorize(const grpc::ServerContext* ctx) const;
  grpc::Status refuse_if_draining(std::string_view what) const;
  result<engine::submit_request> to_engine(const proofpipe::v1::SubmitProofRequest& r) const;
  // Waits for the job in short slices until `until`, a cancelled call, or a terminal state.
  // deadline_exceeded when `until` passed first, cancelled when the client went away.
  result<engine::job_result> wait_for(grpc::ServerContext* ctx, engine::job_id id, engine::deadline until);
  engine::deadline await_deadline(const grpc::ServerContext* ctx, uint32_t timeout_ms) const;
  // Registers source under id (empty: `files`), idempotent for the same files.
  result<std::string> register_source(std::string id, const std::string& files, engine::key_source source,
                                      bool* already);

  engine::engine& engine_;
  const service_options options_;
  std::atomic<bool> draining_{false};
  mutex keys_mu_;
  // id -> the key's files (the zkey path; bellperson: "params (r1cs)"), for idempotent RegisterKey
  std::map<std::string, std::string> key_paths_ PP_GUARDED_BY(keys_mu_);
  // ids returned for submissions with a key
  std::unordered_set<engine::job_id> idempotent_jobs_ PP_GUARDED_BY(keys_mu_);
};

}  // namespace pp::server
