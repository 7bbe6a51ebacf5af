// The definitions behind pairing/final_exponentiation.hpp shared by the families: the easy part and
// exponentiation by the seed. Included only by the per-family files that add their hard part and
// instantiate (bls12_381_final_exponentiation.cpp, bn254_final_exponentiation.cpp): one translation
// unit per family keeps each family's inlining to itself (with both in one unit g++ 12 inlined
// BLS12-381's Fp12 products less and its final exponentiation ran ~4% slower).
#pragma once
#include "pairing/final_exponentiation.hpp"

namespace pp::pairing {

namespace detail {

// m^x for the tower's seed: m^|x| with cyclotomic squarings, then the inverse (= conjugate) if x < 0.
// Cost: bits(|x|) - 1 cyclotomic squarings and popcount(|x|) - 1 multiplications.
template <class T>
ff::fp12_t<T> pow_by_x(const ff::fp12_t<T>& m) {
  const ff::fp12_t<T> r = m.cyclotomic_pow(T::params::seed_abs);
  if constexpr (T::params::seed_is_negative) {
    return r.conjugate();
  } else {
    return r;
  }
}

}  // namespace detail

// f^((p^6 - 1)(p^2 + 1)): one Fp12 inversion, a conjugation, a Frobenius map, two products.
template <class Tower>
auto ate_final_exponentiation<Tower>::easy(const fp12& f) -> fp12 {
  const fp12 t = f.conjugate() * f.inverse();  // f^(p^6 - 1)
  return t.frobenius_map(2) * t;               // ^(p^2 + 1)
}

}  // namespace pp::pairing
