// Host-made inputs for the GPU MSM tests and benchmark: distinct random points of G1 / G2 of
// BLS12-381 and BN254 (a walk k G, (k + s) G, ... split over the host's cores, one batch inversion
// per chunk); scalars come from support/scalars.hpp.
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

// random_points with the edge cases mixed in: every 7th point repeats an earlier one, every 11th is
// the negation of its predecessor (with the same scalar, see fix_negation_scalars, the two cancel),
// every 13th is infinity.
template <class Curve>
std::vector<ec::affine<Curve>> edgy_points(uint64_t seed, uint64_t n) {
  auto pts = random_points<Curve>(seed, n);
  for (uint64_t i = 1; i < n; ++i) {
    if (i % 7 == 0) pts[i] = pts[i / 3];
    if (i % 11 == 0) pts[i] = ec::neg(pts[i - 1]);
    if (i % 13 == 0) pts[i] = ec::affine<Curve>::infinity();
  }
  return pts;
}

// Gives every 11th scalar its predecessor's, so that edgy_points' negated pairs cancel.
template <class Fr>
void fix_negation_scalars(std::vector<Fr>& s) {
  for (uint64_t i = 11; i < s.size(); i += 11) s[i] = s[i - 1];
}

using pp::test::random_scalar;
using pp::test::random_scalars;
using pp::test::witness_scalars;

}  // namespace pp::cuda::test
