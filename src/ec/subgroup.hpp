// Prime-order subgroup membership for points already known to be on the curve.
// Fast checks (Scott, eprint 2021/1130 section 6, proof corrected in eprint 2022/352):
//   BLS12-381 G1: phi(P) == [-x^2] P with the GLV endomorphism phi(x, y) = (beta x, y);
//   BLS12-381 G2: psi(P) == [x] P with the untwist-Frobenius-twist endomorphism psi;
//   BN254 G1: every point (cofactor 1);
//   BN254 G2: psi(P) == [6x^2] P (El Housni, Guillevic, Piellard, eprint 2022/352, section 4; psi
//   acts on G2 as [p] and p = 6x^2 mod r).
// BLS12-381's cost two (G1) or one (G2) multiplications by the 64-bit seed |x| instead of one by r;
// BN254's G2 check one by the 127-bit 6x^2.
#pragma once
#include "ec/bn254_points.hpp"
#include "ec/scalar_mul.hpp"

namespace pp::ec {

// phi(x, y) = (beta x, y): acts on G1 as multiplication by -x^2 mod r.
PP_HD g1_affine endomorphism_phi(const g1_affine& p) {
  if (is_infinity(p)) return p;
  return g1_affine{p.x * fp_from_limbs(g1_curve::beta()), p.y};
}

// psi(x, y) = (conj(x) psi_x, conj(y) psi_y): acts on G2 as multiplication by p = x mod r.
PP_HD g2_affine endomorphism_psi(const g2_affine& p) {
  if (is_infinity(p)) return p;
  const ff::fp2 cx{ff::fp::zero(), fp_from_limbs(g2_curve::psi_x_c1())};
  const ff::fp2 cy{fp_from_limbs(g2_curve::psi_y_c0()),
                   fp_from_limbs(g2_curve::psi_y_c1())};
  return g2_affine{p.x.conjugate() * cx, p.y.conjugate() * cy};
}

// BN254's psi(x, y) = (conj(x) psi_x, conj(y) psi_y): acts on G2 as multiplication by p = 6x^2 mod r.
// The pairing's last two Miller-loop lines pass through psi(Q) and psi^2(Q).
PP_HD bn254::g2_affine endomorphism_psi(const bn254::g2_affine& p) {
  using bn254::fp_from_limbs;
  using bn254::g2_curve;
  if (is_infinity(p)) return p;
  const ff::bn254::fp2 cx{fp_from_limbs(g2_curve::psi_x_c0()), fp_from_limbs(g2_curve::psi_x_c1())};
  const ff::bn254::fp2 cy{fp_from_limbs(g2_curve::psi_y_c0()), fp_from_limbs(g2_curve::psi_y_c1())};
  return bn254::g2_affine{p.x.conjugate() * cx, p.y.conjugate() * cy};
}

// [|x|] P: 63 dbl + 5 add (|x| = 0xd201000000010000 has Hamming weight 6).
template <class Curve>
PP_HD jacobian<Curve> mul_by_seed_abs(const jacobian<Curve>& p) {
  const uint64_t e = bls_seed_abs;  // a local copy: device code cannot take a host constant's address
  return mul_limbs(p, &e, 1);
}

// True when an on-curve G1 point lies in the order-r subgroup: phi(P) == -[|x|]([|x|] P).
PP_HD bool is_in_subgroup(const g1_affine& p) {
  if (is_infinity(p)) return true;
  const g1_jacobian x2p = mul_by_seed_abs(mul_by_seed_abs(to_jacobian(p)));
  return to_jacobian(endomorphism_phi(p)) == neg(x2p);
}

// True when an on-curve G2 point lies in the order-r subgroup: psi(P) == [x] P = -[|x|] P.
PP_HD bool is_in_subgroup(const g2_affine& p) {
  if (is_infinity(p)) return true;
  return to_jacobian(endomorphism_psi(p)) == neg(mul_by_seed_abs(to_jacobian(p)));
}

// BN254's G1 is all of E(Fp): every on-curve point is in the order-r subgroup.
PP_HD bool is_in_subgroup(const bn254::g1_affine&) { return true; }

// True when an on-curve BN254 G2 point lies in the order-r subgroup: psi(P) == [6x^2] P.
PP_HD bool is_in_subgroup(const bn254::g2_affine& p) {
  if (is_infinity(p)) return true;
  const auto e = bn254::six_seed_squared();  // a local copy, as in mul_by_seed_abs
  return to_jacobian(endomorphism_psi(p)) == mul_limbs(p, e.v, 2);
}

// Reference check the fast ones are tested against: [r] P == O (~255 dbl + ~128 add).
template <class Curve>
PP_HD bool is_in_subgroup_naive(const affine<Curve>& p) {
  using fr = typename Curve::scalar_field;
  return is_infinity(mul_limbs(p, fr::params::modulus, fr::n64));
}

}  // namespace pp::ec
