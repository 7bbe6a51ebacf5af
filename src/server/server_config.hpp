// server_config: the daemon's one typed configuration tree, loaded from TOML at the edge and
// validated once (unknown keys, wrong types and out-of-range values are errors naming the key).
// Every knob has a safe default; proofpipe.example.toml at the repository root documents each one.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"

namespace pp::server {

struct listen_config {
  // gRPC on a unix socket; its file permissions are the access control.
  std::string socket = "/run/proofpipe/proofpipe.sock";
  uint32_t socket_mode = 0660;  // octal in the file: "0660"
  // Optional gRPC on TCP ("HOST:PORT"; empty: off). Requires token_file: every call must carry
  // "authorization: Bearer <token>".
  std::string listen;
  std::string token_file;
  // Optional HTTP listener for GET /metrics and GET /status ("HOST:PORT"; empty: off).
  std::string http;
  uint32_t max_receive_message_mb = 64;  // bigger requests: RESOURCE_EXHAUSTED
  uint32_t max_send_message_mb = 16;
  uint32_t max_concurrent_calls = 256;  // cap on in-flight RPCs (bounds threads blocked in Await)
  uint32_t drain_timeout_s = 300;       // SIGTERM: how long in-flight jobs may take to finish
  uint32_t max_await_s = 3600;          // AwaitProof / Prove timeout_ms is clamped to this
};

struct log_config {
  std::string level = "info";  // trace, debug, info, warn, error, off
  std::string format = "text"; // text, json
  std::string file;            // empty: stderr only
};

// Mirrors engine::engine_config (engine/engine_config.hpp), sizes in MiB and times in ms.
struct engine_section {
  std::string backend = "auto";      // auto (cuda when built with it and a GPU is present, else cpu), cpu, cuda
  uint32_t cpu_devices = 1;          // CPU devices when proving on the CPU backend
  std::vector<int> gpus;             // CUDA device ordinals to prove on; empty: every GPU present
  double gpu_vram_share = 0.9;       // share of each GPU's free memory reserved once at start
  uint64_t gpu_vram_max_mb = 0;      // cap on that reservation; 0: none
  uint64_t gpu_staging_mb = 512;     // pinned host staging per GPU worker (packed witness)
  uint32_t workers_per_device = 0;   // concurrent partitions per device; 0: 2 per GPU, 1 per CPU device
  uint32_t witness_threads = 2;      // load/parse/check witnesses, reserve memory, lease keys
  uint32_t finish_threads = 2;       // assembly + self-verification
  uint64_t intake_capacity = 4096;   // partitions queued before the witness pool; full: submit waits
  uint64_t ready_capacity = 8;       // loaded partitions waiting for a device (hold memory)
  uint64_t device_queue_depth = 1;   // per device, beyond its running workers
  uint64_t finish_capacity = 8;      // started partitions waiting for a finalizer (hold memory)
  uint32_t submit_wait_ms = 5000;    // how long a submit waits on a full intake queue (then RESOURCE_EXHAUSTED)
  uint64_t host_memory_mb = 0;       // 0: cgroup limit (else MemTotal) minus host_memory_margin_mb
  uint64_t host_memory_margin_mb = 2048;
  double key_memory_fraction = 0.5;  // share of the budget for resident keys; the rest for partitions
  uint64_t partition_mb = 0;         // memory per in-flight partition; 0: estimated from the circuit
  bool self_verify = true;           // verify every proof before returning it
  uint32_t max_attempts = 3;         // device tries per partition (device faults only)
  uint64_t max_retained_jobs = 100000;  // finished jobs kept awaitable; oldest dropped first
  uint64_t trace_capacity = 65536;   // trace events kept (ring)
  std::string trace_file;            // Chrome trace JSON written at shutdown; empty: none
};

// A key registered (and optionally preloaded) at start-up.
struct key_entry {
  std::string id;
  std::string zkey;
  bool preload = false;
};

// [cluster]: present makes the daemon a node of a cluster whose jobs live in PostgreSQL
// (cluster/cluster_config.hpp; docs/operations.md, "Cluster"). Absent: a single-host daemon.
struct cluster_section {
  bool enabled = false;               // the section is present
  std::string database;               // libpq connection string or URI (required)
  std::string node;                   // this node's name; empty: the host name
  uint32_t lease_s = 30;              // claim lease, renewed every lease_s / 3 while proving
  std::string shared_dir;             // witnesses above inline_witness_bytes go here (every node mounts it)
  uint64_t inline_witness_bytes = 65536;  // witnesses up to this size travel inline in the database
  uint32_t claims = 0;                // partitions held at once; 0: device workers + 1
  uint32_t poll_ms = 100;             // idle claimers and awaits look again this often
};

struct server_config {
  listen_config server;
  log_config log;
  engine_section engine;
  std::vector<key_entry> keys;
  cluster_section cluster;
};

// Parses and validates TOML text; `origin` names the source in errors ("proofpipe.toml").
// invalid_argument naming the key ("server.socket_mode: ...") on any problem.
[[nodiscard]] result<server_config> parse_server_config(std::string_view toml_text, std::string_view origin);
// not_found when the file is missing; otherwise as parse_server_config.
[[nodiscard]] result<server_config> load_server_config(const std::filesystem::path& path);
// Cross-field checks (also run by parse/load): TCP needs a token file, at least one listener...
[[nodiscard]] status validate(const server_config& config);

}  // namespace pp::server
