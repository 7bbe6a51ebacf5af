// host_memory: MemAvailable read from /proc/meminfo's text (fixed texts: present, missing, malformed,
// another unit, too large), the host's own, and the refusal that names the figures.
#include "core/host_memory.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

namespace pp {
namespace {

constexpr const char* meminfo =
    "MemTotal:       24576000 kB\n"
    "MemFree:         1000000 kB\n"
    "MemAvailable:   20971520 kB\n"
    "Buffers:           12345 kB\n";

TEST(HostMemory, ReadsMemAvailableInBytes) {
  const auto b = meminfo_available_bytes(meminfo);
  ASSERT_TRUE(b.ok()) << b.error().to_string();
  EXPECT_EQ(*b, uint64_t{20971520} << 10);
  EXPECT_EQ(*meminfo_available_bytes("MemAvailable: 0 kB"), 0u) << "the last line needs no newline";
}

TEST(HostMemory, MissingOrMalformedLinesAreNotFound) {
  for (const std::string text : {"", "MemTotal: 100 kB\n", "MemAvailable:\n", "MemAvailable: x kB\n",
                                 "MemAvailable: 100 MB\n", "MemAvailable: 100\n", "MemAvailable: -5 kB\n",
                                 "MemAvailable: 99999999999999999999 kB\n", "MemAvailable: 18014398509481984 kB\n",
                                 " MemAvailable: 100 kB\n"}) {
    const auto b = meminfo_available_bytes(text);
    ASSERT_FALSE(b.ok()) << "'" << text << "'";
    EXPECT_EQ(b.error().code(), status_code::not_found) << text;
  }
}

TEST(HostMemory, TheHostsOwnIsSomeMemory) {
  const auto b = available_host_memory_bytes();
  ASSERT_TRUE(b.ok()) << b.error().to_string();  // the suite runs on Linux
  EXPECT_GT(*b, uint64_t{16} << 20);
  EXPECT_TRUE(check_host_memory(1, "one byte").ok());
}

TEST(HostMemory, MoreThanAvailableIsRefusedNamingBoth) {
  const uint64_t gib = uint64_t{1} << 30;
  EXPECT_TRUE(check_host_memory(8 * gib, 8 * gib, "the circuit").ok());
  const status s = check_host_memory(34 * gib, 20 * gib, "the PoRep-shaped circuit of 2^27");
  EXPECT_EQ(s.code(), status_code::resource_exhausted);
  EXPECT_EQ(s.message(), "the PoRep-shaped circuit of 2^27 needs about 34.0 GiB of host memory; 20.0 GiB is available");
  EXPECT_EQ(check_host_memory(UINT64_MAX, "everything").code(), status_code::resource_exhausted);
}

}  // namespace
}  // namespace pp
