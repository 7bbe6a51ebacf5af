// BLS12-381 G1 and G2 as structs of constants, and their family (ec/curve_family.hpp); the point
// formulas are templates over these.
//
//   p    = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab (381 bits)
//   r    = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001 (255 bits), r = x^4 - x^2 + 1
//   seed x = -0xd201000000010000 (64 bits, Hamming weight 6); p = (x-1)^2 (x^4 - x^2 + 1)/3 + x
//   tower: Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - (1 + u)), Fp12 = Fp6[w]/(w^2 - v)
//   G1: E(Fp)   y^2 = x^3 + 4,          cofactor h1 = (x-1)^2/3
//   G2: E'(Fp2) y^2 = x^3 + 4(1 + u),   M-type sextic twist, cofactor h2 (~2^509)
// Sources: draft-irtf-cfrg-pairing-friendly-curves-11 section 4.2.1; zcash "BLS12-381" spec
// (encodings); generators as in both. Coordinates below are canonical (not Montgomery) limbs,
// little-endian; tests/ec/curves_test.cpp recomputes every derived constant.
#pragma once
#include <cstdint>

#include "ec/curve_family.hpp"
#include "ff/fp.hpp"
#include "ff/fp2.hpp"
#include "ff/fp2_sqrt.hpp"
#include "ff/fr.hpp"

namespace pp::ec {

// Six canonical little-endian limbs of an Fp constant. Curve constants are PP_HD constexpr
// functions returning these, so device code never odr-uses a host static array (nvcc rejects that).
struct limbs6 {
  uint64_t v[6];
};

PP_HD ff::fp fp_from_limbs(const limbs6& c) { return ff::fp::from_canonical_unchecked(c.v); }

// |x| for the BLS12-381 seed x = -0xd201000000010000; both fast subgroup checks multiply by it.
inline constexpr uint64_t bls_seed_abs = 0xd201000000010000ull;

namespace bls12_381 {
struct family;
}  // namespace bls12_381

struct g1_curve {
  using family = bls12_381::family;
  using field = ff::fp;
  using scalar_field = ff::fr;
  static constexpr const char* name = "g1";
  PP_HD static constexpr limbs6 gen_x() {
    return {{0xfb3af00adb22c6bb, 0x6c55e83ff97a1aef, 0xa14e3a3f171bac58,
             0xc3688c4f9774b905, 0x2695638c4fa9ac0f, 0x17f1d3a73197d794}};
  }
  PP_HD static constexpr limbs6 gen_y() {
    return {{0x0caa232946c5e7e1, 0xd03cc744a2888ae4, 0x00db18cb2c04b3ed,
             0xfcf5e095d5d00af6, 0xa09e30ed741d8ae4, 0x08b3f481e3aaa0f1}};
  }
  // beta: the cube root of unity in Fp for which phi(x, y) = (beta x, y) acts on G1 as [-x^2]
  // (-x^2 is a cube root of unity mod r because r = x^4 - x^2 + 1). The other root, beta^2,
  // acts as [x^2 - 1]; tests/ec/curves_test.cpp checks which is which.
  PP_HD static constexpr limbs6 beta() {
    return {{0x2e01fffffffefffe, 0xde17d813620a0002, 0xddb3a93be6f89688,
             0xba69c6076a0f77ea, 0x5f19672fdf76ce51, 0x0000000000000000}};
  }

  PP_HD static field b() { return field::from_uint(4); }
  PP_HD static field generator_x() { return fp_from_limbs(gen_x()); }
  PP_HD static field generator_y() { return fp_from_limbs(gen_y()); }
};

struct g2_curve {
  using family = bls12_381::family;
  using field = ff::fp2;
  using scalar_field = ff::fr;
  static constexpr const char* name = "g2";
  static constexpr twist_type twist = twist_type::m;
  PP_HD static constexpr limbs6 gen_x_c0() {
    return {{0xd48056c8c121bdb8, 0x0bac0326a805bbef, 0xb4510b647ae3d177,
             0xc6e47ad4fa403b02, 0x260805272dc51051, 0x024aa2b2f08f0a91}};
  }
  PP_HD static constexpr limbs6 gen_x_c1() {
    return {{0xe5ac7d055d042b7e, 0x334cf11213945d57, 0xb5da61bbdc7f5049,
             0x596bd0d09920b61a, 0x7dacd3a088274f65, 0x13e02b6052719f60}};
  }
  PP_HD static constexpr limbs6 gen_y_c0() {
    return {{0xe193548608b82801, 0x923ac9cc3baca289, 0x6d429a695160d12c,
             0xadfd9baa8cbdd3a7, 0x8cc9cdc6da2e351a, 0x0ce5d527727d6e11}};
  }
  PP_HD static constexpr limbs6 gen_y_c1() {
    return {{0xaaa9075ff05f79be, 0x3f370d275cec1da1, 0x267492ab572e99ab,
             0xcb3e287e85a763af, 0x32acd2b02bc28b99, 0x0606c4a02ea734cc}};
  }
  // psi = twist^-1 o Frobenius o twist: psi(x, y) = (conj(x) * psi_x, conj(y) * psi_y) with
  // psi_x = 1 / (1 + u)^((p-1)/3) (its c0 is 0) and psi_y = 1 / (1 + u)^((p-1)/2).
  PP_HD static constexpr limbs6 psi_x_c1() {
    return {{0x8bfd00000000aaad, 0x409427eb4f49fffd, 0x897d29650fb85f9b,
             0xaa0d857d89759ad4, 0xec02408663d4de85, 0x1a0111ea397fe699}};
  }
  PP_HD static constexpr limbs6 psi_y_c0() {
    return {{0xf1ee7b04121bdea2, 0x304466cf3e67fa0a, 0xef396489f61eb45e,
             0x1c3dedd930b1cf60, 0xe2e9c448d77a2cd9, 0x135203e60180a68e}};
  }
  PP_HD static constexpr limbs6 psi_y_c1() {
    return {{0xc81084fbede3cc09, 0xee67992f72ec05f4, 0x77f76e17009241c5,
             0x48395dabc2d3435e, 0x6831e36d6bd17ffe, 0x06af0e0437ff400b}};
  }

  PP_HD static field b() {
    const ff::fp four = ff::fp::from_uint(4);
    return field{four, four};  // 4 (1 + u)
  }
  PP_HD static field generator_x() {
    return field{fp_from_limbs(gen_x_c0()), fp_from_limbs(gen_x_c1())};
  }
  PP_HD static field generator_y() {
    return field{fp_from_limbs(gen_y_c0()), fp_from_limbs(gen_y_c1())};
  }
};

namespace bls12_381 {
struct family {
  static constexpr const char* name = "BLS12-381";
  using fr = ff::fr;
  using fp = ff::fp;
  using tower = ff::bls12_381::tower;
  using g1_curve = ec::g1_curve;
  using g2_curve = ec::g2_curve;
};
static_assert(curve_family<family>);
}  // namespace bls12_381

}  // namespace pp::ec
