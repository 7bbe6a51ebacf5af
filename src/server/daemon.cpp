// daemon: start-up in dependency order (engine, keys, gRPC, HTTP) and shutdown in reverse, on a
// stopper thread so that a signal handler thread only has to call stop().
#include "server/daemon.hpp"

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <optional>

#include <grpcpp/grpcpp.h>
#include <grpcpp/resource_quota.h>

#include "core/log.hpp"
#include "core/status_macros.hpp"
#include "devices/gpu_devices.hpp"
#include "engine/device_choice.hpp"
#include "server/client.hpp"
#include "server/fd_headroom.hpp"
#include "server/tcp_acceptor.hpp"

#ifndef PP_VERSION
#define PP_VERSION "0.0.0"
#endif

namespace pp::server {
namespace {

constexpr uint64_t mib = uint64_t{1} << 20;
// A gRPC connection with no call in flight is closed after this: clients reconnect on their next
// call, and the descriptors of connections nobody uses come back.
constexpr std::chrono::milliseconds max_connection_idle = std::chrono::minutes(5);

// A leftover socket file from a daemon that died is removed; a live one is an error.
status clear_stale_socket(const std::string& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) return ok_status();
  if (!S_ISSOCK(st.st_mode)) {
    return failed_precondition("server.socket: " + path + " exists and is not a socket; refusing to replace it");
  }
  const int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_un addr{};
  addr.sun_family = AF_UNIX;
  std::strncpy(addr.sun_path, path.c_str(), sizeof addr.sun_path - 1);
  const bool live = fd >= 0 && ::connect(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  if (fd >= 0) ::close(fd);
  if (live) return failed_precondition("server.socket: another daemon is listening on " + path);
  if (::unlink(path.c_str()) != 0) {
    return failed_precondition("server.socket: cannot remove the stale socket " + path + ": " + std::strerror(errno));
  }
  return ok_status();
}

}  // namespace

result<engine::engine_config> make_engine_config(const engine_section& e) {
  engine::engine_config c = e.config;
  if (auto chosen = engine::choose_devices(e.backend, e.workers_per_device, e.gpu, c); !chosen.ok()) {
    return chosen.error().with_context("engine.backend");
  }
  return c;
}

result<std::unique_ptr<daemon>> daemon::start(const server_config& config) {
  if (status s = validate(config); !s.ok()) return s;
  auto log = pp::log::get("server");
  std::unique_ptr<daemon> d(new daemon());
  d->config_ = config;
  const listen_config& lc = config.server;
  auto fds = ensure_fd_headroom(fds_needed(lc));
  if (!fds.ok()) return fds.error();

  service_options so;
  so.max_await_s = lc.max_await_s;
  so.version = PP_VERSION;
  if (!lc.listen.empty()) {
    auto t = read_token_file(lc.token_file);
    if (!t.ok()) return t.error().with_context("server.token_file");
    so.token = std::move(*t);
    // The token grants every RPC over TCP: say so when others can read it (accepted anyway, as ssh
    // does not for keys, because a shared group may be deliberate).
    if (struct stat st {}; ::stat(lc.token_file.c_str(), &st) == 0 && (st.st_mode & 077) != 0) {
      log->warn("server.token_file {} has mode {:04o}: other users can read the bearer token; chmod 600 it",
                lc.token_file, st.st_mode & 07777);
    }
  }

  auto ec = make_engine_config(config.engine);
  if (!ec.ok()) return ec.error();
  auto eng = engine::engine::create(std::move(*ec));
  if (!eng.ok()) return eng.error().with_context("engine");
  d->engine_ = std::move(*eng);
  if (config.cluster.enabled) {
    auto c = cluster::cluster_engine::create(std::move(d->engine_), config.cluster.config);
    if (!c.ok()) return c.error().with_context("cluster");
    d->cluster_ = c->get();
    d->engine_ = std::move(*c);
    so.cluster_status = [c = d->cluster_] { return c->cluster_status_json(); };
  }
  // Bound before the keys load, so a port already taken fails the start at once.
  std::optional<tcp_acceptor> tcp;
  if (!lc.listen.empty()) {
    auto a = tcp_acceptor::listen(lc.listen, "server.listen");
    if (!a.ok()) return a.error();
    tcp.emplace(std::move(a).value());
    so.authenticated = [p = d.get()](std::string_view peer) {
      if (p->tcp_gate_) p->tcp_gate_->authenticated(peer);
    };
  }
  d->service_ = std::make_unique<proof_service>(*d->engine_, so);

  for (size_t i = 0; i < config.keys.size(); ++i) {
    const key_entry& k = config.keys[i];
    const std::string where = "keys[" + std::to_string(i) + "] (\"" + k.id + "\")";
    bool already = false;
    auto id = k.params.empty() ? d->service_->register_zkey(k.id, k.zkey, &already)
                               : d->service_->register_bellperson(k.id, k.params, k.r1cs, &already);
    if (!id.ok()) return id.error().with_context(where);
    if (k.preload) {
      if (status s = d->engine_->preload_key(k.id); !s.ok()) return s.with_context(where + " preload");
    }
    log->info("key {} registered from {}{}", k.id, k.params.empty() ? k.zkey : k.params + " (" + k.r1cs + ")",
              k.preload ? " (preloaded)" : "");
  }

  grpc::ServerBuilder b;
  if (!lc.socket.empty()) {
    if (status s = clear_stale_socket(lc.socket); !s.ok()) return s;
    b.AddListeningPort(unix_target(lc.socket), grpc::InsecureServerCredentials());
  }
  b.SetMaxReceiveMessageSize(static_cast<int>(lc.max_receive_message_mb * mib));
  b.SetMaxSendMessageSize(static_cast<int>(lc.max_send_message_mb * mib));
  grpc::ResourceQuota quota("proofpipe");
  quota.SetMaxThreads(static_cast<int>(lc.max_concurrent_calls) + 2);  // + the pollers
  b.SetResourceQuota(quota);
  // A connection with no call in flight this long is closed (its client reconnects when it calls
  // again): idle connections do not hold descriptors for ever (grpc_tcp_gate.hpp).
  b.AddChannelArgument(GRPC_ARG_MAX_CONNECTION_IDLE_MS, static_cast<int>(max_connection_idle.count()));
  b.RegisterService(d->service_.get());
  // The socket is created owner-only and then opened up to socket_mode, never wider on the way.
  const mode_t old_mask = ::umask(0177);
  d->grpc_ = b.BuildAndStart();
  ::umask(old_mask);
  if (!d->grpc_) {
    return unavailable("cannot start the gRPC server" +
                       (lc.socket.empty() ? std::string() : " on unix socket " + lc.socket + " (directory missing or not writable)"));
  }
  if (tcp) d->tcp_gate_ = grpc_tcp_gate::start(*d->grpc_, std::move(*tcp), lc.max_tcp_connections);
  if (!lc.socket.empty() && ::chmod(lc.socket.c_str(), lc.socket_mode) != 0) {
    return failed_precondition("server.socket_mode: chmod " + lc.socket + ": " + std::strerror(errno));
  }
  if (!lc.http.empty()) {
    proof_service* svc = d->service_.get();
    engine::engine* e = d->engine_.get();
    auto h = http_listener::start(lc.http, {
        {"/metrics", [e] { return http_response{200, "text/plain; version=0.0.4; charset=utf-8", e->metrics_text()}; }},
        {"/status", [svc] { return http_response{200, "application/json", svc->status_json() + "\n"}; }},
    }, lc.max_http_connections);
    if (!h.ok()) return h.error().with_context("server.http");
    d->http_ = std::move(*h);
  }
  log->info("proofpipe {} serving{}{}{} ({} file descriptors)", PP_VERSION, lc.socket.empty() ? "" : " on unix:" + lc.socket,
            lc.listen.empty() ? "" : " on tcp port " + std::to_string(d->tcp_port()),
            d->http_ ? ", http port " + std::to_string(d->http_->port()) : "", *fds);
  return d;
}

void daemon::stop(bool drain) {
  mutex_lock lock(mu_);
  if (done_) return;  // everything is down already; nothing left to escalate
  if (!stopping_) {
    stopping_ = true;
    escalated_ = !drain;
    stopper_ = std::thread([this, drain] { run_stop(drain); });
  } else if (!drain && !escalated_) {
    escalated_ = true;
    pp::log::get("server")->warn("stopping now: unfinished jobs end as cancelled (UNAVAILABLE)");
    escalator_ = std::thread([this] { engine_->shutdown({.drain = false}).ignore(); });
  }
}

void daemon::run_stop(bool drain) {
  auto log = pp::log::get("server");
  service_->set_draining();
  log->info("{}", drain ? "draining: new work refused, waiting for queued and running jobs (SIGTERM again to stop now)"
                        : "stopping: ending unfinished jobs");
  const auto until = engine::deadline_in(std::chrono::seconds(config_.server.drain_timeout_s));
  status s = engine_->shutdown({.drain = drain, .until = until});
  if (!config_.engine.trace_file.empty()) {
    if (status t = engine_->write_trace(config_.engine.trace_file); !t.ok()) {
      log->warn("trace not written: {}", t.to_string());
    } else {
      log->info("trace written to {}", config_.engine.trace_file);
    }
  }
  // Awaiting calls see their (now terminal) jobs within one poll slice; give them a moment.
  if (tcp_gate_) tcp_gate_->stop();
  grpc_->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(3));
  if (http_) http_->stop();
  if (!config_.server.socket.empty()) ::unlink(config_.server.socket.c_str());
  log->info("stopped{}", s.ok() ? "" : ": " + s.to_string());
  mutex_lock lock(mu_);
  final_ = std::move(s);
  done_ = true;
  cv_.notify_all();
}

status daemon::wait() {
  std::thread stopper, escalator;
  {
    mutex_lock lock(mu_);
    lock.wait(cv_, [this]() PP_REQUIRES(mu_) { return done_; });
    // Once done_ is set stop() starts no thread, so these are the last ones.
    stopper = std::move(stopper_);
    escalator = std::move(escalator_);
  }
  if (stopper.joinable()) stopper.join();
  if (escalator.joinable()) escalator.join();
  mutex_lock lock(mu_);
  return final_;
}

daemon::~daemon() {
  if (!grpc_) return;  // start() failed before anything listened
  stop(false);
  wait().ignore();
}

}  // namespace pp::server
