// daemon: everything `proofpipe serve` runs, as an object tests can start in-process: the engine
// (from the [engine] config), the keys of [[keys]], the gRPC server (unix socket and/or TCP) over
// proof_service, and the HTTP listener. stop() drains or stops; wait() returns once all is down.
#pragma once
#include <condition_variable>
#include <memory>
#include <string>
#include <thread>

#include <grpcpp/server.h>

#include "cluster/cluster_engine.hpp"
#include "core/mutex.hpp"
#include "core/result.hpp"
#include "core/thread_annotations.hpp"
#include "engine/engine.hpp"
#include "server/grpc_tcp_gate.hpp"
#include "server/http_listener.hpp"
#include "server/proof_service.hpp"
#include "server/server_config.hpp"

namespace pp::server {

// engine_section -> engine_config: the section's own engine_config with the devices of its backend
// choice. failed_precondition for backend "cuda" in a build or on a machine without it.
[[nodiscard]] result<engine::engine_config> make_engine_config(const engine_section& e);

class daemon {
 public:
  // Validates the config again, creates the engine, registers (and preloads) the [[keys]], binds
  // every listener. Errors name what failed; nothing is left running on error.
  [[nodiscard]] static result<std::unique_ptr<daemon>> start(const server_config& config);
  ~daemon();  // stop(false) then wait()
  daemon(const daemon&) = delete;
  daemon& operator=(const daemon&) = delete;

  int tcp_port() const { return tcp_gate_ ? tcp_gate_->port() : 0; }  // 0 when TCP is off
  int http_port() const { return http_ ? http_->port() : 0; }
  const server_config& config() const { return config_; }
  proof_service& service() { return *service_; }

  // drain: refuse new work, let queued and running jobs finish (up to server.drain_timeout_s),
  // then close the listeners. !drain: end every unfinished job now (awaiting clients are told
  // CANCELLED with an UNAVAILABLE cause) and close. Non-blocking and thread-safe; a later call with
  // drain = false escalates a drain in progress.
  void stop(bool drain) PP_EXCLUDES(mu_);
  // Blocks until everything is down; the engine's shutdown status.
  status wait() PP_EXCLUDES(mu_);

 private:
  daemon() = default;
  void run_stop(bool drain) PP_EXCLUDES(mu_);

  server_config config_;
  std::unique_ptr<engine::engine> engine_;  // with [cluster]: a cluster_engine over the local one
  cluster::cluster_engine* cluster_ = nullptr;  // engine_ itself with [cluster], else null
  std::unique_ptr<proof_service> service_;
  std::unique_ptr<grpc::Server> grpc_;
  std::unique_ptr<grpc_tcp_gate> tcp_gate_;  // accepts the TCP port for grpc_ (null when TCP is off)
  std::unique_ptr<http_listener> http_;

  mutex mu_;
  std::condition_variable cv_;  // done_ became true
  bool stopping_ PP_GUARDED_BY(mu_) = false;
  bool escalated_ PP_GUARDED_BY(mu_) = false;
  bool done_ PP_GUARDED_BY(mu_) = false;
  status final_ PP_GUARDED_BY(mu_);
  // Started by stop(), joined by wait(): a stop() racing wait() must not assign one while wait()
  // joins it, so both are only touched under mu_ (wait() moves them out before joining).
  std::thread stopper_ PP_GUARDED_BY(mu_);
  std::thread escalator_ PP_GUARDED_BY(mu_);
};

}  // namespace pp::server
