#include "engine/key_store.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <thread>
#include <vector>

#include "eventually.hpp"
#include "support/status_matchers.hpp"

namespace pp::engine {
namespace {

using testing::eventually;
using namespace std::chrono_literals;

// Counts loads and live handles per key, as a fake of keys decoded into host memory.
struct fake_loads {
  std::atomic<int> loads{0};
  std::atomic<int> live{0};
  std::atomic<bool> fail{false};
  std::function<result<key_handle>()> loader() {
    return [this]() -> result<key_handle> {
      if (fail) return unavailable("disk gone");
      ++loads;
      ++live;
      return key_handle(new int(0), [this](const void* p) {
        --live;
        delete static_cast<const int*>(p);
      });
    };
  }
};

key_descriptor key(const std::string& id, fake_loads& f, uint64_t bytes) {
  return {id, bytes, f.loader()};
}

TEST(KeyStore, AddAndErrors) {
  memory_budget budget(100);
  key_store store(budget);
  fake_loads f;
  ASSERT_THAT(store.add(key("a", f, 40)), IsOk());
  EXPECT_EQ(store.add(key("a", f, 40)).code(), status_code::already_exists);
  EXPECT_EQ(store.add(key("", f, 40)).code(), status_code::invalid_argument);
  EXPECT_EQ(store.acquire("zz", no_deadline()).error().code(), status_code::not_found);
  ASSERT_THAT(store.add({"no loader", 1, {}}), IsOk());
  EXPECT_EQ(store.acquire("no loader", no_deadline()).error().code(), status_code::invalid_argument);
  ASSERT_THAT(store.add({"null", 1, [] { return result<key_handle>(key_handle()); }}), IsOk());
  EXPECT_EQ(store.acquire("null", no_deadline()).error().code(), status_code::internal);
  EXPECT_FALSE(store.info("null")->resident);
  EXPECT_EQ(budget.stats().in_use, 0u);
  ASSERT_THAT(store.add(key("huge", f, 101)), IsOk());
  EXPECT_EQ(store.acquire("huge", no_deadline()).error().code(),
            status_code::resource_exhausted);
}

TEST(KeyStore, LoadsOnceAndChargesBudget) {
  memory_budget budget(100);
  key_store store(budget);
  fake_loads f;
  ASSERT_THAT(store.add(key("a", f, 40)), IsOk());
  {
    auto l1 = store.acquire("a", no_deadline());
    ASSERT_THAT(l1, IsOk());
    auto l2 = store.acquire("a", no_deadline());
    ASSERT_THAT(l2, IsOk());
    EXPECT_EQ(l2->handle(), l1->handle());
    EXPECT_EQ(f.loads, 1);
    EXPECT_EQ(store.info("a")->in_use, 2u);
    EXPECT_EQ(budget.stats().in_use, 40u);
  }
  EXPECT_EQ(store.info("a")->in_use, 0u);
  EXPECT_TRUE(store.info("a")->resident);  // idle, still resident
  ASSERT_THAT(store.evict("a"), IsOk());
  EXPECT_FALSE(store.info("a")->resident);
  EXPECT_EQ(f.live, 0);
  EXPECT_EQ(budget.stats().in_use, 0u);
}

TEST(KeyStore, EvictsLeastRecentlyUsedIdleKey) {
  memory_budget budget(100);
  key_store store(budget);
  fake_loads f;
  for (const char* id : {"a", "b", "c"}) ASSERT_THAT(store.add(key(id, f, 40)), IsOk());
  ASSERT_THAT(store.preload("a", no_deadline()), IsOk());
  ASSERT_THAT(store.preload("b", no_deadline()), IsOk());
  ASSERT_THAT(store.preload("a", no_deadline()), IsOk());  // a is now more recent
  ASSERT_THAT(store.preload("c", no_deadline()), IsOk());
  EXPECT_FALSE(store.info("b")->resident);
  EXPECT_TRUE(store.info("a")->resident);
  EXPECT_TRUE(store.info("c")->resident);
  EXPECT_EQ(store.stats().evictions, 1u);
  EXPECT_EQ(store.stats().resident_bytes, 80u);
}

TEST(KeyStore, InUseKeysAreNeverEvicted) {
  memory_budget budget(100);
  key_store store(budget);
  fake_loads f;
  for (const char* id : {"a", "b", "c"}) ASSERT_THAT(store.add(key(id, f, 40)), IsOk());
  auto la = store.acquire("a", no_deadline());
  auto lb = store.acquire("b", no_deadline());
  ASSERT_TRUE(la.ok() && lb.ok());
  EXPECT_EQ(store.evict("a").code(), status_code::failed_precondition);
  EXPECT_EQ(store.acquire("c", deadline_in(10ms)).error().code(), status_code::deadline_exceeded);
  EXPECT_TRUE(store.info("a")->resident);
  EXPECT_TRUE(store.info("b")->resident);

  // c waits until a lease ends, then evicts that idle key.
  std::atomic<bool> got{false};
  std::thread t([&] {
    auto lc = store.acquire("c", no_deadline());
    got = lc.ok();
  });
  std::this_thread::sleep_for(5ms);
  EXPECT_FALSE(got);
  lb->reset();
  t.join();
  EXPECT_TRUE(got);
  EXPECT_FALSE(store.info("b")->resident);
  EXPECT_TRUE(store.info("a")->resident);
}

TEST(KeyStore, LoaderErrorLeavesKeyOnDisk) {
  memory_budget budget(100);
  key_store store(budget);
  fake_loads f;
  ASSERT_THAT(store.add(key("a", f, 40)), IsOk());
  f.fail = true;
  auto r = store.acquire("a", no_deadline());
  ASSERT_THAT(r, StatusIs(status_code::unavailable));
  EXPECT_FALSE(store.info("a")->resident);
  EXPECT_EQ(budget.stats().in_use, 0u);
  f.fail = false;
  EXPECT_THAT(store.acquire("a", no_deadline()), IsOk());
}

TEST(KeyStore, StressConcurrentAcquireStaysWithinBudget) {
  memory_budget budget(100);
  key_store store(budget);
  fake_loads f;
  const std::vector<std::string> ids{"a", "b", "c", "d"};
  for (const auto& id : ids) ASSERT_THAT(store.add(key(id, f, 30)), IsOk());
  std::atomic<bool> bad{false};
  std::vector<std::thread> threads;
  for (int w = 0; w < 6; ++w) {
    threads.emplace_back([&, w] {
      for (int i = 0; i < 300; ++i) {
        const std::string& id = ids[(w + i) % ids.size()];
        auto l = store.acquire(id, deadline_in(20s));
        if (!l.ok() || l->handle() == nullptr) bad = true;
        if (budget.stats().in_use > 100) bad = true;
        if (f.live > 4) bad = true;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_FALSE(bad);
  EXPECT_LE(budget.stats().peak, 100u);
  EXPECT_LE(store.stats().resident_keys, 3u);
  for (const auto& id : ids) EXPECT_EQ(store.info(id)->in_use, 0u);
}

}  // namespace
}  // namespace pp::engine
