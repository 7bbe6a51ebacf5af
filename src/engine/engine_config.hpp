// engine_config: every knob of the engine, as one value (the daemon fills it from TOML, the bench
// from flags). Each knob has a safe default; validate() checks them once, naming the bad field.
// Sizing: docs/engine.md.
#pragma once
#include <chrono>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/result.hpp"
#include "devices/device.hpp"

namespace pp::engine {

// The engine runs partitions on the devices layer's devices (src/devices/device.hpp); its config and
// its users name them as the engine's.
using devices::device;
using devices::device_ptr;

struct engine_config {
  // Devices. make_devices empty: `cpu_devices` CPU devices "cpu0".."cpuN-1". The CUDA backend (or a
  // test) supplies its own list; names must be unique.
  uint32_t cpu_devices = 1;
  std::function<result<std::vector<device_ptr>>()> make_devices;
  uint32_t workers_per_device = 1;  // concurrent start() calls per device (GPUs: 2+)
  // Partitions of one key a worker starts together where its device's backend shares work between
  // them (the CUDA backend: one streamed copy of the key's chunks for all; `proofpipe plan` prints
  // how many fit): those queued next on the device. 1: one at a time.
  uint32_t partitions_together = 1;
  // How long a worker that found fewer of the key queued behind its first partition than it could
  // take waits for more, while its device's inbox is empty. A job's partitions reach the inbox one
  // by one, so without it the first one or two of a burst start alone; on a 2^27 PoRep key under a
  // 24 GiB budget a partition alone takes its four shared MSMs ~190 ms longer than a share
  // (docs/perf/vram-budgets.md, "A group's first partitions wait for their mates"). 0: never wait.
  std::chrono::milliseconds together_wait{20};
  // With GPUs (choose_devices), one CPU device beside them that proves BN254 keys only (the GPUs
  // prove both curves; BLS12-381 partitions stay theirs): for hosts that want BN254's small circuits
  // off the GPUs.
  bool bn254_cpu_device = false;

  // Pools.
  uint32_t witness_threads = 2;  // load/parse/check witnesses, reserve memory, lease keys
  uint32_t finish_threads = 2;   // backend.finish: assembly + self-verification

  // Bounded queues (tasks = partitions).
  size_t intake_capacity = 4096;  // submitted, before the witness pool
  size_t ready_capacity = 8;      // witness loaded, waiting for a device (holds memory!)
  size_t device_queue_depth = 1;  // per device, beyond its running workers (CRITICAL may exceed)
  size_t finish_capacity = 8;     // started, waiting for a finalizer (holds memory!)
  std::chrono::milliseconds submit_wait{5000};  // how long submit() waits on a full intake queue

  // Host memory. host_memory_bytes 0: the cgroup limit (else MemTotal) minus host_memory_margin.
  // Keys get key_memory_fraction of it, in-flight partitions the rest.
  uint64_t host_memory_bytes = 0;
  uint64_t host_memory_margin = uint64_t{2} << 30;
  double key_memory_fraction = 0.5;
  // Host bytes one in-flight partition holds (witness, and on the CPU a/b/c, H, MSM scratch). 0: the
  // largest any device's backend needs (groth16::backend::host_bytes_per_partition): CPU 32 B x
  // (variables + 8 x domain size) + 224 B x variables, GPU 32 B x variables + 1 MiB.
  uint64_t partition_bytes = 0;

  // Proving.
  bool self_verify = true;     // every proof verified before it is returned
  uint32_t max_attempts = 3;   // device tries per partition (device faults only)

  // Retention and tracing.
  size_t max_retained_jobs = 100000;  // terminal jobs kept for await(); oldest dropped first
  size_t trace_capacity = size_t{1} << 16;  // trace events kept (ring)
};

// invalid_argument naming the knob (zero threads/workers/capacities, fraction outside (0, 1),
// max_attempts 0, no devices).
pp::status validate(const engine_config& c);

}  // namespace pp::engine
