// device_slot (src/engine/device_slot.hpp) around a fake device: the scheduler's view of load and
// health, the recently used keys kept for affinity, the counters, the first fault reason, and the
// failure-injection hook.
#include "engine/device_slot.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "fake_device.hpp"

namespace pp::engine {
namespace {

using testing::fake_device;
using testing::zero_clock;

TEST(DeviceSlot, TakesItsNameAndKindFromTheDevice) {
  device_slot s(std::make_unique<fake_device>("fake0"), 2, 3, zero_clock);
  EXPECT_EQ(s.name(), "fake0");
  EXPECT_EQ(s.kind(), "fake");
  EXPECT_EQ(s.workers(), 2u);
  EXPECT_EQ(s.dev().name(), "fake0");
}

TEST(DeviceSlot, ViewCountsQueuedAndRunningAgainstWorkersPlusDepth) {
  device_slot s(std::make_unique<fake_device>("fake0"), 2, 3, zero_clock);
  std::vector<std::string> keys;
  EXPECT_EQ(s.view(keys).load, 0u);
  EXPECT_EQ(s.view(keys).max_load, 5u);
  s.placed();
  s.placed();
  s.started();  // one queued, one running
  EXPECT_EQ(s.view(keys).load, 2u);
  device_slot::snapshot snap = s.read();
  EXPECT_EQ(snap.queued, 1u);
  EXPECT_EQ(snap.running, 1u);
  s.unplaced();  // the queued one left without running
  s.ended(true, "k");
  EXPECT_EQ(s.view(keys).load, 0u);
  // More ends than starts, more unplacements than placements: the counts stay at 0.
  s.ended(true, "k");
  s.unplaced();
  EXPECT_EQ(s.read().running, 0u);
  EXPECT_EQ(s.read().queued, 0u);
}

TEST(DeviceSlot, KeepsTheRecentKeysNewestFirstWithoutRepeats) {
  device_slot s(std::make_unique<fake_device>("fake0"), 1, 1, zero_clock);
  for (const char* k : {"a", "b", "a", "c", "d", "e"}) {
    s.started();
    s.ended(true, k);
  }
  const std::vector<std::string> expect{"e", "d", "c", "a"};  // b fell out: 4 kept
  ASSERT_EQ(device_slot::recent_keys_kept, expect.size());
  EXPECT_EQ(s.read().recent_keys, expect);
  std::vector<std::string> keys;
  const device_view v = s.view(keys);
  EXPECT_TRUE(v.holds("a"));
  EXPECT_FALSE(v.holds("b"));
}

TEST(DeviceSlot, AFailureIsCountedAndNotesNoKey) {
  device_slot s(std::make_unique<fake_device>("fake0"), 1, 1, zero_clock);
  s.started();
  s.ended(false, "k");
  const device_slot::snapshot snap = s.read();
  EXPECT_EQ(snap.failures, 1u);
  EXPECT_EQ(snap.done, 0u);
  EXPECT_TRUE(snap.recent_keys.empty());
}

TEST(DeviceSlot, TheFirstFaultReasonSticks) {
  device_slot s(std::make_unique<fake_device>("fake0"), 1, 1, zero_clock);
  EXPECT_TRUE(s.healthy());
  s.mark_faulty("ECC error");
  s.mark_faulty("later reason");
  EXPECT_FALSE(s.healthy());
  std::vector<std::string> keys;
  EXPECT_FALSE(s.view(keys).healthy);
  EXPECT_EQ(s.read().fault, "ECC error");
}

TEST(DeviceSlot, InjectedFailuresAreTakenOneAtATime) {
  device_slot s(std::make_unique<fake_device>("fake0"), 1, 1, zero_clock);
  EXPECT_FALSE(s.take_injected_failure());
  s.inject_failures(2);
  EXPECT_TRUE(s.take_injected_failure());
  EXPECT_TRUE(s.take_injected_failure());
  EXPECT_FALSE(s.take_injected_failure());
}

}  // namespace
}  // namespace pp::engine
