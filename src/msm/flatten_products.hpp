// Which curves get flattened hot loops in the host MSM (msm/affine_buckets.hpp's apply_batch,
// msm/batch_add.cpp's reduce_chunk): [[gnu::flatten]] inlines every field product there, the ADX
// asm and its portable fallback alike. G1 only (both curves'): G1's MSMs are most of a CPU proof (H, L, A, B_G1;
// docs/perf/cpu-prove-vs-snarkjs.md), B_G2 a few percent, and flattening G2's Fp2 loops as well made
// msm/pippenger.cpp and msm/batch_add.cpp the two slowest files of CI's build (docs/perf/ci-time.md).
#pragma once
#include <type_traits>

#include "ff/bn254_fp.hpp"
#include "ff/fp.hpp"

namespace pp::msm::detail {

template <class Curve>
inline constexpr bool flatten_products =
    std::is_same_v<typename Curve::field, ff::fp> || std::is_same_v<typename Curve::field, ff::bn254::fp>;

}  // namespace pp::msm::detail
