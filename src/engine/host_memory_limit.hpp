// host_memory_limit: how many bytes of host memory this process may use, for the memory_budget.
// A container's cgroup limit wins over the machine's MemTotal (a pod sees the host's /proc/meminfo);
// a safety margin is kept back for the allocator, the OS and everything the budget does not track.
#pragma once
#include <cstdint>
#include <string>

#include "core/result.hpp"

namespace pp::engine {

// Where the limits are read from; tests point these at fixture files.
struct host_memory_sources {
  std::string cgroup_v2_max = "/sys/fs/cgroup/memory.max";
  std::string cgroup_v1_limit = "/sys/fs/cgroup/memory/memory.limit_in_bytes";
  std::string meminfo = "/proc/meminfo";
};

struct host_memory_limit {
  uint64_t physical = 0;  // MemTotal
  uint64_t cgroup = 0;    // 0: no cgroup limit found ("max", absent, or above physical)
  uint64_t usable = 0;    // min(physical, cgroup if set) - margin
};

// Reads the sources. Errors: not_found / data_loss when /proc/meminfo is missing or unreadable,
// resource_exhausted when the margin swallows the whole limit.
result<host_memory_limit> read_host_memory_limit(const host_memory_sources& sources, uint64_t margin_bytes);

}  // namespace pp::engine
