// The cuda_backend configuration the GPU prover tests run under: a region of 80% of the free VRAM
// capped at `max_vram_gib`, `staging_mib` of pinned staging per lane, and `lanes` lanes; and the
// kernels' warm-up every such test binary runs once before its tests.
#pragma once
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>

#include "cuda/prover/cuda_backend.hpp"
#include "cuda/prover/kernel_warmup.hpp"
#include "support/status_matchers.hpp"

namespace pp::cuda::test {

inline cuda_backend_config backend_test_config(uint64_t max_vram_gib, uint64_t staging_mib, uint32_t lanes) {
  cuda_backend_config c;
  c.vram_share = 0.8;
  c.max_vram_bytes = max_vram_gib << 30;
  c.staging_bytes = staging_mib << 20;
  c.lanes = lanes;
  return c;
}

// The kernels' first launches take device memory outside any region (kernel_warmup.hpp): taken once,
// before any test (a binary registers it with ::testing::AddGlobalTestEnvironment), the exact
// budgets the tests compute are not shortened by it, whichever test runs first or alone.
class warm_kernels : public ::testing::Environment {
 public:
  void SetUp() override { ASSERT_THAT(warm_up_kernels(0), pp::IsOk()); }
};

}  // namespace pp::cuda::test
