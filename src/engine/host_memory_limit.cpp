// host_memory_limit: parses cgroup v2 memory.max ("max" or bytes), cgroup v1 memory.limit_in_bytes
// (an unlimited v1 group reports a huge page-rounded number, caught by the min with MemTotal) and
// the "MemTotal: N kB" line of /proc/meminfo.
#include "engine/host_memory_limit.hpp"

#include <algorithm>
#include <charconv>
#include <fstream>
#include <optional>
#include <sstream>
#include <string_view>

namespace pp::engine {
namespace {

std::optional<std::string> read_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string_view trim(std::string_view s) {
  const auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

std::optional<uint64_t> parse_u64(std::string_view s) {
  uint64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

// A cgroup limit file: bytes, or "max" / unreadable meaning no limit.
std::optional<uint64_t> read_cgroup_limit(const std::string& path) {
  const auto text = read_text(path);
  if (!text) return std::nullopt;
  const std::string_view t = trim(*text);
  if (t == "max") return std::nullopt;
  return parse_u64(t);
}

}  // namespace

result<host_memory_limit> read_host_memory_limit(const host_memory_sources& sources, uint64_t margin_bytes) {
  const auto meminfo = read_text(sources.meminfo);
  if (!meminfo) return not_found("host memory: cannot read " + sources.meminfo);
  std::optional<uint64_t> mem_total;
  std::istringstream lines(*meminfo);
  for (std::string line; std::getline(lines, line);) {
    const std::string_view l = line;
    if (!l.starts_with("MemTotal:")) continue;
    std::string_view rest = trim(l.substr(9));
    if (!rest.ends_with("kB")) break;
    mem_total = parse_u64(trim(rest.substr(0, rest.size() - 2)));
    break;
  }
  if (!mem_total || *mem_total == 0) {
    return data_loss("host memory: expected a 'MemTotal: N kB' line in " + sources.meminfo);
  }

  host_memory_limit out;
  out.physical = *mem_total * 1024;
  std::optional<uint64_t> cg = read_cgroup_limit(sources.cgroup_v2_max);
  if (!cg) cg = read_cgroup_limit(sources.cgroup_v1_limit);
  if (cg && *cg > 0 && *cg < out.physical) out.cgroup = *cg;
  const uint64_t limit = out.cgroup != 0 ? out.cgroup : out.physical;
  if (margin_bytes >= limit) {
    return resource_exhausted("host memory: margin of " + std::to_string(margin_bytes) +
                              " bytes leaves nothing of a " + std::to_string(limit) + "-byte limit");
  }
  out.usable = limit - margin_bytes;
  return out;
}

}  // namespace pp::engine
