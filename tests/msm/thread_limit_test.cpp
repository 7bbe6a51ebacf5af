// with_thread_limit (msm/thread_limit.hpp): an uncapped call runs in the caller's arena, a capped one
// in an arena of that many threads that is made once per thread and cap, and many calls leave the
// process no bigger (an arena per call grew it by about 7 KB each with oneTBB 2021.8).
#include "msm/thread_limit.hpp"

#include <gtest/gtest.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <atomic>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "support/sanitizers.hpp"

namespace pp::msm::detail {
namespace {

// VmRSS of this process in KiB (Linux), -1 when unreadable.
long rss_kib() {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("VmRSS:", 0) == 0) return std::atol(line.c_str() + 6);
  }
  return -1;
}

// What an MSM does inside its arena: per-thread scratch and a parallel loop that the workers join.
int parallel_work() {
  tbb::enumerable_thread_specific<std::vector<int>> scratch([] { return std::vector<int>(256, 1); });
  std::atomic<int> sum{0};
  tbb::parallel_for(0, 64, [&](int i) { sum += scratch.local()[static_cast<std::size_t>(i) % 256]; });
  return sum.load();
}

TEST(WithThreadLimit, UncappedRunsInTheCallersArena) {
  const int outside = tbb::this_task_arena::max_concurrency();
  tbb::task_arena mine(1);
  mine.execute([&] {
    // Inside an arena of one thread, an uncapped call stays in it rather than taking all threads.
    EXPECT_EQ(with_thread_limit(0, [] { return tbb::this_task_arena::max_concurrency(); }), 1);
  });
  EXPECT_EQ(with_thread_limit(0, [] { return tbb::this_task_arena::max_concurrency(); }), outside);
  EXPECT_EQ(with_thread_limit(-1, [] { return tbb::this_task_arena::max_concurrency(); }), outside);
}

TEST(WithThreadLimit, CappedRunsInOneArenaPerCapMadeOnce) {
  EXPECT_EQ(with_thread_limit(1, [] { return tbb::this_task_arena::max_concurrency(); }), 1);
  EXPECT_EQ(with_thread_limit(2, [] { return tbb::this_task_arena::max_concurrency(); }), 2);
  tbb::task_arena* const one = &capped_arena(1);
  EXPECT_EQ(&capped_arena(1), one);
  EXPECT_NE(&capped_arena(2), one);
  // A call nested in a capped arena may ask for another cap; the outer arena stays valid.
  const int inner_outer = with_thread_limit(1, [] {
    const int inner = with_thread_limit(2, [] { return tbb::this_task_arena::max_concurrency(); });
    return inner * 10 + tbb::this_task_arena::max_concurrency();
  });
  EXPECT_EQ(inner_outer, 21);
  EXPECT_EQ(&capped_arena(1), one);
  EXPECT_EQ(with_thread_limit(2, parallel_work), 64);
}

TEST(WithThreadLimit, ManyCallsDoNotGrowTheProcess) {
  if (rss_kib() < 0) GTEST_SKIP() << "no /proc/self/status";
  if (pp::test::built_with_asan) GTEST_SKIP() << "ASan's quarantine of freed blocks grows the resident set";
  if (tbb::this_task_arena::max_concurrency() < 2) GTEST_SKIP() << "one thread: no worker ever joins an arena";
  for (int i = 0; i < 200; ++i) {  // warm-up: workers, their scratch, the allocator's first blocks
    ASSERT_EQ(with_thread_limit(0, parallel_work), 64);
    ASSERT_EQ(with_thread_limit(2, parallel_work), 64);
  }
  const long before = rss_kib();
  constexpr int calls = 3000;
  for (int i = 0; i < calls; ++i) {
    ASSERT_EQ(with_thread_limit(0, parallel_work), 64);
    ASSERT_EQ(with_thread_limit(2, parallel_work), 64);
  }
  const long grown = rss_kib() - before;
  // An arena per call kept ~7 KB each: ~40 MiB here. Allow 4 MiB of allocator noise.
  EXPECT_LT(grown, 4 * 1024) << grown << " KiB after " << 2 * calls << " calls";
}

}  // namespace
}  // namespace pp::msm::detail
