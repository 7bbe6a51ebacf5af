// Fp6 = Fp2[v] / (v^3 - xi): c0 + c1 v + c2 v^2. The cubic level of a tower, below Fp12 (fp12.hpp),
// written once over the tower's traits T (ff/fp2.hpp); fp6 is BLS12-381's (xi = 1 + u). Multiplication
// and squaring follow Devegili, O hEigeartaigh, Scott, Dahab, "Multiplication and Squaring on
// Pairing-Friendly Fields" (eprint 2006/471); costs in Fp2 M and S.
#pragma once
#include "ff/fp2.hpp"

namespace pp::ff {

// a^(p^k) in Fp2: the p-power Frobenius is conjugation, so only the parity of k matters.
template <class T>
PP_HD fp2_t<T> fp2_frobenius(const fp2_t<T>& a, int k) {
  return (k & 1) ? a.conjugate() : a;
}

template <class T>
struct fp6_t {
  using tower = T;
  using base = fp2_t<T>;
  base c0, c1, c2;

  PP_HD static constexpr fp6_t zero() { return fp6_t{base::zero(), base::zero(), base::zero()}; }
  PP_HD static constexpr fp6_t one() { return fp6_t{base::one(), base::zero(), base::zero()}; }
  PP_HD bool is_zero() const { return c0.is_zero() && c1.is_zero() && c2.is_zero(); }
  PP_HD bool is_one() const { return c0.is_one() && c1.is_zero() && c2.is_zero(); }
  PP_HD friend bool operator==(const fp6_t& a, const fp6_t& b) {
    return a.c0 == b.c0 && a.c1 == b.c1 && a.c2 == b.c2;
  }
  PP_HD friend bool operator!=(const fp6_t& a, const fp6_t& b) { return !(a == b); }

  PP_HD friend fp6_t operator+(const fp6_t& a, const fp6_t& b) { return {a.c0 + b.c0, a.c1 + b.c1, a.c2 + b.c2}; }
  PP_HD friend fp6_t operator-(const fp6_t& a, const fp6_t& b) { return {a.c0 - b.c0, a.c1 - b.c1, a.c2 - b.c2}; }
  PP_HD fp6_t operator-() const { return {-c0, -c1, -c2}; }
  PP_HD fp6_t dbl() const { return {c0.dbl(), c1.dbl(), c2.dbl()}; }

  // Karatsuba (2006/471 §4): 6M.
  PP_HD friend fp6_t operator*(const fp6_t& a, const fp6_t& b) {
    const base v0 = a.c0 * b.c0;
    const base v1 = a.c1 * b.c1;
    const base v2 = a.c2 * b.c2;
    return {((a.c1 + a.c2) * (b.c1 + b.c2) - v1 - v2).mul_by_nonresidue() + v0,
            (a.c0 + a.c1) * (b.c0 + b.c1) - v0 - v1 + v2.mul_by_nonresidue(),
            (a.c0 + a.c2) * (b.c0 + b.c2) - v0 - v2 + v1};
  }
  PP_HD friend fp6_t operator*(const fp6_t& a, const base& s) { return {a.c0 * s, a.c1 * s, a.c2 * s}; }
  PP_HD fp6_t& operator+=(const fp6_t& b) { return *this = *this + b; }
  PP_HD fp6_t& operator-=(const fp6_t& b) { return *this = *this - b; }
  PP_HD fp6_t& operator*=(const fp6_t& b) { return *this = *this * b; }

  // Chung-Hasan SQR2 (2006/471 §4): 2M + 3S.
  PP_HD fp6_t sqr() const {
    const base s0 = c0.sqr();
    const base s1 = (c0 * c1).dbl();
    const base s2 = (c0 - c1 + c2).sqr();
    const base s3 = (c1 * c2).dbl();
    const base s4 = c2.sqr();
    return {s3.mul_by_nonresidue() + s0, s4.mul_by_nonresidue() + s1, s1 + s2 + s3 - s0 - s4};
  }

  // Multiplication by v (the quadratic non-residue of Fp12 = Fp6[w]/(w^2 - v)): v^3 = xi.
  PP_HD fp6_t mul_by_nonresidue() const { return {c2.mul_by_nonresidue(), c0, c1}; }

  // this * (b0 + b1 v): sparse Karatsuba, 5M. Used by the line multiplication of the Miller loop.
  PP_HD fp6_t mul_by_01(const base& b0, const base& b1) const {
    const base t0 = c0 * b0;
    const base t1 = c1 * b1;
    return {((c1 + c2) * b1 - t1).mul_by_nonresidue() + t0,
            (c0 + c1) * (b0 + b1) - t0 - t1,
            (c0 + c2) * b0 - t0 + t1};
  }
  // this * (b1 v): 3M.
  PP_HD fp6_t mul_by_1(const base& b1) const { return {(c2 * b1).mul_by_nonresidue(), c0 * b1, c1 * b1}; }

  // 1/a via the adjugate (Scott, "Implementing cryptographic pairings" §3.2): 9M + 3S + one Fp2 inverse.
  // A = a0^2 - xi a1 a2, B = xi a2^2 - a0 a1, C = a1^2 - a0 a2, N = a0 A + xi (a2 B + a1 C). 0 maps to 0.
  PP_HD fp6_t inverse() const {
    const base a = c0.sqr() - (c1 * c2).mul_by_nonresidue();
    const base b = c2.sqr().mul_by_nonresidue() - c0 * c1;
    const base c = c1.sqr() - c0 * c2;
    const base n_inv = (c0 * a + (c2 * b + c1 * c).mul_by_nonresidue()).inverse();
    return {a * n_inv, b * n_inv, c * n_inv};
  }

  // this^(p^k): (c v^j)^(p^k) = c^(p^k) xi^(j (p^k - 1)/3) v^j. Coefficients from the generated table;
  // the map depends on k mod 6 only.
  template <int K>
  PP_HD fp6_t frobenius_map_fixed() const {
    static_assert(K >= 0 && K < 6);
    constexpr base g1 = base::from_table(T::params::frob6_c1[K]);
    constexpr base g2 = base::from_table(T::params::frob6_c2[K]);
    return {fp2_frobenius(c0, K), fp2_frobenius(c1, K) * g1, fp2_frobenius(c2, K) * g2};
  }
  PP_HD fp6_t frobenius_map(int k) const {
    switch (((k % 6) + 6) % 6) {
      case 1: return frobenius_map_fixed<1>();
      case 2: return frobenius_map_fixed<2>();
      case 3: return frobenius_map_fixed<3>();
      case 4: return frobenius_map_fixed<4>();
      case 5: return frobenius_map_fixed<5>();
      default: return *this;
    }
  }
};

using fp6 = fp6_t<bls12_381::tower>;
static_assert(sizeof(fp6) == 288);

}  // namespace pp::ff
