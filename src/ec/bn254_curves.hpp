// BN254 (alt_bn128, snarkjs's "bn128") G1 and G2 as structs of constants, and their family
// (ec/curve_family.hpp); the point formulas are templates over these.
//
//   p    = 0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47 (254 bits)
//   r    = 0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001 (254 bits)
//   seed x = 4965661367192848881 = 0x44e992b44a6909f1 (63 bits, positive);
//          p = 36x^4 + 36x^3 + 24x^2 + 6x + 1, r = 36x^4 + 36x^3 + 18x^2 + 6x + 1, p - r = 6x^2
//   tower: Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - (9 + u)), Fp12 = Fp6[w]/(w^2 - v)
//   G1: E(Fp)   y^2 = x^3 + 3,          cofactor 1, generator (1, 2)
//   G2: E'(Fp2) y^2 = x^3 + 3/(9 + u),  D-type sextic twist, cofactor h2 = 2p - r (254 bits)
// Sources: EIP-196 and EIP-197 (curves, tower, generators); @noble/curves bn254 (the same values).
// Coordinates below are canonical (not Montgomery) limbs, little-endian; tests/ec/bn254_curves_test.cpp
// recomputes every derived constant.
#pragma once
#include <cstdint>

#include "ec/curve_family.hpp"
#include "ff/bn254_fp.hpp"
#include "ff/bn254_fr.hpp"
#include "ff/bn254_tower.hpp"
#include "ff/fp2_sqrt.hpp"

namespace pp::ec::bn254 {

// Four canonical little-endian limbs of an Fp constant (as ec::limbs6 for BLS12-381).
struct limbs4 {
  uint64_t v[4];
};

PP_HD ff::bn254::fp fp_from_limbs(const limbs4& c) { return ff::bn254::fp::from_canonical_unchecked(c.v); }

// 6x^2 = p - r (127 bits): psi acts on G2 as [p] = [6x^2] (ec/subgroup.hpp).
struct limbs2 {
  uint64_t v[2];
};
PP_HD constexpr limbs2 six_seed_squared() { return {{0xf83e9682e87cfd46, 0x6f4d8248eeb859fb}}; }

struct family;

struct g1_curve {
  using family = bn254::family;
  using field = ff::bn254::fp;
  using scalar_field = ff::bn254::fr;
  static constexpr const char* name = "bn254_g1";
  // beta: the cube root of unity in Fp for which phi(x, y) = (beta x, y) acts on G1 as
  // [-(36x^3 + 18x^2 + 6x + 2)] (msm/glv_bn254.hpp's lambda); beta^2 acts as [36x^3 + 18x^2 + 6x + 1].
  // tests/ec/bn254_curves_test.cpp checks which is which.
  PP_HD static constexpr limbs4 beta() {
    return {{0xe4bd44e5607cfd48, 0xc28f069fbb966e3d, 0x5e6dd9e7e0acccb0, 0x30644e72e131a029}};
  }

  PP_HD static field b() { return field::from_uint(3); }
  PP_HD static field generator_x() { return field::from_uint(1); }
  PP_HD static field generator_y() { return field::from_uint(2); }
};

struct g2_curve {
  using family = bn254::family;
  using field = ff::bn254::fp2;
  using scalar_field = ff::bn254::fr;
  static constexpr const char* name = "bn254_g2";
  static constexpr twist_type twist = twist_type::d;
  // beta: the cube root of unity in Fp for which phi(x, y) = (beta x, y) acts on G2 as G1's does,
  // [-(36x^3 + 18x^2 + 6x + 2)] (msm/glv_bn254.hpp's lambda): G1's beta squared.
  // tests/ec/bn254_curves_test.cpp checks it.
  PP_HD static constexpr limbs4 beta() {
    return {{0x5763473177fffffe, 0xd4f263f1acdb5c4f, 0x59e26bcea0d48bac, 0x0000000000000000}};
  }
  PP_HD static constexpr limbs4 gen_x_c0() {
    return {{0x46debd5cd992f6ed, 0x674322d4f75edadd, 0x426a00665e5c4479, 0x1800deef121f1e76}};
  }
  PP_HD static constexpr limbs4 gen_x_c1() {
    return {{0x97e485b7aef312c2, 0xf1aa493335a9e712, 0x7260bfb731fb5d25, 0x198e9393920d483a}};
  }
  PP_HD static constexpr limbs4 gen_y_c0() {
    return {{0x4ce6cc0166fa7daa, 0xe3d1e7690c43d37b, 0x4aab71808dcb408f, 0x12c85ea5db8c6deb}};
  }
  PP_HD static constexpr limbs4 gen_y_c1() {
    return {{0x55acdadcd122975b, 0xbc4b313370b38ef3, 0xec9e99ad690c3395, 0x090689d0585ff075}};
  }
  // psi = twist^-1 o Frobenius o twist for the D-type twist: psi(x, y) = (conj(x) psi_x, conj(y) psi_y)
  // with psi_x = (9 + u)^((p-1)/3) and psi_y = (9 + u)^((p-1)/2).
  PP_HD static constexpr limbs4 psi_x_c0() {
    return {{0x99e39557176f553d, 0xb78cc310c2c3330c, 0x4c0bec3cf559b143, 0x2fb347984f7911f7}};
  }
  PP_HD static constexpr limbs4 psi_x_c1() {
    return {{0x1665d51c640fcba2, 0x32ae2a1d0b7c9dce, 0x4ba4cc8bd75a0794, 0x16c9e55061ebae20}};
  }
  PP_HD static constexpr limbs4 psi_y_c0() {
    return {{0xdc54014671a0135a, 0xdbaae0eda9c95998, 0xdc5ec698b6e2f9b9, 0x063cf305489af5dc}};
  }
  PP_HD static constexpr limbs4 psi_y_c1() {
    return {{0x82d37f632623b0e3, 0x21807dc98fa25bd2, 0x0704b5a7ec796f2b, 0x07c03cbcac41049a}};
  }

  // b' = 3 / (9 + u), from the generated tower table, as a constant expression: device code never
  // reads the host array.
  PP_HD static field b() {
    constexpr field v = field::from_table(ff::bn254::tower_params::twist_b[0]);
    return v;
  }
  PP_HD static field generator_x() { return field{fp_from_limbs(gen_x_c0()), fp_from_limbs(gen_x_c1())}; }
  PP_HD static field generator_y() { return field{fp_from_limbs(gen_y_c0()), fp_from_limbs(gen_y_c1())}; }
};

struct family {
  static constexpr const char* name = "BN254";
  using fr = ff::bn254::fr;
  using fp = ff::bn254::fp;
  using tower = ff::bn254::tower;
  using g1_curve = bn254::g1_curve;
  using g2_curve = bn254::g2_curve;
};
static_assert(curve_family<family>);

}  // namespace pp::ec::bn254
