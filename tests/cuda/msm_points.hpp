// Host-made inputs for the GPU MSM tests and benchmark: distinct random points of G1 / G2 (a walk
// k G, (k + s) G, ... split over the host's cores, one batch inversion per chunk) and scalars.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "ec/affine.hpp"
#include "ff/fr.hpp"

namespace pp::cuda::test {

template <class Curve>
std::vector<ec::affine<Curve>> random_points(uint64_t seed, uint64_t n);

// A uniformly random fr (Montgomery form).
ff::fr random_scalar(std::mt19937_64& rng);

// Witness-like: 45% zero, 45% one, the rest uniformly random.
std::vector<ff::fr> witness_scalars(std::mt19937_64& rng, uint64_t n);
std::vector<ff::fr> random_scalars(std::mt19937_64& rng, uint64_t n);

}  // namespace pp::cuda::test
