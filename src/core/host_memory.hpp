// host_memory: what the host can still give a command (Linux's MemAvailable), so that work sized by
// its input is refused with the figures named instead of the process being killed part way.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace pp {

// MemAvailable of a /proc/meminfo text, in bytes; not_found when the line is missing or malformed.
[[nodiscard]] result<uint64_t> meminfo_available_bytes(std::string_view meminfo);

// The host's MemAvailable, in bytes; unavailable when /proc/meminfo cannot be read.
[[nodiscard]] result<uint64_t> available_host_memory_bytes();

// resource_exhausted naming `what`, `need` and what is available when need exceeds `available`;
// ok otherwise.
[[nodiscard]] status check_host_memory(uint64_t need, uint64_t available, const std::string& what);

// As above against the host's MemAvailable; ok when it cannot be read (the work is tried).
[[nodiscard]] status check_host_memory(uint64_t need, const std::string& what);

}  // namespace pp
