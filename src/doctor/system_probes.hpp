// system_probes: host_probes on this host: the CUDA runtime (devices/gpu_devices.hpp), getrlimit and
// mlock, the engine's reading of /proc/meminfo and the cgroup limit, sysfs, stat and access.
#pragma once
#include <string>
#include <utility>

#include "doctor/host_probes.hpp"

namespace pp::doctor {

// Where the files are read from; tests point them at fixtures.
struct system_probe_sources {
  std::string transparent_hugepage = "/sys/kernel/mm/transparent_hugepage/enabled";
  engine::host_memory_sources memory;
};

class system_probes final : public host_probes {
 public:
  explicit system_probes(system_probe_sources sources = {}) : sources_(std::move(sources)) {}
  result<std::vector<devices::gpu_facts>> gpus() override;
  result<uint64_t> memlock_limit() override;
  status trial_pin(uint64_t bytes) override;
  result<engine::host_memory_limit> host_memory() override;
  result<std::string> transparent_hugepages() override;
  result<path_facts> inspect(const std::string& path) override;

 private:
  system_probe_sources sources_;
};

}  // namespace pp::doctor
