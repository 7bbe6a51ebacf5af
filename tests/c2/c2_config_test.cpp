// c2_config_from / load_c2_config: the key budget and the GPU options from the daemon's engine
// section, a missing file named.
#include "c2/c2_config.hpp"
#include "support/status_matchers.hpp"

#include <gtest/gtest.h>

namespace pp::c2 {
namespace {

TEST(C2Config, KeyBudgetIsTheKeyShareOfHostMemory) {
  auto sc = server::parse_server_config("[engine]\nhost_memory_mb = 1000\nkey_memory_fraction = 0.25\n", "test");
  ASSERT_THAT(sc, IsOk());
  auto c = c2_config_from(*sc);
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->key_budget_bytes, (uint64_t{1000} << 20) / 4);
  EXPECT_TRUE(c->self_verify);
}

TEST(C2Config, DefaultsSizeTheBudgetFromTheMachine) {
  auto c = load_c2_config("");
  ASSERT_THAT(c, IsOk());
  EXPECT_GT(c->key_budget_bytes, 0u);
}

TEST(C2Config, GpuOptionsComeFromTheEngineSection) {
  auto sc = server::parse_server_config(
      "[engine]\nbackend = \"cuda\"\ngpus = [1]\ngpu_vram_max_mb = 24576\ngpu_vram_share = 0.5\n"
      "gpu_staging_mb = 64\nworkers_per_device = 3\n",
      "test");
  ASSERT_THAT(sc, IsOk());
  auto c = c2_config_from(*sc);
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->backend, "cuda");
  EXPECT_EQ(c->gpu.ordinals, std::vector<int>{1});
  EXPECT_EQ(c->gpu.max_vram_bytes, uint64_t{24} << 30);
  EXPECT_DOUBLE_EQ(c->gpu.vram_share, 0.5);
  EXPECT_EQ(c->gpu.staging_bytes, uint64_t{64} << 20);
  EXPECT_EQ(c->gpu.lanes, 3u);
}

TEST(C2Config, DefaultsAreAutoWithTwoLanesPerGpu) {
  auto c = load_c2_config("");
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->backend, "auto");
  EXPECT_EQ(c->gpu.lanes, 2u);
  EXPECT_TRUE(c->gpu.ordinals.empty());
}

TEST(C2Config, MissingFileIsNotFound) {
  auto c = load_c2_config("/nonexistent/proofpipe.toml");
  ASSERT_THAT(c, StatusIs(status_code::not_found));
}

}  // namespace
}  // namespace pp::c2
