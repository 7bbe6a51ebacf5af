// Runs a callable with at most msm_options::max_threads threads (0 = the caller's arena, with every
// thread oneTBB offers it). Internal to the msm .cpp files; public headers stay free of TBB.
//
// No arena is made per call: oneTBB (2021.8, Debian 12) keeps about 7 KB of scalable-allocator
// memory for every task_arena that worker threads joined, never handed back, so an arena per MSM
// grew the daemon's RSS without bound (docs/perf/soak.md; tests/msm/thread_limit_test.cpp). An
// uncapped call runs in the caller's arena; a capped one in an arena kept per calling thread and per
// cap, made once.
#pragma once
#include <tbb/task_arena.h>

#include <map>
#include <memory>

namespace pp::msm::detail {

// The calling thread's arena of `max_threads` (> 0) threads. Entries are never erased, so an
// arena stays valid while a call nested in it asks for another cap.
inline tbb::task_arena& capped_arena(int max_threads) {
  thread_local std::map<int, std::unique_ptr<tbb::task_arena>> arenas;
  auto& a = arenas[max_threads];
  if (!a) a = std::make_unique<tbb::task_arena>(max_threads);
  return *a;
}

template <class Fn>
auto with_thread_limit(int max_threads, Fn&& fn) {
  if (max_threads <= 0) return fn();
  return capped_arena(max_threads).execute(fn);
}

}  // namespace pp::msm::detail
