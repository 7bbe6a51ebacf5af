// host_probes: everything `proofpipe doctor` reads of the host, behind one interface, so that the
// verdicts (host_check.hpp) run on fake hosts in tests; system_probes.hpp is the real host.
#pragma once
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "devices/gpu_devices.hpp"
#include "engine/host_memory_limit.hpp"

namespace pp::doctor {

// memlock_limit() when the process may lock any amount.
inline constexpr uint64_t unlimited_memlock = std::numeric_limits<uint64_t>::max();

struct path_facts {
  enum class kind { regular, directory, other };
  kind type = kind::other;
  uint32_t mode = 0;      // permission bits (07777)
  uint64_t size = 0;
  bool readable = false;  // by this process (access(2) R_OK)
  bool writable = false;  // by this process; a directory: may create entries in it (W_OK | X_OK)
};

class host_probes {
 public:
  virtual ~host_probes() = default;
  // The GPUs this process sees (none without a driver, a device or a CUDA build).
  virtual result<std::vector<devices::gpu_facts>> gpus() = 0;
  // RLIMIT_MEMLOCK's soft limit in bytes, unlimited_memlock when there is none.
  virtual result<uint64_t> memlock_limit() = 0;
  // Locks `bytes` of fresh memory in RAM and lets go of it; the error says why the kernel refused.
  virtual status trial_pin(uint64_t bytes) = 0;
  // MemTotal and the cgroup's limit, as the engine reads them (usable is computed without a margin).
  virtual result<engine::host_memory_limit> host_memory() = 0;
  // The transparent huge page mode: "always", "madvise" or "never".
  virtual result<std::string> transparent_hugepages() = 0;
  // A path as this process sees it: not_found when it does not exist.
  virtual result<path_facts> inspect(const std::string& path) = 0;
};

}  // namespace pp::doctor
