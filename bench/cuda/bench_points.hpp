// Host-side inputs for the device benchmarks (compiled by the host compiler: the point helpers
// use field inversion, whose exponent constants device code cannot reference).
#pragma once
#include <cstdint>
#include <vector>

#include "ec/affine.hpp"

namespace pp::cuda::bench {

// n points of G1 / G2 in affine form: a walk k G, (k + s) G, ... from random k, s.
std::vector<ec::g1_affine> random_g1_points(uint64_t seed, int n);
std::vector<ec::g2_affine> random_g2_points(uint64_t seed, int n);

}  // namespace pp::cuda::bench
