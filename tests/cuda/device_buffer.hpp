// A test's device allocation: cudaMalloc'd at construction (p = nullptr on failure), freed at the end.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>

namespace pp::cuda::test {

struct device_buffer {
  void* p = nullptr;
  explicit device_buffer(uint64_t bytes) {
    if (cudaMalloc(&p, bytes > 0 ? bytes : 1) != cudaSuccess) p = nullptr;
  }
  ~device_buffer() { cudaFree(p); }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
};

}  // namespace pp::cuda::test
