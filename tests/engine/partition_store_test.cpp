// partition_store (src/engine/partition_store.hpp): parked state is claimed once, a job's erase drops
// all of its partitions and only its own, and what is dropped is destroyed (its memory and leases
// come back) even when no stage ever claims it.
#include "engine/partition_store.hpp"

#include <gtest/gtest.h>

#include <memory>

namespace pp::engine {
namespace {

// Counts live instances, as a stand-in for a partition's reservation and key lease.
struct parked {
  explicit parked(int& live, int tag = 0) : live_(live), tag(tag) { ++live_; }
  ~parked() { --live_; }
  parked(const parked&) = delete;
  parked& operator=(const parked&) = delete;
  int& live_;
  int tag;
};

TEST(PartitionStore, AClaimTakesTheStateOnce) {
  int live = 0;
  partition_store<parked> store;
  store.put(7, 0, std::make_unique<parked>(live, 42));
  EXPECT_EQ(store.size(), 1u);
  auto w = store.claim(7, 0);
  ASSERT_NE(w, nullptr);
  EXPECT_EQ(w->tag, 42);
  EXPECT_EQ(store.claim(7, 0), nullptr);  // a second claim finds nothing
  EXPECT_EQ(store.size(), 0u);
  w.reset();
  EXPECT_EQ(live, 0);
}

TEST(PartitionStore, ClaimingWhatIsNotParkedGivesNull) {
  partition_store<parked> store;
  EXPECT_EQ(store.claim(1, 0), nullptr);
}

TEST(PartitionStore, EraseJobDropsEveryPartitionOfThatJobOnly) {
  int live = 0;
  {
    partition_store<parked> store;
    for (uint32_t p = 0; p < 3; ++p) store.put(5, p, std::make_unique<parked>(live));
    store.put(4, 0, std::make_unique<parked>(live));  // neighbours on either side of job 5's keys
    store.put(6, 0, std::make_unique<parked>(live));
    EXPECT_EQ(live, 5);
    EXPECT_EQ(store.erase_job(5), 3u);
    EXPECT_EQ(live, 2);  // destroyed at once, not when the store goes
    EXPECT_EQ(store.size(), 2u);
    EXPECT_EQ(store.claim(5, 1), nullptr);  // the stage that pops its task skips it
    EXPECT_NE(store.claim(4, 0), nullptr);
    EXPECT_EQ(store.erase_job(5), 0u);
  }
  EXPECT_EQ(live, 0);  // what was left parked dies with the store
}

}  // namespace
}  // namespace pp::engine
