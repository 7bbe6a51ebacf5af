// A Groth16 proof: pi_A in G1, pi_B in G2, pi_C in G1 (affine, the storage form).
#pragma once
#include "ec/affine.hpp"

namespace pp::groth16 {

struct proof {
  ec::g1_affine a;
  ec::g2_affine b;
  ec::g1_affine c;
  friend bool operator==(const proof& x, const proof& y) { return x.a == y.a && x.b == y.b && x.c == y.c; }
};

}  // namespace pp::groth16
