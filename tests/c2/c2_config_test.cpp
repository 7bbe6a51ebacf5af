// c2_config_from / load_c2_config: the key budget from the daemon's engine section, the cuda
// backend refused, a missing file named.
#include "c2/c2_config.hpp"
#include "support/status_matchers.hpp"

#include <gtest/gtest.h>

namespace pp::c2 {
namespace {

TEST(c2_config, key_budget_is_the_key_share_of_host_memory) {
  auto sc = server::parse_server_config("[engine]\nhost_memory_mb = 1000\nkey_memory_fraction = 0.25\n", "test");
  ASSERT_THAT(sc, IsOk());
  auto c = c2_config_from(*sc);
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->key_budget_bytes, (uint64_t{1000} << 20) / 4);
  EXPECT_TRUE(c->self_verify);
}

TEST(c2_config, defaults_size_the_budget_from_the_machine) {
  auto c = load_c2_config("");
  ASSERT_THAT(c, IsOk());
  EXPECT_GT(c->key_budget_bytes, 0u);
}

TEST(c2_config, cuda_backend_is_refused_with_the_key) {
  auto sc = server::parse_server_config("[engine]\nbackend = \"cuda\"\n", "test");
  ASSERT_THAT(sc, IsOk());
  auto c = c2_config_from(*sc);
  ASSERT_THAT(c, StatusIs(status_code::invalid_argument));
  EXPECT_NE(c.error().message().find("engine.backend"), std::string::npos);
}

TEST(c2_config, missing_file_is_not_found) {
  auto c = load_c2_config("/nonexistent/proofpipe.toml");
  ASSERT_THAT(c, StatusIs(status_code::not_found));
}

}  // namespace
}  // namespace pp::c2
