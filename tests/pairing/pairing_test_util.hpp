// Shared helpers of the pairing tests: a seeded generator (support/test_seed.hpp; SCOPED_TRACE of its
// trace() prints how to replay a failure) and random points [k]G of G1 and G2.
#pragma once
#include <cstdint>
#include <random>
#include <string>

#include "ec/ec.hpp"
#include "ff/fr.hpp"
#include "support/test_seed.hpp"

namespace pp::pairing::testing {

using pp::test::test_rng;

// A uniform-ish nonzero scalar below r.
inline ff::fr random_fr(std::mt19937_64& g) {
  uint64_t v[4];
  for (auto& x : v) x = g();
  v[3] %= ff::fr_params::modulus[3];
  if ((v[0] | v[1] | v[2] | v[3]) == 0) v[0] = 1;
  return ff::fr::from_canonical_unchecked(v);
}

inline ec::g1_affine g1_mul(const ff::fr& k) {
  return ec::to_affine(ec::scalar_mul(ec::generator<ec::g1_curve>(), k));
}
inline ec::g2_affine g2_mul(const ff::fr& k) {
  return ec::to_affine(ec::scalar_mul(ec::generator<ec::g2_curve>(), k));
}

}  // namespace pp::pairing::testing
