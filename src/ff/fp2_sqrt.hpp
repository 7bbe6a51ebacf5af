// Square root in Fp2 = Fp[u]/(u^2 + 1) for p = 3 mod 4: G2 point decompression needs it.
// Adj and Rodriguez-Henriquez, "Square root computation over even extension fields",
// eprint 2012/685, Algorithm 9. Cost: two Fp2 exponentiations by ~p/4 and ~p/2, a few M.
#pragma once
#include "ff/fp2.hpp"

namespace pp::ff {

// Writes some s with s^2 = a and returns true; returns false (out untouched) when a is not a square.
// Which of the two roots comes out is unspecified: callers that need a sign choose it themselves.
template <class T>
PP_HD bool sqrt(const fp2_t<T>& a, fp2_t<T>& out) {
  using F = fp2_t<T>;
  using P = typename T::fp::params;
  constexpr auto e1 = limbs::copy(P::p_minus_3_div_4);
  constexpr auto e2 = limbs::copy(P::m_minus_1_half);
  const F a1 = a.pow(e1.v, P::n64);  // a^((p-3)/4)
  const F alpha = a1 * (a1 * a);     // a^((p-1)/2)
  // alpha^(p+1) = alpha^p * alpha = conj(alpha) * alpha is the quadratic character of a over Fp2.
  const F a0 = alpha.conjugate() * alpha;
  const F minus_one = -F::one();
  if (a0 == minus_one) return false;
  const F x0 = a1 * a;  // a^((p+1)/4)
  F x;
  if (alpha == minus_one) {
    x = F{-x0.c1, x0.c0};  // u * x0, since u^2 = -1
  } else {
    const F b = (F::one() + alpha).pow(e2.v, P::n64);  // (1 + alpha)^((p-1)/2)
    x = b * x0;
  }
  out = x;
  return true;
}

}  // namespace pp::ff
