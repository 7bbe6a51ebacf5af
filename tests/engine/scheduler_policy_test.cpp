#include "engine/scheduler_policy.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace pp::engine {
namespace {

const std::vector<std::string> none;
const std::vector<std::string> key_a{"A"};
const std::vector<std::string> key_b{"B"};

device_view dev(uint32_t load, const std::vector<std::string>& keys = none, bool healthy = true,
                uint32_t max_load = 2) {
  return device_view{healthy, load, max_load, keys};
}

TEST(SchedulerPolicy, NothingToDo) {
  const std::vector<device_view> devices{dev(0)};
  EXPECT_FALSE(choose_placement({}, devices).has_value());
  const std::vector<task_view> tasks{{priority::normal, 0, "A"}};
  EXPECT_FALSE(choose_placement(tasks, {}).has_value());
}

TEST(SchedulerPolicy, PriorityFirstThenFifo) {
  const std::vector<task_view> tasks{
      {priority::normal, 1, "A"}, {priority::high, 5, "A"}, {priority::high, 3, "A"}, {priority::low, 0, "A"}};
  const std::vector<device_view> devices{dev(0)};
  EXPECT_EQ(choose_placement(tasks, devices), (placement{2, 0}));
}

TEST(SchedulerPolicy, AffinityBeatsLoad) {
  const std::vector<task_view> tasks{{priority::normal, 0, "B"}};
  const std::vector<device_view> devices{dev(0, key_a), dev(1, key_b), dev(0)};
  EXPECT_EQ(choose_placement(tasks, devices), (placement{0, 1}));
}

TEST(SchedulerPolicy, LowestLoadThenLowestIndex) {
  const std::vector<task_view> tasks{{priority::normal, 0, "C"}};
  const std::vector<device_view> devices{dev(1), dev(0), dev(0)};
  EXPECT_EQ(choose_placement(tasks, devices), (placement{0, 1}));
  const std::vector<device_view> with_key{dev(1, key_a), dev(0, key_a), dev(0)};
  const std::vector<task_view> a_task{{priority::normal, 0, "A"}};
  EXPECT_EQ(choose_placement(a_task, with_key), (placement{0, 1}));
}

TEST(SchedulerPolicy, UnhealthyNeverChosen) {
  const std::vector<task_view> tasks{{priority::critical, 0, "A"}};
  const std::vector<device_view> sick{dev(0, key_a, false)};
  EXPECT_FALSE(choose_placement(tasks, sick).has_value());
  const std::vector<device_view> devices{dev(0, key_a, false), dev(1)};
  EXPECT_EQ(choose_placement(tasks, devices), (placement{0, 1}));
}

TEST(SchedulerPolicy, FullDevicesTakeNoNormalWork) {
  const std::vector<task_view> tasks{{priority::high, 0, "A"}, {priority::normal, 1, "A"}};
  const std::vector<device_view> devices{dev(2), dev(2)};
  EXPECT_FALSE(choose_placement(tasks, devices).has_value());
}

TEST(SchedulerPolicy, CriticalGoesEvenWhenNormalWorkFillsTheQueues) {
  const std::vector<task_view> tasks{
      {priority::normal, 0, "A"}, {priority::normal, 1, "A"}, {priority::critical, 9, "B"}};
  const std::vector<device_view> devices{dev(2, key_a), dev(3, key_b), dev(2)};
  EXPECT_EQ(choose_placement(tasks, devices), (placement{2, 1}));
}

constexpr curve_mask bls_only = curve_bit(ec::curve_id::bls12_381);
constexpr curve_mask both = curve_bit(ec::curve_id::bls12_381) | curve_bit(ec::curve_id::bn254);

device_view proving(curve_mask curves, uint32_t load, uint32_t max_load = 2) {
  device_view v = dev(load, none, true, max_load);
  v.curves = curves;
  return v;
}

TEST(SchedulerPolicy, ATaskGoesOnlyToADeviceThatProvesItsCurve) {
  const std::vector<task_view> bn{{priority::critical, 0, "A", ec::curve_id::bn254}};
  const std::vector<device_view> gpus{proving(bls_only, 0), proving(bls_only, 0)};
  EXPECT_FALSE(choose_placement(bn, gpus).has_value()) << "not even CRITICAL on a device of the other curve";
  const std::vector<device_view> mixed{proving(bls_only, 0), proving(both, 1)};
  EXPECT_EQ(choose_placement(bn, mixed), (placement{0, 1})) << "the busier device, the only one that proves it";
}

TEST(SchedulerPolicy, AWaitingTaskLeavesDevicesItCannotUseToLaterTasks) {
  // The BN254 task is first but the CPU is full: the BLS12-381 task behind it takes the GPU.
  const std::vector<task_view> tasks{{priority::high, 0, "N", ec::curve_id::bn254},
                                     {priority::normal, 1, "B", ec::curve_id::bls12_381}};
  const std::vector<device_view> devices{proving(both, 2), proving(bls_only, 0)};
  EXPECT_EQ(choose_placement(tasks, devices), (placement{1, 1}));
  // ... but never the CPU it waits for, even with room for one more there.
  const std::vector<device_view> cpu_only{proving(both, 1, 1)};
  EXPECT_FALSE(choose_placement(tasks, cpu_only).has_value());
}

TEST(SchedulerPolicy, AWaitingBls12381TaskHoldsEveryDevice) {
  // Every device proves BLS12-381: a BLS12-381 task that waits keeps every later task waiting.
  const std::vector<task_view> tasks{{priority::high, 0, "B", ec::curve_id::bls12_381},
                                     {priority::normal, 1, "N", ec::curve_id::bn254}};
  const std::vector<device_view> devices{proving(bls_only, 2), proving(both, 0)};
  EXPECT_EQ(choose_placement(tasks, devices), (placement{0, 1})) << "it takes the CPU itself";
  const std::vector<device_view> full{proving(bls_only, 2), proving(both, 2)};
  EXPECT_FALSE(choose_placement(tasks, full).has_value());
}

}  // namespace
}  // namespace pp::engine
