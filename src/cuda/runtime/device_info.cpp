// device_info: queries the CUDA runtime (cudart, static) and maps failures to pp::status.
#include "cuda/runtime/device_info.hpp"

#include <cuda_runtime_api.h>

#include <cstdio>

#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"

namespace pp::cuda {

result<int> device_count() {
  int n = 0;
  const cudaError_t err = cudaGetDeviceCount(&n);
  if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver) {
    (void)cudaGetLastError();  // clear it: "no GPU here" is an answer, not a failure
    return 0;
  }
  PP_CUDA_TRY(err);
  return n;
}

namespace {

status fill(int ordinal, device_info& d) {
  cudaDeviceProp prop{};
  PP_CUDA_TRY(cudaGetDeviceProperties(&prop, ordinal));
  d.ordinal = ordinal;
  d.name = prop.name;
  d.cc_major = prop.major;
  d.cc_minor = prop.minor;
  d.sm_count = prop.multiProcessorCount;
  d.total_memory_bytes = static_cast<int64_t>(prop.totalGlobalMem);
  d.l2_bytes = prop.l2CacheSize;
  d.max_threads_per_sm = prop.maxThreadsPerMultiProcessor;
  d.registers_per_sm = prop.regsPerMultiprocessor;
  d.shared_memory_per_sm_bytes = static_cast<int64_t>(prop.sharedMemPerMultiprocessor);
  d.memory_bus_bits = prop.memoryBusWidth;
  // The clocks left cudaDeviceProp in CUDA 13; the attributes remain.
  PP_CUDA_TRY(cudaDeviceGetAttribute(&d.clock_khz, cudaDevAttrClockRate, ordinal));
  PP_CUDA_TRY(cudaDeviceGetAttribute(&d.memory_clock_khz, cudaDevAttrMemoryClockRate, ordinal));
  PP_CUDA_TRY(cudaDriverGetVersion(&d.driver_version));
  PP_CUDA_TRY(cudaRuntimeGetVersion(&d.runtime_version));
  size_t free_b = 0, total_b = 0;
  PP_CUDA_TRY(cudaSetDevice(ordinal));
  PP_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
  d.free_memory_bytes = static_cast<int64_t>(free_b);
  return ok_status();
}

}  // namespace

result<device_info> query_device(int ordinal) {
  PP_ASSIGN_OR_RETURN(const int n, device_count());
  if (ordinal < 0 || ordinal >= n) {
    return invalid_argument("device ordinal " + std::to_string(ordinal) + " out of range: " +
                            std::to_string(n) + " device(s)");
  }
  int previous = 0;
  PP_CUDA_TRY(cudaGetDevice(&previous));
  device_info d;
  status s = fill(ordinal, d);
  const status restore = cuda_status(cudaSetDevice(previous), "cudaSetDevice(previous)", __FILE__, __LINE__);
  if (!s.ok()) return std::move(s).with_context("querying CUDA device " + std::to_string(ordinal));
  if (!restore.ok()) return restore;
  return d;
}

std::string to_string(const device_info& d) {
  constexpr double gib = 1024.0 * 1024.0 * 1024.0;
  char buf[320];
  std::snprintf(buf, sizeof buf, "%d: %s, cc %d.%d, %d SMs @ %d MHz, %.1f GiB (%.1f free), L2 %d MiB, driver %d, runtime %d",
                d.ordinal, d.name.c_str(), d.cc_major, d.cc_minor, d.sm_count, d.clock_khz / 1000,
                static_cast<double>(d.total_memory_bytes) / gib, static_cast<double>(d.free_memory_bytes) / gib,
                d.l2_bytes >> 20, d.driver_version, d.runtime_version);
  return buf;
}

}  // namespace pp::cuda
