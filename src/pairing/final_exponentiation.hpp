// Final exponentiation of the optimal ate pairing, written once over the tower: the easy part
// f^((p^6 - 1)(p^2 + 1)) is shared (final_exponentiation_impl.hpp), the hard part is the curve family's
// (bls12_381_final_exponentiation.cpp, bn254_final_exponentiation.cpp).
// Both raise to a multiple of (p^4 - p^2 + 1)/r coprime to r, the normalisation of blst, arkworks and
// @noble/curves, so bilinearity and non-degeneracy hold unchanged:
//   BLS12-381: f^(3 (p^12 - 1)/r), the cube of the reduced pairing;
//   BN254:     f^(2x (6x^2 + 3x + 1)(p^12 - 1)/r) (Fuentes-Castaneda, Knapp, Rodriguez-Henriquez,
//              "Faster hashing to G2", SAC 2011, section 6).
// Host code.
#pragma once
#include "ff/bn254_tower.hpp"
#include "ff/fp12.hpp"

namespace pp::pairing {

template <class Tower>
struct ate_final_exponentiation {
  using fp12 = ff::fp12_t<Tower>;
  // Easy part f^((p^6 - 1)(p^2 + 1)): lands in the cyclotomic subgroup. 0 maps to 0.
  [[nodiscard]] static fp12 easy(const fp12& f);
  // Hard part on a cyclotomic-subgroup element.
  [[nodiscard]] static fp12 hard(const fp12& m);
};
template <>
ff::fp12 ate_final_exponentiation<ff::bls12_381::tower>::hard(const ff::fp12& m);
template <>
ff::bn254::fp12 ate_final_exponentiation<ff::bn254::tower>::hard(const ff::bn254::fp12& m);
extern template struct ate_final_exponentiation<ff::bls12_381::tower>;
extern template struct ate_final_exponentiation<ff::bn254::tower>;

template <class T>
[[nodiscard]] ff::fp12_t<T> final_exponentiation_easy(const ff::fp12_t<T>& f) {
  return ate_final_exponentiation<T>::easy(f);
}
template <class T>
[[nodiscard]] ff::fp12_t<T> final_exponentiation_hard(const ff::fp12_t<T>& m) {
  return ate_final_exponentiation<T>::hard(m);
}
template <class T>
[[nodiscard]] ff::fp12_t<T> final_exponentiation(const ff::fp12_t<T>& f) {
  return ate_final_exponentiation<T>::hard(ate_final_exponentiation<T>::easy(f));
}

}  // namespace pp::pairing
