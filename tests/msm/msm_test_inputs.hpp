// Random inputs for the msm tests: curve points (cheaply, as a random walk over a few random
// multiples of the generator); scalars come from support/scalars.hpp.
#pragma once
#include <cstdint>
#include <random>
#include <vector>

#include "ec/batch_to_affine.hpp"
#include "ec/ec.hpp"
#include "ff/fr.hpp"
#include "support/scalars.hpp"

namespace pp::msm::testing {

using pp::test::random_scalar;
using pp::test::random_scalars;
using pp::test::witness_scalars;

inline ff::fr r_minus_1() { return ff::fr::zero() - ff::fr::one(); }

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
