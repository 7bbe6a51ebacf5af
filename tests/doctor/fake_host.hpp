// fake_host: host_probes (src/doctor/host_probes.hpp) answering from its fields, for the verdict
// tests. By default a healthy host: no GPU, unlimited memlock, 256 GiB without a cgroup limit,
// transparent huge pages madvise, /run/proofpipe a 0750 directory of ours (files holds every path
// it knows).
#pragma once
#include <map>
#include <string>
#include <vector>

#include "doctor/host_probes.hpp"

namespace pp::doctor::test {

inline constexpr uint64_t gib = uint64_t{1} << 30;

class fake_host final : public host_probes {
 public:
  fake_host() { files["/run/proofpipe"] = {path_facts::kind::directory, 0750, 4096, true, true}; }

  result<std::vector<devices::gpu_facts>> gpus() override { return gpu_list; }
  result<uint64_t> memlock_limit() override { return memlock; }
  status trial_pin(uint64_t bytes) override {
    pinned.push_back(bytes);
    return pin_status;
  }
  result<engine::host_memory_limit> host_memory() override { return memory; }
  result<std::string> transparent_hugepages() override { return thp; }
  result<path_facts> inspect(const std::string& path) override {
    const auto it = files.find(path);
    if (it == files.end()) return not_found("does not exist");
    return it->second;
  }

  // A readable regular file of `size` bytes and permission bits `mode`.
  void add_file(const std::string& path, uint64_t size, uint32_t mode = 0640) {
    files[path] = {path_facts::kind::regular, mode, size, true, true};
  }

  std::vector<devices::gpu_facts> gpu_list;
  uint64_t memlock = unlimited_memlock;
  status pin_status;
  std::vector<uint64_t> pinned;  // every trial_pin's size
  engine::host_memory_limit memory{256 * gib, 0, 256 * gib};
  result<std::string> thp = std::string("madvise");
  std::map<std::string, path_facts> files;
};

// An H100-like GPU: compute capability 9.0, 80 GiB with `free_bytes` free, driver and runtime 12.8.
inline devices::gpu_facts gpu(int ordinal, uint64_t free_bytes = 79 * gib, int cc_major = 9, int cc_minor = 0) {
  return {ordinal, "NVIDIA H100", cc_major, cc_minor, 80 * gib, free_bytes, 12080, 12080};
}

}  // namespace pp::doctor::test
