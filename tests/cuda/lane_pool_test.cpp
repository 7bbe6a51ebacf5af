// lane_pool (src/cuda/runtime/lane_pool.hpp), host only: never more holders than lanes, an exclusive
// holder runs alone and is not starved by a stream of single-lane users, concurrent exclusive
// requests from threads that gave their lanes back do not deadlock, and a lane_hold gives its lane
// back on every path, also around an exclusive hold.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>
#include <vector>

#include "cuda/runtime/lane_pool.hpp"

namespace pp::cuda::test {
namespace {

TEST(LanePool, NeverMoreHoldersThanLanes) {
  lane_pool pool(3);
  std::atomic<int> inside{0}, most{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < 8; ++t) {
    ts.emplace_back([&] {
      for (int k = 0; k < 200; ++k) {
        const uint32_t i = pool.acquire();
        EXPECT_LT(i, 3u);
        const int now = ++inside;
        int m = most.load();
        while (now > m && !most.compare_exchange_weak(m, now)) {
        }
        std::this_thread::yield();
        --inside;
        pool.release(i);
      }
    });
  }
  for (auto& t : ts) t.join();
  EXPECT_LE(most.load(), 3);
  EXPECT_GE(most.load(), 1);
}

TEST(LanePool, ExclusiveRunsAloneAndIsNotStarved) {
  lane_pool pool(2);
  std::atomic<bool> stop{false};
  std::atomic<int> inside{0};
  std::atomic<bool> overlap{false};
  std::vector<std::thread> users;
  for (int t = 0; t < 4; ++t) {
    users.emplace_back([&] {
      while (!stop) {
        const uint32_t i = pool.acquire();
        ++inside;
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        --inside;
        pool.release(i);
      }
    });
  }
  for (int round = 0; round < 20; ++round) {  // returns at all: not starved
    pool.acquire_all();
    if (inside.load() != 0) overlap = true;
    std::this_thread::sleep_for(std::chrono::microseconds(300));
    if (inside.load() != 0) overlap = true;
    pool.release_all();
  }
  stop = true;
  for (auto& t : users) t.join();
  EXPECT_FALSE(overlap.load()) << "a lane was handed out during an exclusive hold";
}

TEST(LanePool, ConcurrentExclusiveRequestsFinish) {
  lane_pool pool(2);
  std::atomic<int> done{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t) {
    ts.emplace_back([&] {
      for (int k = 0; k < 50; ++k) {
        const uint32_t i = pool.acquire();
        pool.release(i);  // give the lane back before asking for all of them, as the backend does
        pool.acquire_all();
        pool.release_all();
      }
      ++done;
    });
  }
  for (auto& t : ts) t.join();
  EXPECT_EQ(done.load(), 4);
}

TEST(LanePool, AHoldReleasesOnEveryPathAndHandsItsLaneBackAroundAnExclusiveHold) {
  lane_pool pool(2);
  {
    lane_hold a(pool), b(pool);
    EXPECT_NE(a.id(), b.id());
    b.hand_back();
    lane_hold c(pool);  // b's lane, free again
    EXPECT_EQ(c.id(), 1u - a.id());
    c.hand_back();
    a.hand_back();
    pool.acquire_all();  // possible only with every lane handed back
    pool.release_all();
    a.take_again();
    b.take_again();
    EXPECT_NE(a.id(), b.id());
  }  // a and b released here; c, handed back, releases nothing more
  pool.acquire_all();
  pool.release_all();
  std::atomic<int> done{0};
  std::vector<std::thread> ts;
  for (int t = 0; t < 4; ++t) {
    ts.emplace_back([&] {
      for (int k = 0; k < 50; ++k) {
        lane_hold held(pool);
        held.hand_back();  // as a re-plan does around its exclusive hold
        pool.acquire_all();
        pool.release_all();
        held.take_again();
        EXPECT_LT(held.id(), 2u);
      }
      ++done;
    });
  }
  for (auto& t : ts) t.join();
  EXPECT_EQ(done.load(), 4);
}

}  // namespace
}  // namespace pp::cuda::test
