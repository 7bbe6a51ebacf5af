// busy_meter (src/engine/busy_meter.hpp) on a fake clock: overlapping busy intervals of several
// workers count once.
#include "engine/busy_meter.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace pp::engine {
namespace {

TEST(BusyMeter, CountsUnionOfBusyIntervals) {
  int64_t t = 0;
  busy_meter m([&] { return t; });
  m.begin();
  t = 10;
  m.begin();  // a second worker: still one busy interval
  t = 20;
  m.end();
  t = 30;
  m.end();
  t = 100;
  EXPECT_EQ(m.busy_ns(), 30);
  EXPECT_DOUBLE_EQ(m.fraction(), 0.3);
}

}  // namespace
}  // namespace pp::engine
