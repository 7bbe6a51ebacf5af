// Random inputs for the msm tests: curve points (cheaply, as a random walk over a few random
// multiples of the generator); scalars come from support/scalars.hpp.
#pragma once
#include <cstdint>
#include <random>
#include <type_traits>
#include <vector>

#include <gtest/gtest.h>

#include "ec/batch_to_affine.hpp"
#include "ec/ec.hpp"
#include "ec/bn254_curves.hpp"
#include "ff/fr.hpp"
#include "support/scalars.hpp"

namespace pp::msm::testing {

using pp::test::random_scalar;
using pp::test::random_scalars;
using pp::test::witness_scalars;

// Every curve the msm layer is instantiated for (msm/instantiate.hpp).
using all_curves = ::testing::Types<ec::g1_curve, ec::g2_curve, ec::bn254::g1_curve, ec::bn254::g2_curve>;

template <class Curve>
using scalar_of = typename Curve::scalar_field;

// G1 of either curve (its field is the base field): the cheap group, tested at larger sizes.
template <class Curve>
inline constexpr bool is_g1 = std::is_same_v<typename Curve::field, typename Curve::family::fp>;

template <class Fr = ff::fr>
Fr r_minus_1() {
  return Fr::zero() - Fr::one();
}

// n distinct-looking points of the prime-order subgroup: a walk p_{i+1} = p_i + b_j over four random
// multiples b_j of the generator, then one batched conversion to affine.
template <class Curve>
std::vector<ec::affine<Curve>> random_points(std::size_t n, std::mt19937_64& rng) {
  const auto g = ec::generator<Curve>();
  ec::affine<Curve> bases[4];
  for (auto& b : bases) b = ec::to_affine(ec::scalar_mul(g, random_scalar<scalar_of<Curve>>(rng)));
  std::vector<ec::jacobian<Curve>> walk(n);
  auto acc = ec::scalar_mul(g, random_scalar<scalar_of<Curve>>(rng));
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
