// turn_order (src/cuda/runtime/turn_order.hpp), host only: each place's wait returns the token the place
// before it published, in claim order, never two turns at once, and a later place's wait blocks
// until the earlier ones have published.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <thread>
#include <vector>

#include "cuda/runtime/turn_order.hpp"

namespace pp::cuda::test {
namespace {

TEST(TurnOrder, EachWaitReturnsThePreviousToken) {
  turn_order<int> order;
  const uint64_t p0 = order.claim(), p1 = order.claim(), p2 = order.claim();
  EXPECT_EQ(p0, 0u);
  EXPECT_EQ(p1, 1u);
  EXPECT_EQ(p2, 2u);
  EXPECT_EQ(order.wait(p0), 0);  // the first place: Token{}
  EXPECT_FALSE(order.publish(p1, 5)) << "a place may not publish before the ones before it";
  EXPECT_TRUE(order.publish(p0, 7));
  EXPECT_FALSE(order.publish(p0, 8)) << "a place publishes once";
  EXPECT_EQ(order.wait(p1), 7);
  EXPECT_TRUE(order.publish(p1, 0));
  EXPECT_EQ(order.wait(p2), 0);
}

TEST(TurnOrder, LaterPlaceWaitsForTheEarlierOnes) {
  turn_order<int> order;
  const uint64_t p0 = order.claim(), p1 = order.claim();
  std::atomic<bool> returned{false};
  std::thread later([&] {
    EXPECT_EQ(order.wait(p1), 42);
    returned = true;
    EXPECT_TRUE(order.publish(p1, 43));
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_FALSE(returned.load()) << "place 1's wait returned before place 0 published";
  (void)order.wait(p0);
  EXPECT_TRUE(order.publish(p0, 42));
  later.join();
  EXPECT_TRUE(returned.load());
  const uint64_t p2 = order.claim();
  EXPECT_EQ(order.wait(p2), 43);
}

TEST(TurnOrder, ThreadsTakeTurnsInClaimOrder) {
  constexpr int threads = 6, rounds = 300;
  turn_order<int64_t> order;
  std::mutex claim_mu;  // so that the claims' order is also the order of `claimed`
  std::vector<uint64_t> claimed, ran;
  std::mutex ran_mu;
  std::atomic<int> inside{0};
  std::atomic<bool> overlap{false}, wrong_token{false};
  std::vector<std::thread> ts;
  for (int t = 0; t < threads; ++t) {
    ts.emplace_back([&] {
      for (int k = 0; k < rounds; ++k) {
        uint64_t place = 0;
        {
          std::lock_guard<std::mutex> g(claim_mu);
          place = order.claim();
          claimed.push_back(place);
        }
        // Token of place q is q + 1, so place p's wait must return p (0 for the first).
        if (order.wait(place) != int64_t(place)) wrong_token = true;
        if (++inside != 1) overlap = true;
        {
          std::lock_guard<std::mutex> g(ran_mu);
          ran.push_back(place);
        }
        if (k % 7 == 0) std::this_thread::yield();
        --inside;
        if (!order.publish(place, int64_t(place) + 1)) wrong_token = true;
      }
    });
  }
  for (auto& t : ts) t.join();
  EXPECT_FALSE(overlap.load()) << "two turns ran at once";
  EXPECT_FALSE(wrong_token.load()) << "a wait returned another place's token, or a publish was refused";
  ASSERT_EQ(ran.size(), size_t{threads} * rounds);
  for (size_t i = 0; i < ran.size(); ++i) ASSERT_EQ(ran[i], i) << "turns out of claim order";
  EXPECT_EQ(claimed.size(), ran.size());
}

}  // namespace
}  // namespace pp::cuda::test
