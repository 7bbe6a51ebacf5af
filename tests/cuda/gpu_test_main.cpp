// main() of the GPU test binaries: exits 77 (ctest SKIP_RETURN_CODE: skipped) when the machine has
// no CUDA device or driver, fails on any other CUDA error, otherwise runs the GoogleTest suites.
#include <gtest/gtest.h>

#include <cstdio>

#include "cuda/runtime/device_info.hpp"

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);
  const auto n = pp::cuda::device_count();
  if (!n.ok()) {
    std::fprintf(stderr, "CUDA device query failed: %s\n", n.error().to_string().c_str());
    return 1;
  }
  if (*n == 0) {
    std::printf("no CUDA device: skipping every test in %s\n", argc > 0 ? argv[0] : "this binary");
    return 77;
  }
  const auto d = pp::cuda::query_device(0);
  if (!d.ok()) {
    std::fprintf(stderr, "CUDA device query failed: %s\n", d.error().to_string().c_str());
    return 1;
  }
  std::printf("device %s\n", pp::cuda::to_string(*d).c_str());
  return RUN_ALL_TESTS();
}
