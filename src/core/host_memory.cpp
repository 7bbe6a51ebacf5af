#include "core/host_memory.hpp"

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

namespace pp {
namespace {

std::string gib_text(uint64_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f GiB", double(bytes) / double(uint64_t{1} << 30));
  return buf;
}

}  // namespace

result<uint64_t> meminfo_available_bytes(std::string_view meminfo) {
  constexpr std::string_view key = "MemAvailable:";
  size_t at = 0;
  while (at < meminfo.size()) {
    const size_t end = std::min(meminfo.find('\n', at), meminfo.size());
    std::string_view line = meminfo.substr(at, end - at);
    at = end + 1;
    if (!line.starts_with(key)) continue;
    line.remove_prefix(key.size());
    while (!line.empty() && line.front() == ' ') line.remove_prefix(1);
    uint64_t kib = 0;
    const auto [rest, ec] = std::from_chars(line.data(), line.data() + line.size(), kib);
    const std::string_view unit(rest, size_t(line.data() + line.size() - rest));
    if (ec != std::errc() || unit != " kB" || kib > (UINT64_MAX >> 10)) break;
    return kib << 10;
  }
  return not_found("no well-formed MemAvailable line in /proc/meminfo");
}

result<uint64_t> available_host_memory_bytes() {
  std::ifstream in("/proc/meminfo");
  if (!in) return unavailable("cannot read /proc/meminfo");
  std::ostringstream text;
  text << in.rdbuf();
  return meminfo_available_bytes(text.str());
}

status check_host_memory(uint64_t need, uint64_t available, const std::string& what) {
  if (need <= available) return ok_status();
  return resource_exhausted(what + " needs about " + gib_text(need) + " of host memory; " + gib_text(available) +
                            " is available");
}

status check_host_memory(uint64_t need, const std::string& what) {
  const auto available = available_host_memory_bytes();
  return available.ok() ? check_host_memory(need, *available, what) : ok_status();
}

}  // namespace pp
