// Which curves get flattened hot loops in the host MSM (msm/affine_buckets.hpp's apply_batch,
// msm/batch_add.cpp's reduce_chunk): [[gnu::flatten]] inlines every field product there, the ADX
// asm and its portable fallback alike. Both curves' G1: G1's MSMs are most of a CPU proof (H, L, A,
// B_G1; docs/perf/cpu-prove-vs-snarkjs.md). BN254's G2 as well: over a circom witness of dense
// field elements its B_G2 MSM is a third of the proof (docs/perf/bn254-cpu.md), and inlining its
// fused Fp2 products (ff/mont_dot_host.hpp) took BM_PippengerBn254G2/threads:1/glv:1 from 736 to
// 698 ms at 2^17 (376 to 367 at 2^16), for 30 s of compiling msm/bn254_g2.cpp instead of 4.
// BLS12-381's G2 is not: its 6-limb Fp2 loops made that unit one of the slowest of CI's build
// (docs/perf/ci-time.md).
#pragma once
#include <type_traits>

#include "ff/bn254_tower.hpp"
#include "ff/fp.hpp"

namespace pp::msm::detail {

template <class Curve>
inline constexpr bool flatten_products =
    std::is_same_v<typename Curve::field, ff::fp> || std::is_same_v<typename Curve::field, ff::bn254::fp> ||
    std::is_same_v<typename Curve::field, ff::bn254::fp2>;

}  // namespace pp::msm::detail
