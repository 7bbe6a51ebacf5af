// Host-side inputs for the device benchmarks (compiled by the host compiler: the point helpers
// use field inversion, whose exponent constants device code cannot reference).
#pragma once
#include <cstdint>
#include <vector>

#include "ec/affine.hpp"

namespace pp::cuda::bench {

// n points of Curve (G1 or G2: instantiated in bench_points.cpp) in affine form: a walk k G,
// (k + s) G, ... from random k, s.
template <class Curve>
std::vector<ec::affine<Curve>> random_points(uint64_t seed, int n);

}  // namespace pp::cuda::bench
