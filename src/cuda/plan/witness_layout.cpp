// count_other_values with oneTBB: a reduction over blocks of variables.
#include "cuda/plan/witness_layout.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "ff/bn254_fr.hpp"

namespace pp::cuda {

template <class Fr>
uint64_t count_other_values(std::span<const Fr> w) {
  const Fr one = Fr::one();
  return tbb::parallel_reduce(
      tbb::blocked_range<uint64_t>(0, w.size(), uint64_t{1} << 16), uint64_t{0},
      [&](const tbb::blocked_range<uint64_t>& r, uint64_t acc) {
        for (uint64_t i = r.begin(); i < r.end(); ++i) acc += w[i].is_zero() || w[i] == one ? 0 : 1;
        return acc;
      },
      [](uint64_t a, uint64_t b) { return a + b; });
}

template uint64_t count_other_values(std::span<const ff::fr>);
template uint64_t count_other_values(std::span<const ff::bn254::fr>);

}  // namespace pp::cuda
