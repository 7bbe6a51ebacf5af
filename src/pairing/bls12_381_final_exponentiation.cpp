// BLS12-381's hard part, after Hayashida, Hayasaka, Teruya, "Efficient Final Exponentiation via
// Cyclotomic Structure for Pairings over Families of Elliptic Curves" (eprint 2020/875):
//   3 (p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3.
// Cost: 5 exponentiations by x (63 cyclotomic squarings + 5 multiplications each), 3 Frobenius maps,
// ~9 multiplications; the easy part (final_exponentiation_impl.hpp) adds one Fp12 inversion.
#include "pairing/final_exponentiation_impl.hpp"

namespace pp::pairing {

template <>
ff::fp12 ate_final_exponentiation<ff::bls12_381::tower>::hard(const ff::fp12& m) {
  using detail::pow_by_x;
  static_assert(ff::tower_params::seed_is_negative);
  const fp12 m_inv = m.conjugate();
  const fp12 t = pow_by_x(m) * m_inv;                                  // m^(x - 1)
  const fp12 a = pow_by_x(t) * t.conjugate();                          // m^((x - 1)^2)
  const fp12 b = pow_by_x(a) * a.frobenius_map(1);                     // a^(x + p)
  const fp12 c = pow_by_x(pow_by_x(b)) * b.frobenius_map(2) * b.conjugate();  // b^(x^2 + p^2 - 1)
  return c * m.cyclotomic_sqr() * m;                                   // * m^3
}

template struct ate_final_exponentiation<ff::bls12_381::tower>;

}  // namespace pp::pairing
