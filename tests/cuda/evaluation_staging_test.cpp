// staged_copier (src/cuda/prover/evaluation_staging.hpp) on the GPU: values copied through two pinned chunks
// (a pinned_chunk_copier inside the staging, filled by groth16::first_unreduced's checked copy)
// come back from the device equal to the host's, followed by zeros up to the padded size (the device
// buffer starts as garbage), for sizes around the chunk, several copies in a row through one copier
// (the chunks reused behind their events), and a staging span too small to stage (direct copies).
// The first value not below r, the modulus itself included, is invalid_argument naming it; r - 1
// passes. Exits 77 without a GPU.
#include <gtest/gtest.h>

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstring>
#include <span>
#include <string>
#include <vector>

#include "cuda/prover/evaluation_staging.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

using ::testing::HasSubstr;
using ff::fr;

fr from_limbs(const uint64_t (&l)[fr::n64]) { return fr::from_montgomery(l); }

fr modulus() { return from_limbs(fr::params::modulus); }
fr modulus_minus_one() {
  uint64_t l[fr::n64];
  std::memcpy(l, fr::params::modulus, sizeof l);
  l[0] -= 1;  // r is odd: no borrow
  return from_limbs(l);
}

std::vector<fr> random_values(pp::test::test_rng& rng, uint64_t n) {
  std::vector<fr> v(n);
  for (fr& x : v) x = fr::from_uint(rng.next());
  if (n > 0) v[n - 1] = modulus_minus_one();
  return v;
}

// Pinned host memory and a device buffer for one test.
class EvaluationStaging : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), cudaSuccess);
  }
  void TearDown() override {
    if (h_pinned_ != nullptr) cudaFreeHost(h_pinned_);
    if (d_ != nullptr) cudaFree(d_);
    cudaStreamDestroy(stream_);
  }
  std::span<std::byte> pinned(uint64_t bytes) {
    void* p = nullptr;
    EXPECT_EQ(cudaHostAlloc(&p, bytes + 64, cudaHostAllocDefault), cudaSuccess);
    h_pinned_ = p;
    // Deliberately not 256-byte aligned: create() aligns the chunks itself.
    return {static_cast<std::byte*>(p) + 64, bytes};
  }
  fr* device(uint64_t n) {
    void* p = nullptr;
    EXPECT_EQ(cudaMalloc(&p, n * sizeof(fr)), cudaSuccess);
    EXPECT_EQ(cudaMemsetAsync(p, 0xa5, n * sizeof(fr), stream_), cudaSuccess);  // ordered before the copies
    d_ = p;
    return static_cast<fr*>(p);
  }
  std::vector<fr> back(const fr* d, uint64_t n) {
    EXPECT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
    std::vector<fr> v(n);
    EXPECT_EQ(cudaMemcpy(v.data(), d, n * sizeof(fr), cudaMemcpyDeviceToHost), cudaSuccess);
    return v;
  }
  static void expect_copied(const std::vector<fr>& got, std::span<const fr> want, uint64_t padded) {
    ASSERT_EQ(got.size(), padded);
    uint64_t bad = 0;
    for (uint64_t i = 0; i < padded; ++i) bad += got[i] != (i < want.size() ? want[i] : fr::zero()) ? 1 : 0;
    EXPECT_EQ(bad, 0u) << "of " << want.size() << " values padded to " << padded;
  }

  cudaStream_t stream_ = nullptr;
  void* h_pinned_ = nullptr;
  void* d_ = nullptr;
};

constexpr uint64_t chunk_values = staged_copier::min_chunk_bytes / sizeof(fr);

TEST_F(EvaluationStaging, CopiesAroundTheChunkSizeAndPads) {
  pp::test::test_rng rng;
  SCOPED_TRACE(rng.trace());
  // Room for two chunks of the least size: the copier stages in chunks of chunk_values.
  auto copier = staged_copier::create(pinned(2 * staged_copier::min_chunk_bytes + 256));
  ASSERT_THAT(copier, IsOk());
  ASSERT_TRUE(copier->pinned());
  const uint64_t padded = 3 * chunk_values + 17;
  fr* d = device(padded);
  for (const uint64_t n : {uint64_t{0}, uint64_t{1}, chunk_values - 1, chunk_values, chunk_values + 1,
                           2 * chunk_values + 5, padded}) {
    const std::vector<fr> h = random_values(rng, n);
    ASSERT_THAT(copier->copy(d, h, padded, stream_, "a"), IsOk());
    expect_copied(back(d, padded), h, padded);
  }
}

TEST_F(EvaluationStaging, ThreeCopiesInARowReuseTheChunks) {
  pp::test::test_rng rng;
  SCOPED_TRACE(rng.trace());
  auto copier = staged_copier::create(pinned(2 * staged_copier::min_chunk_bytes + 4096));
  ASSERT_THAT(copier, IsOk());
  const uint64_t n = 5 * chunk_values / 2, padded = 3 * chunk_values;
  fr* d = device(3 * padded);
  std::vector<std::vector<fr>> h;
  for (int i = 0; i < 3; ++i) {
    h.push_back(random_values(rng, n - uint64_t(i)));
    ASSERT_THAT(copier->copy(d + uint64_t(i) * padded, h.back(), padded, stream_, "abc"), IsOk());
  }
  const std::vector<fr> got = back(d, 3 * padded);
  for (int i = 0; i < 3; ++i) {
    expect_copied(std::vector<fr>(got.begin() + i * padded, got.begin() + (i + 1) * padded), h[size_t(i)], padded);
  }
}

TEST_F(EvaluationStaging, RefusesTheFirstUnreducedValueNamingIt) {
  pp::test::test_rng rng;
  SCOPED_TRACE(rng.trace());
  auto copier = staged_copier::create(pinned(2 * staged_copier::min_chunk_bytes + 512));
  ASSERT_THAT(copier, IsOk());
  const uint64_t n = 2 * chunk_values + 100;
  fr* d = device(n);
  std::vector<fr> h = random_values(rng, n);
  const uint64_t at = chunk_values + 1 + rng.next() % (chunk_values / 2);
  h[at] = modulus();
  h[at + 7] = from_limbs({~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0}, ~uint64_t{0}});
  const status st = copier->copy(d, h, n, stream_, "b");
  EXPECT_THAT(st, StatusIs(status_code::invalid_argument,
                           HasSubstr("b[" + std::to_string(at) + "] is not a reduced scalar")));
  EXPECT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
  // The earlier of two, r itself replaced by r - 1 (reduced): the all-ones value after it.
  h[at] = modulus_minus_one();
  EXPECT_THAT(copier->copy(d, h, n, stream_, "b"),
              StatusIs(status_code::invalid_argument,
                       HasSubstr("b[" + std::to_string(at + 7) + "] is not a reduced scalar")));
  EXPECT_EQ(cudaStreamSynchronize(stream_), cudaSuccess);
}

TEST_F(EvaluationStaging, TooLittleStagingCopiesDirectlyAndStillChecks) {
  pp::test::test_rng rng;
  SCOPED_TRACE(rng.trace());
  auto copier = staged_copier::create(pinned(staged_copier::min_chunk_bytes));
  ASSERT_THAT(copier, IsOk());
  EXPECT_FALSE(copier->pinned());
  const uint64_t n = chunk_values + 3, padded = n + 1000;
  fr* d = device(padded);
  std::vector<fr> h = random_values(rng, n);
  ASSERT_THAT(copier->copy(d, h, padded, stream_, "c"), IsOk());
  expect_copied(back(d, padded), h, padded);
  h[0] = modulus();
  const status st = copier->copy(d, h, padded, stream_, "c");
  EXPECT_THAT(st, StatusIs(status_code::invalid_argument, HasSubstr("c[0] is not a reduced scalar")));
}

}  // namespace
}  // namespace pp::cuda::test
