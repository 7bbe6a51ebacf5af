// porep_bench: `proofpipe bench --porep`, whole PoRep C2 proofs through the engine (porep_bench.cpp
// says what it measures).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "devices/gpu_devices.hpp"
#include "engine/engine_config.hpp"

namespace pp::cli {

struct porep_bench_args {
  uint32_t log_constraints = 27;  // a full PoRep partition
  uint32_t partitions = 10;       // a 32 GiB sector's C2 proof
  uint32_t proofs = 3;            // submitted at once, per configuration
  std::string backend = "auto";
  uint32_t workers = 0;           // 0: 2 per GPU, 1 per CPU device
  std::vector<int> gpus;          // GPU ordinals; empty: all
  std::vector<double> vram_gib{0};   // device region caps to run (0: unlimited)
  std::vector<double> h2d_gib_s{0};  // host-to-device caps to run (0: the link's own rate)
  std::vector<uint32_t> h_copies{devices::gpu_device_options{}.h_copies};  // engine.gpu_h_copies values to run
  std::vector<uint32_t> together{1};  // engine.partitions_together values to run
  // engine.together_wait_ms values to run
  std::vector<uint32_t> together_wait_ms{uint32_t(engine::engine_config{}.together_wait.count())};
  uint32_t matrix_chunk_mib = 0;  // streamed matrices' row chunks, the only size in every configuration (0: the plan's)
  uint32_t witness_threads = engine::engine_config{}.witness_threads;
  uint32_t finish_threads = engine::engine_config{}.finish_threads;
  uint64_t memory_mib = 0;        // host budget (0: the cgroup limit or MemTotal, less the margin)
  // engine.key_memory_fraction: a C2 proof's key is most of the host memory it needs (a 2^27 key's
  // points and matrices take ~71 GiB beside ~3.9 GiB per GPU partition in flight); operations.md's
  // figure for a 128 GiB host, where ~9 partitions are in flight: groups of five form.
  double key_memory_fraction = 0.7;
  // Where each configuration's Chrome trace goes: this path with its configuration before the
  // extension ("c2.json" -> "c2-vram24-h2d25-copies1-k3-wait20.json"); empty: none.
  std::string trace;
};

// Exit code: 0 when every proof of every configuration was made and verified.
int run_porep_bench(const porep_bench_args& a, bool quiet);

}  // namespace pp::cli
