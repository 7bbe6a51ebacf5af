// device_memory and the CUDA events (src/cuda/runtime/device_memory.hpp, cuda_event.hpp) on a real device:
// one region within its cap, bounds-checked sub-regions, pinned staging buffers usable for copies,
// events that complete after the work recorded before them.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <mutex>
#include <thread>
#include <cstring>
#include <vector>

#include "cuda/runtime/cuda_event.hpp"
#include "cuda/runtime/device_memory.hpp"
#include "support/status_matchers.hpp"

namespace pp::cuda::test {
namespace {

TEST(DeviceMemory, ReservesOneCappedRegionAndStaging) {
  device_memory_config cfg;
  cfg.vram_share = 0.5;
  cfg.max_bytes = (uint64_t{64} << 20) + 12345;  // rounded down to 2 MiB granules
  cfg.staging_buffers = 2;
  cfg.staging_bytes = 1 << 20;
  auto m = device_memory::create(cfg);
  ASSERT_THAT(m, IsOk());
  EXPECT_EQ((*m)->capacity(), uint64_t{64} << 20);
  EXPECT_EQ(reinterpret_cast<uintptr_t>((*m)->base()) % 256, 0u);
  ASSERT_EQ((*m)->staging_count(), 2u);
  EXPECT_EQ((*m)->staging(1).size(), 1u << 20);

  auto r = (*m)->region(1 << 20, 4096);
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(static_cast<std::byte*>(*r) - static_cast<std::byte*>((*m)->base()), 1 << 20);
  EXPECT_FALSE((*m)->region((*m)->capacity() - 10, 11).ok());
  EXPECT_FALSE((*m)->region(~uint64_t{0}, 1).ok());
  EXPECT_TRUE((*m)->region((*m)->capacity(), 0).ok());

  // A round trip through the staging buffers and the region.
  cudaStream_t s;
  ASSERT_EQ(cudaStreamCreate(&s), cudaSuccess);
  auto src = (*m)->staging(0), dst = (*m)->staging(1);
  for (size_t i = 0; i < src.size(); ++i) src[i] = std::byte(i * 7 + 3);
  std::memset(dst.data(), 0, dst.size());
  ASSERT_EQ(cudaMemcpyAsync(*r, src.data(), 4096, cudaMemcpyHostToDevice, s), cudaSuccess);
  ASSERT_EQ(cudaMemcpyAsync(dst.data(), *r, 4096, cudaMemcpyDeviceToHost, s), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s), cudaSuccess);
  EXPECT_EQ(std::memcmp(src.data(), dst.data(), 4096), 0);
  cudaStreamDestroy(s);
}

TEST(DeviceMemory, RejectsBadConfig) {
  device_memory_config cfg;
  cfg.vram_share = 0;
  EXPECT_EQ(device_memory::create(cfg).error().code(), status_code::invalid_argument);
  cfg.vram_share = 0.5;
  cfg.device = 1000;
  EXPECT_EQ(device_memory::create(cfg).error().code(), status_code::invalid_argument);
  cfg.device = 0;
  cfg.max_bytes = 1 << 20;  // less than one granule
  EXPECT_EQ(device_memory::create(cfg).error().code(), status_code::resource_exhausted);
}

__global__ void spin_kernel(unsigned long long cycles, int* flag) {
  const long long start = clock64();
  while (clock64() - start < (long long)cycles) {
  }
  *flag = 1;
}

TEST(CudaEvent, RecordQueryWait) {
  auto e = cuda_event::create();
  ASSERT_THAT(e, IsOk());
  auto q0 = e->query();
  ASSERT_THAT(q0, IsOk());
  EXPECT_TRUE(*q0);  // nothing recorded yet
  cudaStream_t s1, s2;
  ASSERT_EQ(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking), cudaSuccess);
  ASSERT_EQ(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking), cudaSuccess);
  int* d_flag;
  ASSERT_EQ(cudaMalloc(&d_flag, 2 * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMemset(d_flag, 0, 2 * sizeof(int)), cudaSuccess);
  spin_kernel<<<1, 1, 0, s1>>>(200'000'000ull, d_flag);  // ~0.1 s
  ASSERT_THAT(e->record(s1), IsOk());
  auto q1 = e->query();
  ASSERT_THAT(q1, IsOk());
  EXPECT_FALSE(*q1);
  // s2 waits for the event, then copies the flag: it must see 1.
  ASSERT_THAT(e->wait_on(s2), IsOk());
  ASSERT_EQ(cudaMemcpyAsync(d_flag + 1, d_flag, sizeof(int), cudaMemcpyDeviceToDevice, s2), cudaSuccess);
  ASSERT_EQ(cudaStreamSynchronize(s2), cudaSuccess);
  int h[2] = {};
  ASSERT_EQ(cudaMemcpy(h, d_flag, sizeof(h), cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(h[1], 1);
  ASSERT_THAT(e->synchronize(), IsOk());
  EXPECT_TRUE(*e->query());
  cudaFree(d_flag);
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
}

}  // namespace
}  // namespace pp::cuda::test
