// Random Fr scalars for tests and benchmarks: uniform ones, and witness-like ones shaped like a
// Filecoin PoRep witness (mostly 0 and 1), with the edge values an MSM must get right mixed in.
// For either curve's scalar field (BLS12-381's by default); scalars.cpp instantiates both.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"

namespace pp::test {

// Uniform in [0, r), by rejection.
template <class Fr = ff::fr>
Fr random_scalar(std::mt19937_64& rng);
template <class Fr = ff::fr>
std::vector<Fr> random_scalars(std::mt19937_64& rng, std::size_t n);

// Witness-like: ~45% zero, ~40% one, ~10% small (2 .. 2^16 - 1), ~4% uniform, ~1% r - 1.
template <class Fr = ff::fr>
std::vector<Fr> witness_scalars(std::mt19937_64& rng, std::size_t n);

}  // namespace pp::test
