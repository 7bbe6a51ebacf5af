#include "engine/device_arena.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <deque>
#include <map>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "eventually.hpp"

namespace pp::engine {
namespace {

using testing::eventually;
using namespace std::chrono_literals;

TEST(DeviceArena, CapacityRoundsDownToAlignment) {
  device_arena a(1000);
  EXPECT_EQ(a.capacity(), 768u);
  EXPECT_EQ(a.aligned(1), 256u);
  EXPECT_EQ(a.aligned(256), 256u);
  EXPECT_EQ(a.aligned(0), 0u);
}

TEST(DeviceArena, RegionsAreAlignedAndDisjoint) {
  device_arena a(4096);
  const std::vector<uint64_t> sizes{1, 300, 0, 256};
  auto r = a.reserve(sizes, no_deadline());
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->regions().size(), 4u);
  EXPECT_EQ((*r)[0].offset, 0u);
  EXPECT_EQ((*r)[1].offset, 256u);
  EXPECT_EQ((*r)[1].size, 300u);
  EXPECT_EQ((*r)[2].size, 0u);
  EXPECT_EQ((*r)[3].offset, 768u);
  for (const auto& reg : r->regions()) EXPECT_EQ(reg.offset % 256, 0u);
  EXPECT_EQ(a.stats().in_use, 1024u);
  r->release_now();
  EXPECT_EQ(a.stats().in_use, 0u);
  EXPECT_EQ(a.stats().free_blocks, 1u);
  EXPECT_EQ(a.stats().largest_free_block, 4096u);
}

TEST(DeviceArena, TooLargeFailsAtOnce) {
  device_arena a(1024);
  EXPECT_EQ(a.reserve(1025, no_deadline()).error().code(), status_code::resource_exhausted);
  const std::vector<uint64_t> sizes{512, 513};  // 512 + 768 aligned
  EXPECT_EQ(a.reserve(sizes, no_deadline()).error().code(), status_code::resource_exhausted);
  EXPECT_EQ(a.reserve(UINT64_MAX, no_deadline()).error().code(), status_code::resource_exhausted);
}

TEST(DeviceArena, ReleasedWhenEventFires) {
  device_arena a(1024);
  auto r = a.reserve(1024, no_deadline());
  ASSERT_TRUE(r.ok());
  auto ev = std::make_shared<manual_event>();
  r->release_after(ev);
  EXPECT_TRUE(r->empty());
  EXPECT_EQ(a.stats().in_use, 1024u);  // device work still running
  EXPECT_EQ(a.reserve(256, immediate()).error().code(), status_code::deadline_exceeded);
  ev->complete();
  EXPECT_EQ(a.stats().in_use, 0u);
  EXPECT_TRUE(a.reserve(1024, immediate()).ok());
}

TEST(DeviceArena, AlreadyCompleteEventReleasesAtOnce) {
  device_arena a(1024);
  auto ev = std::make_shared<manual_event>();
  ev->complete();
  auto r = a.reserve(512, no_deadline());
  r->release_after(ev);
  EXPECT_EQ(a.stats().in_use, 0u);
}

TEST(DeviceArena, WaiterWakesOnEventAndAllOrNothing) {
  device_arena a(1024);
  auto first = a.reserve(512, no_deadline());
  auto ev = std::make_shared<manual_event>();
  std::atomic<bool> done{false};
  arena_reservation got;
  std::thread t([&] {
    const std::vector<uint64_t> sizes{512, 512};
    auto r = a.reserve(sizes, no_deadline());
    ASSERT_TRUE(r.ok());
    got = std::move(r).value();
    done = true;
  });
  ASSERT_TRUE(eventually([&] { return a.stats().waiters == 1; }));
  // Half of what it needs is free, but it holds nothing while it waits.
  EXPECT_EQ(a.stats().in_use, 512u);
  EXPECT_FALSE(done);
  first->release_after(ev);
  EXPECT_FALSE(done);
  ev->complete();
  t.join();
  EXPECT_TRUE(done);
  EXPECT_EQ(got.regions().size(), 2u);
  EXPECT_EQ(a.stats().in_use, 1024u);
}

TEST(DeviceArena, FifoFairAndDeadline) {
  device_arena a(1024);
  auto held = a.reserve(768, no_deadline());
  std::atomic<int> big_done{0}, small_done{0};
  arena_reservation big_res, small_res;
  std::thread big([&] {
    big_res = a.reserve(1024, no_deadline()).value();
    big_done = 1;
  });
  ASSERT_TRUE(eventually([&] { return a.stats().waiters == 1; }));
  std::thread small([&] {
    small_res = a.reserve(256, no_deadline()).value();
    small_done = 1;
  });
  ASSERT_TRUE(eventually([&] { return a.stats().waiters == 2; }));
  // 256 bytes are free, but the small request is behind the big one.
  auto timed = a.reserve(256, deadline_in(20ms));
  EXPECT_EQ(timed.error().code(), status_code::deadline_exceeded);
  EXPECT_EQ(big_done + small_done, 0);
  held->release_now();
  big.join();
  EXPECT_EQ(big_done, 1);
  EXPECT_EQ(small_done, 0);
  big_res.release_now();
  small.join();
  EXPECT_EQ(small_done, 1);
  small_res.release_now();
  EXPECT_EQ(a.stats().in_use, 0u);
}

TEST(DeviceArena, FreeListCoalesces) {
  device_arena a(256 * 8);
  std::vector<arena_reservation> rs;
  for (int i = 0; i < 8; ++i) rs.push_back(a.reserve(256, no_deadline()).value());
  EXPECT_EQ(a.stats().free_blocks, 0u);
  for (int i : {1, 3, 5, 7}) rs[i].release_now();
  EXPECT_EQ(a.stats().free_blocks, 4u);
  EXPECT_EQ(a.stats().largest_free_block, 256u);
  EXPECT_EQ(a.reserve(512, immediate()).error().code(), status_code::deadline_exceeded);  // fragmented
  for (int i : {0, 2, 4, 6}) rs[i].release_now();
  EXPECT_EQ(a.stats().free_blocks, 1u);
  EXPECT_EQ(a.stats().largest_free_block, 256u * 8);
}

// Many workers reserve several regions at once and hand them back through events fired by another
// thread in random order; live regions must never overlap nor exceed the arena.
TEST(DeviceArena, StressNeverOverCommits) {
  constexpr uint64_t capacity = 64 * 1024;
  device_arena arena(capacity);
  std::mutex live_mu;
  std::map<uint64_t, uint64_t> live;  // offset -> aligned size
  uint64_t live_bytes = 0;
  std::atomic<bool> bad{false};

  std::mutex ev_mu;
  std::deque<std::shared_ptr<manual_event>> pending;
  std::atomic<int> workers_left{8};

  std::thread completer([&] {
    std::mt19937 rng(99);
    for (;;) {
      std::shared_ptr<manual_event> ev;
      {
        std::lock_guard lock(ev_mu);
        if (!pending.empty()) {
          const size_t i = rng() % pending.size();
          ev = pending[i];
          pending.erase(pending.begin() + static_cast<std::ptrdiff_t>(i));
        } else if (workers_left == 0) {
          return;
        }
      }
      if (ev) ev->complete();
      else std::this_thread::yield();
    }
  });

  std::vector<std::thread> workers;
  for (int w = 0; w < 8; ++w) {
    workers.emplace_back([&, w] {
      std::mt19937 rng(w);
      for (int i = 0; i < 500; ++i) {
        std::vector<uint64_t> sizes(rng() % 3 + 1);
        for (auto& s : sizes) s = rng() % 12000 + 1;
        auto r = arena.reserve(sizes, deadline_in(20s));
        if (!r.ok()) {
          bad = true;
          break;
        }
        {
          std::lock_guard lock(live_mu);
          for (const auto& reg : r->regions()) {
            const uint64_t sz = arena.aligned(reg.size);
            auto next = live.lower_bound(reg.offset);
            if (next != live.end() && next->first < reg.offset + sz) bad = true;
            if (next != live.begin() && std::prev(next)->first + std::prev(next)->second > reg.offset) bad = true;
            if (reg.offset + sz > capacity) bad = true;
            live[reg.offset] = sz;
            live_bytes += sz;
          }
          if (live_bytes > capacity) bad = true;
        }
        // Unregister before the event can fire, so the checker never sees a region twice.
        {
          std::lock_guard lock(live_mu);
          for (const auto& reg : r->regions()) {
            live_bytes -= live[reg.offset];
            live.erase(reg.offset);
          }
        }
        auto ev = std::make_shared<manual_event>();
        r->release_after(ev);
        std::lock_guard lock(ev_mu);
        pending.push_back(ev);
      }
      --workers_left;
    });
  }
  for (auto& t : workers) t.join();
  completer.join();
  EXPECT_FALSE(bad);
  const auto s = arena.stats();
  EXPECT_EQ(s.in_use, 0u);
  EXPECT_LE(s.peak, capacity);
  EXPECT_EQ(s.free_blocks, 1u);
}

}  // namespace
}  // namespace pp::engine
