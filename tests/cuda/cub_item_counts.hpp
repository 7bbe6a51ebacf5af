// The item counts the CUB temp-size tests sweep (cub_temp_model_test.cpp on the host, _cub_test.cu
// against CUB's own types, _gpu_test.cu against its queries on a device): around every power of two
// and, for each tile size of the model's policies (cuda/cub_temp_model.hpp), around one and three
// tiles, up to 2^31 - 1 (CUB's int item count); ascending.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace pp::cuda::test {

inline std::vector<uint64_t> cub_item_counts() {
  std::vector<uint64_t> v;
  for (int k = 0; k <= 31; ++k) {
    for (const int64_t d : {-1, 0, 1}) {
      const int64_t n = (int64_t{1} << k) + d;
      if (n >= 1 && n < (int64_t{1} << 31)) v.push_back(uint64_t(n));
    }
  }
  for (const uint64_t t : {uint64_t{64}, uint64_t{128}, uint64_t{1280}, uint64_t{3200}, uint64_t{4608},
                           uint64_t{4864}, uint64_t{5760}, uint64_t{6528}, uint64_t{7168}, uint64_t{8064},
                           uint64_t{8832}, uint64_t{268430976}, uint64_t{268433280}}) {
    for (const uint64_t n : {t - 1, t, t + 1, 3 * t - 1, 3 * t, 3 * t + 1}) v.push_back(n);
  }
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

}  // namespace pp::cuda::test
