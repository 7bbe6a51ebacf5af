// One key's plan under a VRAM budget with the CUDA backend's reserves (src/cuda/plan/budget_plan.hpp) on
// the host, for a PoRep-shaped key in both layouts: the plan is plan_key's in the budget less the
// pinned mappings' reserve and the kernels' memory, in whole 2 MiB granules as the device region; a
// budget of exactly the least it names plans, one byte less is refused naming that least; an
// unlimited budget keeps every table resident; the footprint adds up the plan.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "cuda/plan/budget_plan.hpp"
#include "cuda/plan/key_sizing.hpp"
#include "r1cs/synthetic.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

using ::testing::HasSubstr;
using groth16::h_basis;

constexpr uint64_t granule = uint64_t{2} << 20;  // device_memory::granularity

struct sized_key {
  key_shape shape;
  cuda_backend_config cfg;
};

// The PoRep-shaped circuit of `constraints` rows with the key the insecure setup would make in basis,
// as the backend shapes it under cfg, with chunks of at most 2^12 points (so budgets stream it).
sized_key porep_key(uint64_t constraints, h_basis basis) {
  sized_key k;
  k.cfg.max_chunk_points = 4096;
  k.cfg.max_matrix_chunk_bytes = 1 << 16;
  auto c = r1cs::make_synthetic(r1cs::synthetic_params::porep(constraints, pp::test::test_seed() % 1000 + 3));
  EXPECT_THAT(c, IsOk());
  if (!c.ok()) return k;
  const auto sizes = key_sizes::of_setup(c->cs, basis);
  const auto compact = make_compact_r1cs(c->cs);
  EXPECT_THAT(sizes, IsOk());
  EXPECT_THAT(compact, IsOk());
  if (!sizes.ok() || !compact.ok()) return k;
  auto s = shape_key(*sizes, c->cs, *compact, k.cfg.staging_bytes, matrix_rows_for(k.cfg), k.cfg.h_copies);
  EXPECT_THAT(s, IsOk());
  if (s.ok()) k.shape = *s;
  return k;
}

TEST(BudgetPlan, PlanKeyInsideTheReserves) {
  for (const h_basis basis : {h_basis::monomial, h_basis::odd_coset_lagrange}) {
    SCOPED_TRACE(basis == h_basis::monomial ? "monomial" : "snarkjs");
    sized_key k = porep_key(50000, basis);
    ASSERT_GT(k.shape.n, 0u);
    const auto opts = options_for(k.shape, k.cfg);
    ASSERT_THAT(opts, IsOk());
    const uint64_t reserve = budget_pin_reserve_bytes(k.cfg);
    EXPECT_EQ(reserve, uint64_t{128} << 20);  // 64 GiB pinned at 2 MiB a GiB
    const uint64_t driver = uint64_t{7} << 20;
    const uint64_t least = least_budget_bytes(k.shape, *opts, k.cfg, driver);
    const uint64_t least_region = least - reserve - driver;
    EXPECT_EQ(least_region % granule, 0u);
    EXPECT_GE(least_region, least_plan_bytes(k.shape, *opts));
    EXPECT_LT(least_region, least_plan_bytes(k.shape, *opts) + granule);

    // Unlimited: every table resident, no reserve kept.
    k.cfg.max_vram_bytes = 0;
    const auto all = plan_for_budget(k.shape, k.cfg, driver);
    ASSERT_THAT(all, IsOk());
    EXPECT_EQ(all->region, std::numeric_limits<uint64_t>::max());
    EXPECT_EQ(all->pin_reserve, 0u);
    EXPECT_FALSE(all->plan.streams());
    EXPECT_EQ(all->plan.lanes, k.cfg.lanes);
    EXPECT_EQ(all->least_budget, least);

    const uint64_t full = all->plan.total_bytes();
    for (const uint64_t budget : {least, least + 1, least + full / 2, full + reserve + driver}) {
      SCOPED_TRACE("budget " + std::to_string(budget));
      k.cfg.max_vram_bytes = budget;
      const auto b = plan_for_budget(k.shape, k.cfg, driver);
      ASSERT_THAT(b, IsOk());
      const uint64_t region = (budget - reserve - driver) / granule * granule;
      EXPECT_EQ(b->region, region);
      EXPECT_EQ(b->pin_reserve, reserve);
      const auto want = plan_key(k.shape, *opts, region, k.cfg.lanes);
      ASSERT_THAT(want, IsOk());
      EXPECT_EQ(b->plan.to_string(k.shape), want->to_string(k.shape));
      EXPECT_EQ(b->plan.total_bytes(), want->total_bytes());
      EXPECT_LE(b->plan.total_bytes() + reserve + driver, budget);
      const key_footprint f = footprint_of(k.shape, b->plan);
      EXPECT_EQ(f.total_bytes(), b->plan.total_bytes());
      EXPECT_EQ(f.streamed_bytes, b->plan.streamed_bytes(k.shape));
      EXPECT_EQ(f.plan, b->plan.to_string(k.shape));
    }
    k.cfg.max_vram_bytes = least;
    const auto at_least = plan_for_budget(k.shape, k.cfg, driver);
    ASSERT_THAT(at_least, IsOk());
    EXPECT_TRUE(at_least->plan.streams());
    EXPECT_EQ(at_least->plan.lanes, 1u);

    k.cfg.max_vram_bytes = least - 1;
    EXPECT_THAT(plan_for_budget(k.shape, k.cfg, driver),
                StatusIs(status_code::resource_exhausted, HasSubstr("at least " + std::to_string(least) + " bytes")));
  }
}

}  // namespace
}  // namespace pp::cuda::test
