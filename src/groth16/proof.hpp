// A Groth16 proof: pi_A in G1, pi_B in G2, pi_C in G1 (affine, the storage form), of a curve family;
// `proof` is BLS12-381's.
#pragma once
#include "ec/affine.hpp"
#include "ec/bn254_points.hpp"

namespace pp::groth16 {

template <class Family>
struct basic_proof {
  using family = Family;
  ec::affine<typename Family::g1_curve> a;
  ec::affine<typename Family::g2_curve> b;
  ec::affine<typename Family::g1_curve> c;
  friend bool operator==(const basic_proof& x, const basic_proof& y) { return x.a == y.a && x.b == y.b && x.c == y.c; }
};

using proof = basic_proof<ec::bls12_381::family>;
namespace bn254 {
using proof = basic_proof<ec::bn254::family>;
}  // namespace bn254

}  // namespace pp::groth16
