// The host memory a device takes for the keys it serves (a GPU's pinned matrix image, devices::device
// ::set_host_charge) is charged to the engine's key budget: the engine hands every device a charge
// before any partition; a charge shows as key memory in use until its token dies, one the budget
// cannot hold is refused (never granted beyond the budget), and charges meet the key store's use.
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "engine/engine.hpp"
#include "fake_device.hpp"
#include "support/status_matchers.hpp"

namespace pp::engine {
namespace {

using ::testing::Not;

// A fake device that keeps the charge the engine hands it.
class charged_device final : public devices::device {
 public:
  explicit charged_device(host_charge* out) : out_(out) {}
  [[nodiscard]] std::string_view name() const override { return "charged0"; }
  [[nodiscard]] std::string_view kind() const override { return "fake"; }
  [[nodiscard]] groth16::backend& backend() override { return backend_; }
  void set_host_charge(host_charge c) override { *out_ = std::move(c); }

 private:
  host_charge* out_;
  testing::fake_backend backend_;
};

TEST(HostCharge, DeviceChargesCountAsKeyMemory) {
  devices::device::host_charge charge;
  engine_config c;
  c.host_memory_bytes = uint64_t{64} << 20;  // keys 32 MiB
  c.key_memory_fraction = 0.5;
  c.make_devices = [&charge]() -> result<std::vector<device_ptr>> {
    std::vector<device_ptr> v;
    v.push_back(std::make_unique<charged_device>(&charge));
    return v;
  };
  auto e = engine::create(std::move(c));
  ASSERT_THAT(e, IsOk());
  ASSERT_TRUE(charge) << "the engine gave the device no charge";
  const uint64_t keys_total = (*e)->status().memory.keys_total;
  ASSERT_EQ(keys_total, uint64_t{32} << 20);
  EXPECT_EQ((*e)->status().memory.keys_in_use, 0u);

  auto image = charge(uint64_t{20} << 20);
  ASSERT_THAT(image, IsOk());
  EXPECT_EQ((*e)->status().memory.keys_in_use, uint64_t{20} << 20);
  // What is left cannot hold a second such image; more than the whole key budget never fits.
  EXPECT_THAT(charge(uint64_t{20} << 20), Not(IsOk()));
  EXPECT_THAT(charge(keys_total + 1), Not(IsOk()));
  EXPECT_EQ((*e)->status().memory.keys_in_use, uint64_t{20} << 20);
  auto small = charge(uint64_t{12} << 20);
  ASSERT_THAT(small, IsOk());
  EXPECT_EQ((*e)->status().memory.keys_in_use, keys_total);
  // Dropping the token (the device evicted the key) gives the bytes back.
  image->reset();
  EXPECT_EQ((*e)->status().memory.keys_in_use, uint64_t{12} << 20);
  small->reset();
  EXPECT_EQ((*e)->status().memory.keys_in_use, 0u);
  EXPECT_THAT(charge(keys_total), IsOk());  // the whole budget, once free (its token dies at once)
  EXPECT_EQ((*e)->status().memory.keys_in_use, 0u);
}

}  // namespace
}  // namespace pp::engine
