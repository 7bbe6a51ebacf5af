// Runs a callable inside a oneTBB arena capped at msm_options::max_threads (0 = TBB's default).
// Internal to the msm .cpp files; public headers stay free of TBB.
#pragma once
#include <tbb/task_arena.h>

namespace pp::msm::detail {

template <class Fn>
auto with_thread_limit(int max_threads, Fn&& fn) {
  tbb::task_arena arena(max_threads > 0 ? max_threads : tbb::task_arena::automatic);
  return arena.execute(fn);
}

}  // namespace pp::msm::detail
