// BN254's hard part: the addition chain of Fuentes-Castaneda, Knapp, Rodriguez-Henriquez, "Faster
// hashing to G2" (SAC 2011, section 6), as in arkworks and @noble/curves, for
//   2x (6x^2 + 3x + 1)(p^4 - p^2 + 1)/r = p^3 (12x^3 + 6x^2 + 4x - 1) + p^2 (12x^3 + 6x^2 + 6x)
//                                         + p (12x^3 + 6x^2 + 4x) + 12x^3 + 12x^2 + 6x + 1.
// Cost: 3 exponentiations by x (62 cyclotomic squarings + 27 multiplications each), 3 cyclotomic
// squarings, 3 Frobenius maps, 10 multiplications; the easy part (final_exponentiation_impl.hpp) adds
// one Fp12 inversion.
#include "pairing/final_exponentiation_impl.hpp"

namespace pp::pairing {

template <>
ff::bn254::fp12 ate_final_exponentiation<ff::bn254::tower>::hard(const ff::bn254::fp12& m) {
  static_assert(!ff::bn254::tower_params::seed_is_negative);
  const auto pow_by_minus_x = [](const fp12& a) { return detail::pow_by_x(a).conjugate(); };
  const fp12 y1 = pow_by_minus_x(m).cyclotomic_sqr();                    // m^(-2x)
  const fp12 y2 = y1.cyclotomic_sqr() * y1;                              // m^(-6x)
  const fp12 y4 = pow_by_minus_x(y2);                                    // m^(6x^2)
  const fp12 y6 = pow_by_minus_x(y4.cyclotomic_sqr());                   // m^(-12x^3)
  const fp12 y8 = y6.conjugate() * y4 * y2.conjugate();                  // m^(12x^3 + 6x^2 + 6x)
  const fp12 y9 = y8 * y1;                                               // m^(12x^3 + 6x^2 + 4x)
  return (m.conjugate() * y9).frobenius_map(3) * y8.frobenius_map(2) * y9.frobenius_map(1) * (y8 * y4 * m);
}

template struct ate_final_exponentiation<ff::bn254::tower>;

}  // namespace pp::pairing
