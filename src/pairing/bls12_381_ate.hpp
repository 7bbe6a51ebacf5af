// BLS12-381's optimal ate parameters (pairing/ate_params.hpp): the loop runs over the bits of
// |x| = 0xd201000000010000 (64 bits, Hamming weight 6: 63 doubling and 5 addition steps), and the
// result is conjugated because x < 0. Nothing follows the loop.
#pragma once
#include "ec/bls12_381_curves.hpp"
#include "pairing/ate_params.hpp"

namespace pp::pairing {

template <>
struct ate_params<ec::bls12_381::family> {
  static_assert(ff::tower_params::seed_is_negative);
  static constexpr loop_digits loop = binary_digits(ff::tower_params::seed_abs);
  static constexpr bool conjugate = true;
  static constexpr bool frobenius_lines = false;

  // b' = 4 xi: 3 b' a = 12 (xi a), by additions.
  PP_HD static ff::fp2 mul_by_3b(const ff::fp2& a) {
    const ff::fp2 t = a.mul_by_nonresidue().dbl().dbl();
    return t + t + t;
  }
};

}  // namespace pp::pairing
