// Sizing a multi-GiB std::vector of plain data with its pages faulted in on every core: resize()
// value-initializes on one thread, and first-touching fresh memory is page faults, not bandwidth
// (45 GiB of decoded 2^27 key took 20 s that way on the H200 host, docs/perf/msm-h200.md). Here the
// capacity is reserved, advised for transparent huge pages, written in parallel (the faults), and
// only then resized, so resize's zeroing runs over resident pages at memory speed.
#pragma once
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace pp::formats {

// Faults in [p, p + bytes) from every core (writes zeros), advising huge pages first where the
// kernel allows them (advice only: nothing fails without them).
void first_touch_parallel(void* p, std::size_t bytes);

// v holds n value-initialized elements (as v.resize(n) from empty), its storage touched in parallel.
template <class T>
void resize_first_touched(std::vector<T>& v, std::size_t n) {
  static_assert(std::is_trivially_copyable_v<T> && std::is_trivially_destructible_v<T>,
                "the storage is touched as raw bytes before the elements exist");
  v.clear();
  v.reserve(n);
  if (n != 0) first_touch_parallel(v.data(), n * sizeof(T));
  v.resize(n);
}

}  // namespace pp::formats
