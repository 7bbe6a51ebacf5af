// Host-made inputs for the GPU MSM tests and benchmark: distinct random points of G1 / G2 (a walk
// k G, (k + s) G, ... split over the host's cores, one batch inversion per chunk); scalars come from
// support/scalars.hpp.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "ec/affine.hpp"
#include "ff/fr.hpp"
#include "support/scalars.hpp"

namespace pp::cuda::test {

template <class Curve>
std::vector<ec::affine<Curve>> random_points(uint64_t seed, uint64_t n);

using pp::test::random_scalar;
using pp::test::random_scalars;
using pp::test::witness_scalars;

}  // namespace pp::cuda::test
