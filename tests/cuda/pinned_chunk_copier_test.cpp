// pinned_chunk_copier (src/cuda/runtime/pinned_chunk_copier.hpp) on a real device: random bytes of every
// awkward length (empty, one byte, a chunk less one, a chunk, a chunk plus one, many chunks wrapping
// the chunks) go through small pinned chunks of the copier's own, back to back without waiting, and
// read back identical; the same through chunks inside lent pinned memory, which is not written
// outside them; a fill that fails stops the copy there (what came before it arrives, nothing after
// it is written, the fill is not called again) and the copier goes on working; bad shapes are
// refused. Exits 77 without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "cuda/runtime/pinned_chunk_copier.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

constexpr uint64_t chunk = 4096;
constexpr uint64_t lengths[] = {0, 1, 95, chunk - 1, chunk, chunk + 1, 4 * chunk + 13, 9 * chunk / 2 + 8};

std::vector<uint8_t> random_bytes(pp::test::test_rng& rng, uint64_t n) {
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng.next());
  return v;
}

// A stream and a device buffer (set to 0xa5 bytes) for one test.
class PinnedChunkCopier : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), cudaSuccess); }
  void TearDown() override {
    if (d_ != nullptr) cudaFree(d_);
    if (h_lent_ != nullptr) cudaFreeHost(h_lent_);
    cudaStreamDestroy(stream_);
  }
  uint8_t* device(uint64_t bytes) {
    EXPECT_EQ(cudaMalloc(&d_, bytes), cudaSuccess);
    EXPECT_EQ(cudaMemsetAsync(d_, 0xa5, bytes, stream_), cudaSuccess);  // ordered before the copies
    return static_cast<uint8_t*>(d_);
  }
  std::vector<uint8_t> back(const uint8_t* d, uint64_t bytes) {
    std::vector<uint8_t> v(bytes);
    EXPECT_EQ(cudaMemcpyAsync(v.data(), d, bytes, cudaMemcpyDeviceToHost, stream_), cudaSuccess);
    EXPECT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
    return v;
  }
  // Every length of `lengths` copied back to back through c, then read back.
  void expect_every_length_copied(pinned_chunk_copier& c, pp::test::test_rng& rng) {
    uint64_t total = 0;
    for (uint64_t n : lengths) total += n;
    const std::vector<uint8_t> host = random_bytes(rng, total);
    uint8_t* const d = device(total);
    // Every copy queued before any wait: a chunk is refilled only once its last copy has left.
    uint64_t at = 0;
    for (uint64_t n : lengths) {
      ASSERT_THAT(c.copy_to_device(d + at, host.data() + at, n, stream_), IsOk());
      at += n;
    }
    EXPECT_TRUE(back(d, total) == host);
    cudaFree(d_);
    d_ = nullptr;
  }

  cudaStream_t stream_ = nullptr;
  void* d_ = nullptr;
  void* h_lent_ = nullptr;
};

TEST_F(PinnedChunkCopier, CopiesEveryLengthExactly) {
  pp::test::test_rng rng;
  SCOPED_TRACE(rng.trace());
  for (uint32_t chunks : {2u, 3u, 4u}) {
    SCOPED_TRACE(std::to_string(chunks) + " chunks");
    auto c = pinned_chunk_copier::allocate(chunk, chunks);
    ASSERT_THAT(c, IsOk());
    EXPECT_EQ(c->chunks(), chunks);
    ASSERT_NO_FATAL_FAILURE(expect_every_length_copied(*c, rng));
    // Moved: the chunks (and their events) go along.
    pinned_chunk_copier moved = std::move(c).value();
    ASSERT_NO_FATAL_FAILURE(expect_every_length_copied(moved, rng));
  }
}

TEST_F(PinnedChunkCopier, ChunksInsideLentMemoryStayInside) {
  pp::test::test_rng rng;
  SCOPED_TRACE(rng.trace());
  constexpr uint64_t lent_bytes = 3 * chunk + 1000;
  ASSERT_EQ(cudaHostAlloc(&h_lent_, lent_bytes + 64, cudaHostAllocDefault), cudaSuccess);
  // Deliberately not aligned: the plan skips to the first aligned byte.
  const std::span<std::byte> lent(static_cast<std::byte*>(h_lent_) + 64, lent_bytes);
  std::memset(lent.data(), 0x3c, lent.size());
  const pinned_chunk_plan plan =
      pinned_chunk_plan::inside(reinterpret_cast<uintptr_t>(lent.data()), lent.size(), 3, 1, chunk);
  ASSERT_EQ(plan.chunks, 3u);
  ASSERT_EQ(plan.chunk_bytes, chunk);
  ASSERT_GT(plan.skip, 0u);
  {
    auto c = pinned_chunk_copier::inside(lent, plan);
    ASSERT_THAT(c, IsOk());
    ASSERT_NO_FATAL_FAILURE(expect_every_length_copied(*c, rng));
  }
  uint64_t written_outside = 0;
  for (uint64_t i = 0; i < lent.size(); ++i) {
    if (i < plan.skip || i >= plan.end()) written_outside += lent[i] != std::byte{0x3c} ? 1 : 0;
  }
  EXPECT_EQ(written_outside, 0u);
}

TEST_F(PinnedChunkCopier, AFailingFillStopsTheCopyThere) {
  pp::test::test_rng rng;
  SCOPED_TRACE(rng.trace());
  auto c = pinned_chunk_copier::allocate(chunk, 2);
  ASSERT_THAT(c, IsOk());
  const uint64_t total = 5 * chunk + 77, fail_at = 1 + rng.next() % 4;  // a chunk after the first
  const std::vector<uint8_t> host = random_bytes(rng, total);
  uint8_t* const d = device(total);
  std::vector<std::pair<uint64_t, uint64_t>> calls;  // (offset, size) of each fill
  const auto fill = [&](std::span<std::byte> to, uint64_t offset) -> status {
    calls.emplace_back(offset, to.size());
    if (offset == fail_at * chunk) return invalid_argument("test: refused at " + std::to_string(offset));
    std::memcpy(to.data(), host.data() + offset, to.size());
    return ok_status();
  };
  EXPECT_THAT(c->copy(d, total, stream_, fill),
              StatusIs(status_code::invalid_argument, "test: refused at " + std::to_string(fail_at * chunk)));
  ASSERT_EQ(calls.size(), fail_at + 1) << "the fill was called after it failed";
  for (uint64_t i = 0; i < calls.size(); ++i) EXPECT_EQ(calls[i], std::make_pair(i * chunk, chunk));
  const std::vector<uint8_t> got = back(d, total);
  const uint64_t sent = fail_at * chunk;
  EXPECT_TRUE(std::equal(got.begin(), got.begin() + sent, host.begin())) << "a chunk before the failure is missing";
  uint64_t written_after = 0;
  for (uint64_t i = sent; i < total; ++i) written_after += got[i] != 0xa5 ? 1 : 0;
  EXPECT_EQ(written_after, 0u);
  // The copier goes on: the whole copy again, every fill succeeding.
  ASSERT_THAT(c->copy_to_device(d, host.data(), total, stream_), IsOk());
  EXPECT_TRUE(back(d, total) == host);
}

TEST(PinnedChunkCopierShapes, RefusesBadShapes) {
  EXPECT_THAT(pinned_chunk_copier::allocate(0, 4), StatusIs(status_code::invalid_argument));
  EXPECT_THAT(pinned_chunk_copier::allocate(4096, 1), StatusIs(status_code::invalid_argument));
  EXPECT_THAT(pinned_chunk_copier::allocate(uint64_t{1} << 63, 4), StatusIs(status_code::invalid_argument));
  std::vector<std::byte> lent(4 * chunk);
  EXPECT_THAT(pinned_chunk_copier::inside(lent, pinned_chunk_plan{0, chunk, 1}), StatusIs(status_code::invalid_argument));
  EXPECT_THAT(pinned_chunk_copier::inside(lent, pinned_chunk_plan{256, 2 * chunk, 2}),
              StatusIs(status_code::invalid_argument));
  pinned_chunk_copier none;
  EXPECT_EQ(none.chunks(), 0u);
  EXPECT_THAT(none.copy_to_device(nullptr, nullptr, 1, nullptr), StatusIs(status_code::failed_precondition));
}

}  // namespace
}  // namespace pp::cuda::test
