// link_pacer (src/cuda/runtime/link_pacer.hpp) on a real device: paced copies arrive intact; the stream is
// held until each copy's reservation ends, and a reservation lasts bytes / rate, so whatever follows
// a copy on its stream starts no earlier than bytes / rate after the link was free (read from the
// device's own global timer: what the design guarantees, not how fast anything ran); copies of two
// streams share one timeline (their reservations do not overlap); unpaced handles queue nothing.
// Exits 77 without a GPU.
#include <cuda_runtime_api.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "cuda/runtime/link_pacer.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

__global__ void stamp_kernel(unsigned long long* out) {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  *out = t;
}

constexpr double rate = 2.0 * 1024 * 1024 * 1024;  // 2 GiB/s: a 32 MiB copy reserves 15.6 ms
constexpr uint64_t bytes = uint64_t{32} << 20;

class LinkPacer : public ::testing::Test {
 protected:
  void SetUp() override {
    for (auto*& s : streams_) ASSERT_EQ(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&d_state_, link_pacer_bytes(2)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&d_stamps_, 8 * sizeof(unsigned long long)), cudaSuccess);
    ASSERT_EQ(cudaMalloc(&d_data_, 2 * bytes), cudaSuccess);
    ASSERT_EQ(cudaHostAlloc(&h_data_, 2 * bytes, cudaHostAllocDefault), cudaSuccess);
    ASSERT_THAT(link_pacer_clear(d_state_, 2, streams_[0]), IsOk());
    ASSERT_EQ(cudaStreamSynchronize(streams_[0]), cudaSuccess);
  }
  void TearDown() override {
    cudaFree(d_state_);
    cudaFree(d_stamps_);
    cudaFree(d_data_);
    cudaFreeHost(h_data_);
    for (auto* s : streams_) cudaStreamDestroy(s);
  }
  std::vector<unsigned long long> read(const void* d, size_t words) {
    std::vector<unsigned long long> v(words);
    EXPECT_EQ(cudaDeviceSynchronize(), cudaSuccess);
    EXPECT_EQ(cudaMemcpy(v.data(), d, words * 8, cudaMemcpyDeviceToHost), cudaSuccess);
    return v;
  }
  // A paced copy of `bytes` from the host buffer at `at` on stream i, stamped before and after.
  void paced_copy(const link_pace& p, int i, uint64_t at, int stamp) {
    cudaStream_t s = streams_[i];
    stamp_kernel<<<1, 1, 0, s>>>(d_stamps_ + stamp);
    ASSERT_THAT(link_pace_begin(p, bytes, s), IsOk());
    ASSERT_EQ(cudaMemcpyAsync(static_cast<std::byte*>(d_data_) + at, static_cast<std::byte*>(h_data_) + at, bytes,
                              cudaMemcpyHostToDevice, s),
              cudaSuccess);
    ASSERT_THAT(link_pace_end(p, s), IsOk());
    stamp_kernel<<<1, 1, 0, s>>>(d_stamps_ + stamp + 1);
  }

  cudaStream_t streams_[2] = {};
  void* d_state_ = nullptr;
  unsigned long long* d_stamps_ = nullptr;
  void* d_data_ = nullptr;
  void* h_data_ = nullptr;
};

TEST_F(LinkPacer, APacedCopyArrivesIntactNoSoonerThanItsReservation) {
  pp::test::test_rng rng;
  SCOPED_TRACE(rng.trace());
  auto* h = static_cast<uint32_t*>(h_data_);
  for (uint64_t i = 0; i < bytes / 4; ++i) h[i] = uint32_t(rng.next());
  const link_pace p = link_pace_for(d_state_, 0, rate);
  ASSERT_TRUE(p.paced());
  ASSERT_NO_FATAL_FAILURE(paced_copy(p, 0, 0, 0));
  const auto stamps = read(d_stamps_, 2);
  const auto state = read(d_state_, 3);
  const auto reserved_ns = static_cast<unsigned long long>(double(bytes) * 1e9 / rate);
  // The reservation began no earlier than the stamp before it and lasted bytes / rate; the stream
  // went on only after its end; the link's clock is that end.
  EXPECT_EQ(state[0], state[1]) << "one reservation: the clock is its end";
  EXPECT_GE(state[1], stamps[0] + reserved_ns);
  EXPECT_GE(stamps[1], state[1]);
  std::vector<uint32_t> back(bytes / 4);
  ASSERT_EQ(cudaMemcpy(back.data(), d_data_, bytes, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_TRUE(std::equal(back.begin(), back.end(), h));
}

TEST_F(LinkPacer, TwoStreamsShareOneTimeline) {
  const link_pace p0 = link_pace_for(d_state_, 0, rate), p1 = link_pace_for(d_state_, 1, rate);
  ASSERT_NE(p0.d_slot, p1.d_slot);
  ASSERT_EQ(p0.d_clock, p1.d_clock);
  ASSERT_NO_FATAL_FAILURE(paced_copy(p0, 0, 0, 0));
  ASSERT_NO_FATAL_FAILURE(paced_copy(p1, 1, bytes, 2));
  const auto stamps = read(d_stamps_, 4);
  const auto state = read(d_state_, 3);
  const auto reserved_ns = static_cast<unsigned long long>(double(bytes) * 1e9 / rate);
  // Whichever reserved first, the other's reservation begins at its end: the two ends lie at least
  // one reservation apart, the later one is the clock, and both began after both stamps before.
  const unsigned long long first = std::min(state[1], state[2]), last = std::max(state[1], state[2]);
  EXPECT_GE(last, first + reserved_ns);
  EXPECT_EQ(state[0], last);
  EXPECT_GE(first, std::min(stamps[0], stamps[2]) + reserved_ns);
  EXPECT_GE(stamps[1], state[1]);
  EXPECT_GE(stamps[3], state[2]);
}

TEST_F(LinkPacer, UnpacedHandlesQueueNothing) {
  for (const link_pace& p : {link_pace{}, link_pace_for(d_state_, 0, 0), link_pace_for(nullptr, 0, rate)}) {
    EXPECT_FALSE(p.paced());
    EXPECT_THAT(link_pace_begin(p, bytes, streams_[0]), IsOk());
    EXPECT_THAT(link_pace_end(p, streams_[0]), IsOk());
  }
  const auto state = read(d_state_, 3);
  EXPECT_EQ(state[0], 0u) << "no reservation was made";
}

}  // namespace
}  // namespace pp::cuda::test
