// Random inputs for the msm tests: curve points (cheaply, as a random walk over a few random
// multiples of the generator), full-range scalars and witness-like scalars (mostly 0 and 1).
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "ec/batch_to_affine.hpp"
#include "ec/ec.hpp"
#include "ff/fr.hpp"

namespace pp::msm::testing {

inline uint64_t fresh_seed() {
  std::random_device rd;
  return (uint64_t{rd()} << 32) ^ rd();
}

// Roughly uniform in [0, r): the product of two random elements below 2^254.
inline ff::fr random_scalar(std::mt19937_64& rng) {
  auto half = [&] {
    uint64_t v[4] = {rng(), rng(), rng(), rng() & 0x3fffffffffffffffull};
    return ff::fr::from_canonical_unchecked(v);
  };
  return half() * half();
}

inline ff::fr r_minus_1() { return ff::fr::zero() - ff::fr::one(); }

inline std::vector<ff::fr> random_scalars(std::size_t n, std::mt19937_64& rng) {
  std::vector<ff::fr> s(n);
  for (auto& x : s) x = random_scalar(rng);
  return s;
}

// Witness-like: ~45% zero, ~40% one, ~10% small (< 2^16), ~4% full-size, ~1% r - 1.
inline std::vector<ff::fr> witness_scalars(std::size_t n, std::mt19937_64& rng) {
  std::vector<ff::fr> s(n);
  for (auto& x : s) {
    const uint64_t u = rng() % 100;
    if (u < 45) {
      x = ff::fr::zero();
    } else if (u < 85) {
      x = ff::fr::one();
    } else if (u < 95) {
      x = ff::fr::from_uint(2 + rng() % 65534);
    } else if (u < 99) {
      x = random_scalar(rng);
    } else {
      x = r_minus_1();
    }
  }
  return s;
}

// n distinct-looking points of the prime-order subgroup: a walk p_{i+1} = p_i + b_j over four random
// multiples b_j of the generator, then one batched conversion to affine.
template <class Curve>
std::vector<ec::affine<Curve>> random_points(std::size_t n, std::mt19937_64& rng) {
  const auto g = ec::generator<Curve>();
  ec::affine<Curve> bases[4];
  for (auto& b : bases) b = ec::to_affine(ec::scalar_mul(g, random_scalar(rng)));
  std::vector<ec::jacobian<Curve>> walk(n);
  auto acc = ec::scalar_mul(g, random_scalar(rng));
  for (auto& p : walk) {
    acc = ec::add(acc, bases[rng() % 4]);
    p = acc;
  }
  std::vector<ec::affine<Curve>> out(n);
  ec::batch_to_affine(walk.data(), out.data(), n);
  return out;
}

// Plain sequential sum, the reference for batch_sum.
template <class Curve>
ec::jacobian<Curve> sequential_sum(const std::vector<ec::affine<Curve>>& points) {
  auto acc = ec::jacobian<Curve>::infinity();
  for (const auto& p : points) acc = ec::add(acc, p);
  return acc;
}

}  // namespace pp::msm::testing
