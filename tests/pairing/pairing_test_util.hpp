// Shared helpers of the pairing tests: a seeded generator (support/test_seed.hpp; SCOPED_TRACE of its
// trace() prints how to replay a failure), random scalars and random points [k]G of G1 and G2, for
// any curve family (BLS12-381 unless told).
#pragma once
#include <cstdint>
#include <random>
#include <string>
#include <type_traits>

#include "ec/ec.hpp"
#include "ff/fr.hpp"
#include "support/test_seed.hpp"

namespace pp::pairing::testing {

using pp::test::test_rng;

// A uniform-ish nonzero scalar below r.
template <class Fr = ff::fr>
Fr random_fr(std::mt19937_64& g) {
  uint64_t v[4];
  for (auto& x : v) x = g();
  v[3] %= Fr::params::modulus[3];
  if ((v[0] | v[1] | v[2] | v[3]) == 0) v[0] = 1;
  return Fr::from_canonical_unchecked(v);
}

// Names the typed suites' instances after the family ("bls12_381", "bn254").
struct family_name_generator {
  template <class Family>
  static std::string GetName(int) {
    return std::is_same_v<Family, ec::bn254::family> ? "bn254" : "bls12_381";
  }
};

template <class Family = ec::bls12_381::family>
ec::affine<typename Family::g1_curve> g1_mul(const typename Family::fr& k) {
  return ec::to_affine(ec::scalar_mul(ec::generator<typename Family::g1_curve>(), k));
}
template <class Family = ec::bls12_381::family>
ec::affine<typename Family::g2_curve> g2_mul(const typename Family::fr& k) {
  return ec::to_affine(ec::scalar_mul(ec::generator<typename Family::g2_curve>(), k));
}

}  // namespace pp::pairing::testing
