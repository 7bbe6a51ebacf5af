// device: what the engine runs partitions on. A device names itself, says how many workers may call its
// backend's start() at once, and owns a groth16::backend. The CPU is a device (cpu_device, the CPU backend);
// the CUDA backend plugs in through the same interface (one device per GPU, its arena reserved once at
// creation, docs/design.md, "Device memory"). Tests use fake devices whose backends fail or block on demand.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "groth16/backend.hpp"

namespace pp::engine {

class device {
 public:
  virtual ~device() = default;
  [[nodiscard]] virtual std::string_view name() const = 0;  // unique: "cpu0", "gpu1"
  [[nodiscard]] virtual std::string_view kind() const = 0;  // "cpu", "cuda", "fake"
  // start() is called by up to the device's worker count at once; finish() by the finalizer pool,
  // only with pendings this backend's start() returned. Errors from start() other than
  // invalid_argument / failed_precondition (the request's fault) are device faults: the engine
  // takes the device out of rotation and retries the partition on another.
  [[nodiscard]] virtual groth16::backend& backend() = 0;
  // The device's own busy measure (a GPU: the union of its kernel intervals from CUDA events over
  // the span of its partitions), when it has one; otherwise the engine reports the share of time
  // with at least one worker inside start().
  [[nodiscard]] virtual std::optional<double> measured_busy_fraction() const { return std::nullopt; }
  // Host memory one in-flight partition of a circuit holds on this device, witness included (the
  // engine reserves the largest over its devices). Default: the CPU backend's
  // (estimate_partition_bytes); a GPU does its work in VRAM reserved at creation.
  [[nodiscard]] virtual uint64_t host_bytes_per_partition(uint64_t num_variables, uint64_t domain_size) const;
};

using device_ptr = std::unique_ptr<device>;

// A CPU device backed by groth16::cpu_backend, named `name`.
device_ptr make_cpu_device(std::string name);

}  // namespace pp::engine
