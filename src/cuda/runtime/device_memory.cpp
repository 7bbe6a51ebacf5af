// device_memory (device_memory.hpp): one cudaMalloc and the pinned staging buffers, at start only.
#include "cuda/runtime/device_memory.hpp"

#include <cuda_runtime_api.h>

#include <string>

#include "core/cuda_try.hpp"

namespace pp::cuda {

result<std::unique_ptr<device_memory>> device_memory::create(const device_memory_config& cfg) {
  if (!(cfg.vram_share > 0.0 && cfg.vram_share <= 1.0)) {
    return invalid_argument("device_memory: vram_share must be in (0, 1], got " + std::to_string(cfg.vram_share));
  }
  int count = 0;
  PP_CUDA_TRY(cudaGetDeviceCount(&count));
  if (cfg.device < 0 || cfg.device >= count) {
    return invalid_argument("device_memory: device " + std::to_string(cfg.device) + " of " + std::to_string(count));
  }
  PP_CUDA_TRY(cudaSetDevice(cfg.device));
  size_t free_b = 0, total_b = 0;
  PP_CUDA_TRY(cudaMemGetInfo(&free_b, &total_b));
  uint64_t want = free_b > cfg.keep_free_bytes ? uint64_t((free_b - cfg.keep_free_bytes) * cfg.vram_share) : 0;
  if (cfg.max_bytes != 0 && want > cfg.max_bytes) want = cfg.max_bytes;
  want = want / granularity * granularity;
  if (want <= cfg.tail_bytes) {
    return resource_exhausted("device_memory: " + std::to_string(free_b) + " bytes free on device " +
                              std::to_string(cfg.device) + ", share " + std::to_string(cfg.vram_share) +
                              " leaves less than one 2 MiB granule");
  }
  std::unique_ptr<device_memory> m(new device_memory());
  m->device_ = cfg.device;
  if (cudaMalloc(&m->d_base_, want) != cudaSuccess) {
    cudaGetLastError();
    m->d_base_ = nullptr;
    return resource_exhausted("device_memory: cudaMalloc of " + std::to_string(want) + " bytes failed (" +
                              std::to_string(free_b) + " free)");
  }
  m->capacity_ = want - cfg.tail_bytes;
  m->tail_bytes_ = cfg.tail_bytes;
  m->staging_bytes_ = cfg.staging_bytes;
  if (cfg.staging_bytes != 0) {
    for (std::size_t i = 0; i < cfg.staging_buffers; ++i) {
      void* h = nullptr;
      if (cudaHostAlloc(&h, cfg.staging_bytes, cudaHostAllocPortable) != cudaSuccess) {
        cudaGetLastError();
        return resource_exhausted("device_memory: pinned staging buffer " + std::to_string(i) + " of " +
                                  std::to_string(cfg.staging_bytes) + " bytes failed");
      }
      m->h_staging_.push_back(h);
    }
  }
  return m;
}

device_memory::~device_memory() {
  for (void* h : h_staging_) cudaFreeHost(h);
  if (d_base_ != nullptr) cudaFree(d_base_);
}

result<void*> device_memory::region(uint64_t offset, uint64_t size) const {
  if (offset > capacity_ || size > capacity_ - offset) {
    return invalid_argument("device_memory: region [" + std::to_string(offset) + ", +" + std::to_string(size) +
                            ") outside the " + std::to_string(capacity_) + "-byte region");
  }
  return static_cast<void*>(static_cast<std::byte*>(d_base_) + offset);
}

}  // namespace pp::cuda
