#include "engine/memory_budget.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>
#include <vector>

#include "eventually.hpp"
#include "support/status_matchers.hpp"

namespace pp::engine {
namespace {

using testing::eventually;
using namespace std::chrono_literals;

TEST(MemoryBudget, ReserveAndReleaseOnDestruction) {
  memory_budget b(100);
  {
    auto r = b.reserve(60, no_deadline());
    ASSERT_THAT(r, IsOk());
    EXPECT_EQ(r->bytes(), 60u);
    EXPECT_EQ(b.stats().in_use, 60u);
  }
  EXPECT_EQ(b.stats().in_use, 0u);
  EXPECT_EQ(b.stats().peak, 60u);
}

TEST(MemoryBudget, ZeroBytesAndExactFit) {
  memory_budget b(100);
  auto z = b.reserve(0, immediate());
  ASSERT_THAT(z, IsOk());
  auto all = b.reserve(100, immediate());
  ASSERT_THAT(all, IsOk());
  EXPECT_EQ(b.stats().in_use, 100u);
}

TEST(MemoryBudget, LargerThanTotalFailsAtOnce) {
  memory_budget b(100);
  auto r = b.reserve(101, no_deadline());
  ASSERT_THAT(r, StatusIs(status_code::resource_exhausted));
}

TEST(MemoryBudget, DeadlinePasses) {
  memory_budget b(100);
  auto held = b.reserve(80, no_deadline());
  auto r = b.reserve(30, immediate());
  ASSERT_THAT(r, StatusIs(status_code::deadline_exceeded));
  auto r2 = b.reserve(30, deadline_in(20ms));
  ASSERT_THAT(r2, StatusIs(status_code::deadline_exceeded));
  EXPECT_EQ(b.stats().waiters, 0u);
  EXPECT_EQ(b.stats().in_use, 80u);
}

TEST(MemoryBudget, ShrinkGivesBytesBack) {
  memory_budget b(100);
  auto r = b.reserve(100, no_deadline());
  ASSERT_THAT(r, IsOk());
  EXPECT_EQ(r->shrink_to(101).code(), status_code::invalid_argument);
  ASSERT_THAT(r->shrink_to(40), IsOk());
  EXPECT_EQ(r->bytes(), 40u);
  EXPECT_EQ(b.stats().in_use, 40u);
  auto other = b.reserve(60, immediate());
  EXPECT_THAT(other, IsOk());
  ASSERT_THAT(r->shrink_to(0), IsOk());
  EXPECT_EQ(b.stats().in_use, 60u);
}

TEST(MemoryBudget, MoveTransfersOwnership) {
  memory_budget b(100);
  auto r = b.reserve(50, no_deadline());
  ASSERT_THAT(r, IsOk());
  memory_reservation a = std::move(r).value();
  memory_reservation c;
  c = std::move(a);
  EXPECT_EQ(a.bytes(), 0u);  // NOLINT: moved-from is empty by contract
  EXPECT_EQ(c.bytes(), 50u);
  EXPECT_EQ(b.stats().in_use, 50u);
  c.release();
  EXPECT_EQ(b.stats().in_use, 0u);
}

TEST(MemoryBudget, WaiterGrantedOnRelease) {
  memory_budget b(100);
  auto held = b.reserve(90, no_deadline());
  ASSERT_THAT(held, IsOk());
  std::atomic<bool> got{false};
  std::thread t([&] {
    auto r = b.reserve(50, no_deadline());
    got = r.ok();
  });
  ASSERT_TRUE(eventually([&] { return b.stats().waiters == 1; }));
  EXPECT_FALSE(got);
  held->release();
  t.join();
  EXPECT_TRUE(got);
}

// A later small request that would fit must not overtake an earlier large one.
TEST(MemoryBudget, FifoFair) {
  memory_budget b(100);
  auto held = b.reserve(60, no_deadline());
  ASSERT_THAT(held, IsOk());
  std::atomic<int> a_done{0}, b_done{0};
  memory_reservation a_res, b_res;
  std::thread ta([&] {
    auto r = b.reserve(80, no_deadline());
    a_res = std::move(r).value();
    a_done = 1;
  });
  ASSERT_TRUE(eventually([&] { return b.stats().waiters == 1; }));
  std::thread tb([&] {
    auto r = b.reserve(30, no_deadline());
    b_res = std::move(r).value();
    b_done = 1;
  });
  ASSERT_TRUE(eventually([&] { return b.stats().waiters == 2; }));
  // 60 + 30 fits, but B is behind A.
  EXPECT_EQ(b.try_reserve(10).error().code(), status_code::unavailable);
  EXPECT_EQ(a_done + b_done, 0);
  held->release();  // A (80) fits; B (30) then does not
  ta.join();
  EXPECT_EQ(a_done, 1);
  ASSERT_TRUE(eventually([&] { return b.stats().waiters == 1; }));
  EXPECT_EQ(b_done, 0);
  a_res.release();
  tb.join();
  EXPECT_EQ(b_done, 1);
  EXPECT_EQ(b.stats().in_use, 30u);
}

// A head waiter that gives up must let the smaller waiters behind it through.
TEST(MemoryBudget, TimedOutHeadUnblocksOthers) {
  memory_budget b(100);
  auto held = b.reserve(60, no_deadline());
  std::atomic<bool> small_ok{false};
  std::thread big([&] {
    auto r = b.reserve(80, deadline_in(50ms));
    EXPECT_EQ(r.error().code(), status_code::deadline_exceeded);
  });
  ASSERT_TRUE(eventually([&] { return b.stats().waiters == 1; }));
  std::thread small([&] { small_ok = b.reserve(30, no_deadline()).ok(); });
  big.join();
  small.join();
  EXPECT_TRUE(small_ok);
}

TEST(MemoryBudget, StressNeverOverCommits) {
  constexpr uint64_t total = 1000;
  memory_budget b(total);
  std::atomic<uint64_t> live{0};
  std::atomic<bool> over{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t) {
    threads.emplace_back([&, t] {
      std::mt19937 rng(t);
      for (int i = 0; i < 2000; ++i) {
        const uint64_t want = rng() % 400 + 1;
        auto r = b.reserve(want, deadline_in(10s));
        ASSERT_THAT(r, IsOk());
        if (live.fetch_add(want) + want > total) over = true;
        if (rng() % 2 == 0) {
          const uint64_t keep = want / 2;
          live.fetch_sub(want - keep);
          ASSERT_THAT(r->shrink_to(keep), IsOk());
          std::this_thread::yield();
          live.fetch_sub(keep);
        } else {
          live.fetch_sub(want);
        }
        // live is decremented before the bytes go back, so it never under-reports.
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_FALSE(over);
  const auto s = b.stats();
  EXPECT_EQ(s.in_use, 0u);
  EXPECT_LE(s.peak, total);
  EXPECT_EQ(s.waiters, 0u);
}

}  // namespace
}  // namespace pp::engine
