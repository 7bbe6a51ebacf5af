// What the device benchmarks share: wall seconds since a time point, and fail-fast checks: take()
// (the value of a result, or the error printed and the process ended), BENCH_CHECK (a cudaError_t)
// and BENCH_CHECK_OK (a pp::status). A benchmark has nothing to fall back to.
#pragma once
#include <cuda_runtime_api.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <utility>

#define BENCH_CHECK(expr)                                                                                 \
  do {                                                                                                    \
    const cudaError_t e_ = (expr);                                                                        \
    if (e_ != cudaSuccess) {                                                                              \
      std::fprintf(stderr, "%s failed: %s (%s:%d)\n", #expr, cudaGetErrorString(e_), __FILE__, __LINE__); \
      std::exit(1);                                                                                       \
    }                                                                                                     \
  } while (0)

#define BENCH_CHECK_OK(expr)                                                                                  \
  do {                                                                                                        \
    const auto& s_ = (expr);                                                                                  \
    if (!s_.ok()) {                                                                                           \
      std::fprintf(stderr, "%s failed: %s (%s:%d)\n", #expr, s_.to_string().c_str(), __FILE__, __LINE__);     \
      std::exit(1);                                                                                           \
    }                                                                                                         \
  } while (0)

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
