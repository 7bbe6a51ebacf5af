// Hard part after Hayashida, Hayasaka, Teruya, "Efficient Final Exponentiation via Cyclotomic
// Structure for Pairings over Families of Elliptic Curves" (eprint 2020/875), for BLS12:
//   3 (p^4 - p^2 + 1)/r = (x - 1)^2 (x + p)(x^2 + p^2 - 1) + 3.
// Cost: 5 exponentiations by x (63 cyclotomic squarings + 5 multiplications each), 3 Frobenius maps,
// ~9 multiplications; the easy part adds one Fp12 inversion.
#include "pairing/final_exponentiation.hpp"

namespace pp::pairing {

namespace {

// m^x for the negative seed: m^|x| with cyclotomic squarings, then the inverse (= conjugate).
ff::fp12 pow_by_x(const ff::fp12& m) {
  static_assert(ff::tower_params::seed_is_negative);
  return m.cyclotomic_pow(ff::tower_params::seed_abs).conjugate();
}

}  // namespace

ff::fp12 final_exponentiation_easy(const ff::fp12& f) {
  const ff::fp12 t = f.conjugate() * f.inverse();  // f^(p^6 - 1)
  return t.frobenius_map(2) * t;                  // ^(p^2 + 1)
}

ff::fp12 final_exponentiation_hard(const ff::fp12& m) {
  const ff::fp12 m_inv = m.conjugate();
  const ff::fp12 t = pow_by_x(m) * m_inv;                            // m^(x - 1)
  const ff::fp12 a = pow_by_x(t) * t.conjugate();                    // m^((x - 1)^2)
  const ff::fp12 b = pow_by_x(a) * a.frobenius_map(1);               // a^(x + p)
  const ff::fp12 c = pow_by_x(pow_by_x(b)) * b.frobenius_map(2) * b.conjugate();  // b^(x^2 + p^2 - 1)
  return c * m.cyclotomic_sqr() * m;                                 // * m^3
}

ff::fp12 final_exponentiation(const ff::fp12& f) {
  return final_exponentiation_hard(final_exponentiation_easy(f));
}

}  // namespace pp::pairing
