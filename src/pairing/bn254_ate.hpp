// BN254's optimal ate parameters (pairing/ate_params.hpp): the loop runs over 6x + 2 (65 bits) in
// non-adjacent form (66 digits, 22 nonzero: 65 doubling and 21 addition steps against 37 additions in
// binary), x > 0 so no conjugation, and the loop is followed by the lines through psi(Q) and
// -psi^2(Q) (Vercauteren, "Optimal pairings", eprint 2008/096, section 4: 6x + 2 + p - p^2 + p^3 = 0
// mod r). The same pairing as EIP-197, arkworks and @noble/curves.
#pragma once
#include "ec/bn254_curves.hpp"
#include "pairing/ate_params.hpp"

namespace pp::pairing {

template <>
struct ate_params<ec::bn254::family> {
  static_assert(!ff::bn254::tower_params::seed_is_negative);
  static constexpr loop_digits loop =
      naf_digits(6 * static_cast<unsigned __int128>(ff::bn254::tower_params::seed_abs) + 2);
  static constexpr bool conjugate = false;
  static constexpr bool frobenius_lines = true;

  // b' = 3 / (9 + u) has no small form: one Fp2 product with the generated 3 b'.
  PP_HD static ff::bn254::fp2 mul_by_3b(const ff::bn254::fp2& a) {
    constexpr ff::bn254::fp2 b3 = ff::bn254::fp2::from_table(ff::bn254::tower_params::twist_b3[0]);
    return a * b3;
  }
};

}  // namespace pp::pairing
