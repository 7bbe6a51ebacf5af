// device: what the engine runs partitions on (src/engine/engine.hpp). A device names itself and
// owns a groth16::backend (BLS12-381), which says what one partition holds in host memory, and a
// BN254 backend when it proves BN254 keys too. The CPU is a device (both CPU backends); each GPU is
// one (gpu_devices.hpp, the CUDA backend with its region reserved at creation, both curves).
// This layer sits between the backends (groth16, cuda) and the engine; tests use fake devices whose
// backends fail or block on demand.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

#include "core/result.hpp"
#include "ec/curve_id.hpp"
#include "groth16/backend.hpp"

namespace pp::devices {

// What a GPU measures of itself.
struct device_measures {
  double busy_fraction = 0;  // the union of its kernel intervals (CUDA events) over the span of its partitions
  uint64_t h2d_bytes = 0;    // copied host to device by its partitions (witnesses, streamed key chunks and rows)
  uint64_t region_bytes = 0;  // its device region (the VRAM budget it was given, or its share of free memory)
};

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
  // The backend for BN254 keys, under the same contract; null on a device that proves BLS12-381
  // keys only.
  [[nodiscard]] virtual groth16::bn254::backend* bn254_backend() { return nullptr; }
  // False on a device kept for BN254 keys (a CPU beside GPUs): backend() is then never called.
  [[nodiscard]] virtual bool proves_bls12_381() const { return true; }
  // The device's own measures, when it has them (a GPU); otherwise the engine reports the share of
  // time with at least one worker inside start() as its busy fraction.
  [[nodiscard]] virtual std::optional<device_measures> measures() const { return std::nullopt; }
  // Starts the busy measure afresh (a benchmark's timed window); the byte counters keep counting.
  virtual void reset_measures() {}
  // Host memory a device takes for the keys it serves beyond what the key store holds (a GPU: the
  // pinned image of the matrices it streams, docs/engine.md "Pinned memory") is charged through
  // this: charge(bytes) reserves them in the engine's host budget until the token it returns dies,
  // or fails when the budget cannot hold them. The engine sets it once, before any partition.
  using host_charge = std::function<result<std::shared_ptr<void>>(uint64_t bytes)>;
  virtual void set_host_charge(host_charge) {}
};

using device_ptr = std::unique_ptr<device>;

// The device's backend for Family's keys; null when it does not prove that curve.
template <class Family>
groth16::basic_backend<Family>* backend_for(device& d) {
  if constexpr (std::is_same_v<Family, ec::bn254::family>) {
    return d.bn254_backend();
  } else {
    return d.proves_bls12_381() ? &d.backend() : nullptr;
  }
}

// Whether the device proves keys of curve c.
inline bool proves(device& d, ec::curve_id c) {
  return ec::visit_curve(c, [&]<class Family>() { return backend_for<Family>(d) != nullptr; });
}

// Which curves a CPU device proves: both, or BN254 only (beside GPUs: engine_config::bn254_cpu_device).
enum class cpu_curves { both, bn254_only };

// A CPU device backed by groth16::cpu_backend and groth16::bn254::cpu_backend, named `name`.
device_ptr make_cpu_device(std::string name, cpu_curves curves = cpu_curves::both);

}  // namespace pp::devices
