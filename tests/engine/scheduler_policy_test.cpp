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

}  // namespace
}  // namespace pp::engine
