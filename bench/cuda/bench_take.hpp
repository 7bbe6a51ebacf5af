// What the device benchmarks share: wall seconds since a time point, and take(): the value of a
// result, or the error printed and the process ended (a benchmark has nothing to fall back to).
#pragma once
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <utility>

namespace pp::bench {

using clock_type = std::chrono::steady_clock;

inline double secs(clock_type::time_point t0) {
  return std::chrono::duration<double>(clock_type::now() - t0).count();
}

template <class R>
auto take(R&& r, const char* what) {
  if (!r.ok()) {
    std::fprintf(stderr, "%s failed: %s\n", what, r.error().to_string().c_str());
    std::exit(1);
  }
  return std::move(r).value();
}

}  // namespace pp::bench
