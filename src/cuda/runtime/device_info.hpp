// device_info: what the CUDA runtime reports about each GPU (name, SMs, clock, memory), as values.
// The bottom of the CUDA backend: plain C++ header, errors as pp::status, nothing allocated.
#pragma once
#include <cstdint>
#include <string>

#include "core/result.hpp"

namespace pp::cuda {

struct device_info {
  int ordinal = 0;
  std::string name;
  int cc_major = 0;
  int cc_minor = 0;
  int sm_count = 0;
  int clock_khz = 0;           // peak SM clock the driver reports (cudaDevAttrClockRate)
  int memory_clock_khz = 0;
  int memory_bus_bits = 0;
  int64_t total_memory_bytes = 0;
  int64_t free_memory_bytes = 0;  // at query time
  int l2_bytes = 0;
  int max_threads_per_sm = 0;
  int registers_per_sm = 0;
  int64_t shared_memory_per_sm_bytes = 0;
  int driver_version = 0;   // e.g. 13000
  int runtime_version = 0;
};

// Number of usable devices. 0 (not an error) when there is no device or no driver, so callers and
// tests can fall back or skip; other runtime failures are errors.
result<int> device_count();

// Properties of device `ordinal`. Leaves the calling thread's current device as it was.
result<device_info> query_device(int ordinal);

// One line: "0: NVIDIA H200, cc 9.0, 132 SMs @ 1980 MHz, 139.8 GiB (139.2 free), L2 60 MiB".
std::string to_string(const device_info& d);

}  // namespace pp::cuda
