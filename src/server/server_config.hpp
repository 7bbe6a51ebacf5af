// server_config: the daemon's one typed configuration tree, loaded from TOML at the edge and
// validated once (unknown keys, wrong types and out-of-range values are errors naming the key).
// Every knob has a safe default; proofpipe.example.toml at the repository root documents each one.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "cluster/cluster_config.hpp"
#include "core/result.hpp"
#include "engine/engine_config.hpp"
#include "devices/gpu_devices.hpp"

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
  // Open connections on the TCP gRPC port (grpc_tcp_gate.hpp) and on the HTTP port
  // (http_listener.hpp); with the descriptors they take, checked against RLIMIT_NOFILE at start.
  uint32_t max_tcp_connections = 256;
  uint32_t max_http_connections = 64;
  uint32_t drain_timeout_s = 300;       // SIGTERM: how long in-flight jobs may take to finish
  uint32_t max_await_s = 3600;          // AwaitProof / Prove timeout_ms is clamped to this
};

struct log_config {
  std::string level = "info";  // trace, debug, info, warn, error, off
  std::string format = "text"; // text, json
  std::string file;            // empty: stderr only
};

// [engine]. The engine's knobs are engine::engine_config's own fields and the GPU ones
// devices::gpu_device_options', defaults and all: this section holds them as they are, so a default is
// written once, in the library that uses it. The TOML keys, units (MiB, ms) and ranges are in the
// knob table of server_config.cpp. What the daemon adds: the backend choice, its worker rule and the
// trace file.
struct engine_section {
  std::string backend = "auto";     // auto (cuda when built with it and a GPU is present, else cpu), cpu, cuda
  uint32_t workers_per_device = 0;  // concurrent partitions per device; 0: 2 per GPU, 1 per CPU device
  engine::engine_config config;     // every engine knob (devices and workers are set by choose_devices)
  devices::gpu_device_options gpu;   // GPU ordinals, VRAM share and cap, pinned staging
  std::string trace_file;           // Chrome trace JSON written at shutdown; empty: none
};

// A key registered (and optionally preloaded) at start-up: a snarkjs .zkey, or a bellperson
// parameters file (Filecoin's layout, the file libproofpipe_c2 reads) with the circom .r1cs it was
// made for (its density bits come from the circuit).
struct key_entry {
  std::string id;
  std::string zkey;
  std::string params{}, r1cs{};  // bellperson, instead of zkey
  bool preload = false;
};

// [cluster]: present makes the daemon a node of a cluster whose jobs live in PostgreSQL
// (docs/operations.md, "Cluster"); the knobs and their defaults are cluster::cluster_config's.
// Absent: a single-host daemon.
struct cluster_section {
  bool enabled = false;            // the section is present
  cluster::cluster_config config;  // node: the host name when the file leaves it out
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

// The configuration as TOML, every key of the knob table with its value (in the file's units), the
// [cluster] section only when enabled. Parsing it gives the same configuration back.
[[nodiscard]] std::string to_toml(const server_config& config);
// Every key of the knob table, as "section.key" ("engine.intake_capacity"), in table order.
[[nodiscard]] std::vector<std::string> knob_names();

// What a numeric knob accepts, in the file's units (MiB for *_mb keys, the duration's unit for *_ms
// and *_s ones): lo..hi inclusive, or strictly between them when `open` (fractions).
struct knob_range {
  double lo = 0, hi = 0;
  bool open = false;
  [[nodiscard]] bool contains(double v) const { return open ? (v > lo && v < hi) : (v >= lo && v <= hi); }
};
// The range of "section.key" from the knob table, for front ends that set the same field another
// way (`proofpipe bench`'s flags), so a limit is written once. not_found for a key that is not in
// the table or not a number (text, flags, modes).
[[nodiscard]] result<knob_range> knob_range_of(std::string_view name);

}  // namespace pp::server
