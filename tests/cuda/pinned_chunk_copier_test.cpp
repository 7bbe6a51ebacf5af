// upload_key_staging (src/cuda/upload_key_staging.hpp) on a real device: random bytes of every
// awkward length (empty, one byte, a chunk less one, a chunk, a chunk plus one, many chunks wrapping
// the buffers) go through small pinned chunks to the device, back-to-back without waiting, and read
// back identical; bad shapes are refused.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "cuda/upload_key_staging.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

TEST(UploadKeyStaging, CopiesEveryLengthExactly) {
  pp::test::test_rng rng;
  SCOPED_TRACE(rng.trace());
  constexpr uint64_t chunk = 4096;
  for (int buffers : {2, 3}) {
    auto s = upload_key_staging::create(chunk, buffers);
    ASSERT_THAT(s, IsOk());
    const uint64_t lengths[] = {0, 1, 95, chunk - 1, chunk, chunk + 1, 4 * chunk + 13, 9 * chunk / 2 + 8};
    uint64_t total = 0;
    for (uint64_t n : lengths) total += n;
    std::vector<uint8_t> host(total);
    for (auto& b : host) b = static_cast<uint8_t>(rng.next());
    void* d = nullptr;
    ASSERT_EQ(cudaMalloc(&d, total + 1), cudaSuccess);
    cudaStream_t stream = nullptr;
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream, cudaStreamNonBlocking), cudaSuccess);
    // Every copy enqueued before any wait: a buffer is refilled only once its last chunk has left.
    uint64_t at = 0;
    for (uint64_t n : lengths) {
      ASSERT_THAT(s->copy_to_device(static_cast<uint8_t*>(d) + at, host.data() + at, n, stream), IsOk());
      at += n;
    }
    std::vector<uint8_t> back(total);
    ASSERT_EQ(cudaMemcpyAsync(back.data(), d, total, cudaMemcpyDeviceToHost, stream), cudaSuccess);
    ASSERT_EQ(cudaStreamSynchronize(stream), cudaSuccess);
    EXPECT_TRUE(back == host) << buffers << " buffers";
    cudaStreamDestroy(stream);
    cudaFree(d);
  }
}

TEST(UploadKeyStaging, RefusesBadShapes) {
  EXPECT_THAT(upload_key_staging::create(0, 4), StatusIs(status_code::invalid_argument));
  EXPECT_THAT(upload_key_staging::create(4096, 1), StatusIs(status_code::invalid_argument));
  upload_key_staging none;
  EXPECT_THAT(none.copy_to_device(nullptr, nullptr, 1, nullptr), StatusIs(status_code::failed_precondition));
}

}  // namespace
}  // namespace pp::cuda::test
