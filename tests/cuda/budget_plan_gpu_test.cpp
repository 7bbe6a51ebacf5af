// The CUDA backend on a device against the host's plan of the same key (src/cuda/plan/budget_plan.hpp,
// what `proofpipe plan` prints): under budgets from the least the host names up to one that keeps
// most of a PoRep-shaped key resident, the backend's region is plan_for_budget's (with the
// device's driver_bytes), and the key it places takes exactly the host's plan: the same tables
// resident, chunks, lanes, bytes. Both layouts.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <string>

#include "backend_test_config.hpp"
#include "cuda/plan/budget_plan.hpp"
#include "cuda/plan/key_sizing.hpp"
#include "cuda/prover/cuda_backend.hpp"
#include "cuda/runtime/device_memory.hpp"
#include "support/groth16_fixtures.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

using groth16::h_basis;

TEST(BudgetPlanGpu, BackendPlansWhatTheHostPrints) {
  const uint64_t seed = pp::test::test_seed();
  for (const h_basis basis : {h_basis::monomial, h_basis::odd_coset_lagrange}) {
    SCOPED_TRACE(basis == h_basis::monomial ? "monomial" : "snarkjs");
    const auto inst = pp::test::make_keyed_circuit(r1cs::synthetic_params::porep(60000, seed % 1000 + 31), basis,
                                                   seed + 2);
    ASSERT_NE(inst, nullptr);
    cuda_backend_config cfg = backend_test_config(0, 64, 2);
    cfg.max_chunk_points = 1024;
    const auto compact = make_compact_r1cs(inst->circuit.cs);
    ASSERT_THAT(compact, IsOk());
    const auto shape =
        shape_key(inst->pk, inst->circuit.cs, *compact, cfg.staging_bytes, matrix_rows_for(cfg), cfg.h_copies);
    ASSERT_THAT(shape, IsOk());
    // The kernels' memory: what a backend measures at create (kernel_warmup.hpp), the same for every
    // backend of this process.
    cfg.max_vram_bytes = uint64_t{1} << 30;
    const auto probe = cuda_backend::create(cfg);
    ASSERT_THAT(probe, IsOk());
    const uint64_t driver = (*probe)->driver_bytes();
    cfg.max_vram_bytes = 0;
    const auto unlimited = plan_for_budget(*shape, cfg, driver);
    ASSERT_THAT(unlimited, IsOk());
    const uint64_t least = unlimited->least_budget;
    for (const uint64_t budget : {least, least + (uint64_t{5} << 20), least + unlimited->plan.total_bytes() / 2,
                                  least + unlimited->plan.total_bytes()}) {
      SCOPED_TRACE("budget " + std::to_string(budget));
      cfg.max_vram_bytes = budget;
      const auto host = plan_for_budget(*shape, cfg, driver);
      ASSERT_THAT(host, IsOk());
      auto be = cuda_backend::create(cfg);
      ASSERT_THAT(be, IsOk());
      EXPECT_EQ((*be)->driver_bytes(), driver);
      EXPECT_EQ((*be)->capacity_bytes(), host->region);
      ASSERT_THAT((*be)->prepare(inst->pk, inst->circuit.cs), IsOk());
      const auto placed = (*be)->resident_footprint(inst->pk, inst->circuit.cs);
      ASSERT_THAT(placed, IsOk());
      const key_footprint want = footprint_of(*shape, host->plan);
      std::printf("budget %llu: %s\n", (unsigned long long)budget, placed->plan.c_str());
      EXPECT_EQ(placed->plan, want.plan);
      EXPECT_EQ(placed->total_bytes(), want.total_bytes());
      EXPECT_EQ(placed->streamed_bytes, want.streamed_bytes);
      EXPECT_EQ((*be)->used_bytes(), host->plan.total_bytes());
    }
    // Below the least the host names: the backend refuses the key, naming that least.
    cfg.max_vram_bytes = least - device_memory::granularity;
    auto be = cuda_backend::create(cfg);
    ASSERT_THAT(be, IsOk());
    EXPECT_THAT((*be)->prepare(inst->pk, inst->circuit.cs),
                StatusIs(status_code::failed_precondition, ::testing::HasSubstr("at least " + std::to_string(least))));
  }
}

}  // namespace
}  // namespace pp::cuda::test
