// Fp12 = Fp6[w] / (w^2 - v): c0 + c1 w. The pairing's target field (GT is its order-r subgroup),
// written once over the tower's traits T (ff/fp2.hpp); fp12 is BLS12-381's.
// Over Fp2 the basis is w^0..w^5 = c0.c0, c1.c0, c0.c1, c1.c1, c0.c2, c1.c2 (w^2 = v, w^6 = xi).
// Costs in Fp2 M and S; sparse line multiplication and cyclotomic squaring serve the pairing layer.
#pragma once
#include "ff/fp6.hpp"

namespace pp::ff {

template <class T>
struct fp12_t {
  using tower = T;
  using base = fp6_t<T>;
  using fp2 = fp2_t<T>;
  base c0, c1;

  PP_HD static constexpr fp12_t zero() { return fp12_t{base::zero(), base::zero()}; }
  PP_HD static constexpr fp12_t one() { return fp12_t{base::one(), base::zero()}; }
  PP_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  PP_HD bool is_one() const { return c0.is_one() && c1.is_zero(); }
  PP_HD friend bool operator==(const fp12_t& a, const fp12_t& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  PP_HD friend bool operator!=(const fp12_t& a, const fp12_t& b) { return !(a == b); }

  PP_HD friend fp12_t operator+(const fp12_t& a, const fp12_t& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  PP_HD friend fp12_t operator-(const fp12_t& a, const fp12_t& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  PP_HD fp12_t operator-() const { return {-c0, -c1}; }
  PP_HD fp12_t dbl() const { return {c0.dbl(), c1.dbl()}; }

  // Karatsuba over Fp6: 3 Fp6 multiplications = 18M.
  PP_HD friend fp12_t operator*(const fp12_t& a, const fp12_t& b) {
    const base t0 = a.c0 * b.c0;
    const base t1 = a.c1 * b.c1;
    return {t1.mul_by_nonresidue() + t0, (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
  }
  PP_HD fp12_t& operator+=(const fp12_t& b) { return *this = *this + b; }
  PP_HD fp12_t& operator-=(const fp12_t& b) { return *this = *this - b; }
  PP_HD fp12_t& operator*=(const fp12_t& b) { return *this = *this * b; }

  // Complex squaring (2006/471 §3): (a0 + a1 w)^2 = (a0 + a1)(a0 + v a1) - t - v t + 2t w, t = a0 a1.
  // 2 Fp6 multiplications = 12M.
  PP_HD fp12_t sqr() const {
    const base t = c0 * c1;
    const base s = (c0 + c1) * (c0 + c1.mul_by_nonresidue());
    return {s - t - t.mul_by_nonresidue(), t.dbl()};
  }

  // The p^6-power Frobenius: c0 - c1 w. Equals the inverse on the cyclotomic subgroup (norm 1 over Fp6).
  PP_HD fp12_t conjugate() const { return {c0, -c1}; }

  // 1/(a0 + a1 w) = (a0 - a1 w) / (a0^2 - v a1^2). 0 maps to 0.
  PP_HD fp12_t inverse() const {
    const base n_inv = (c0.sqr() - c1.sqr().mul_by_nonresidue()).inverse();
    return {c0 * n_inv, -(c1 * n_inv)};
  }

  // this^(p^k): (c w)^(p^k) = c^(p^k) xi^((p^k - 1)/6) w. Coefficients from the generated table; the
  // map depends on k mod 12 only (k = 6 is the conjugation).
  template <int K>
  PP_HD fp12_t frobenius_map_fixed() const {
    static_assert(K >= 0 && K < 12);
    constexpr fp2 g = fp2::from_table(T::params::frob12_c1[K]);
    return {c0.template frobenius_map_fixed<K % 6>(), c1.template frobenius_map_fixed<K % 6>() * g};
  }
  PP_HD fp12_t frobenius_map(int k) const {
    switch (((k % 12) + 12) % 12) {
      case 1: return frobenius_map_fixed<1>();
      case 2: return frobenius_map_fixed<2>();
      case 3: return frobenius_map_fixed<3>();
      case 4: return frobenius_map_fixed<4>();
      case 5: return frobenius_map_fixed<5>();
      case 6: return conjugate();
      case 7: return frobenius_map_fixed<7>();
      case 8: return frobenius_map_fixed<8>();
      case 9: return frobenius_map_fixed<9>();
      case 10: return frobenius_map_fixed<10>();
      case 11: return frobenius_map_fixed<11>();
      default: return *this;
    }
  }

  // this * (o0 + o1 w^2 + o4 w^3), the shape of an M-type twist line (c0.c0, c0.c1, c1.c1):
  // Karatsuba with both halves sparse, 13M instead of 18M.
  PP_HD fp12_t mul_by_014(const fp2& o0, const fp2& o1, const fp2& o4) const {
    const base t0 = c0.mul_by_01(o0, o1);
    const base t1 = c1.mul_by_1(o4);
    return {t1.mul_by_nonresidue() + t0, (c0 + c1).mul_by_01(o0, o1 + o4) - t0 - t1};
  }

  // this * (o0 + o3 w + o4 w^3), the shape of a D-type twist line (c0.c0, c1.c0, c1.c1): Karatsuba
  // with the first half a scalar and the second sparse, 13M instead of 18M.
  PP_HD fp12_t mul_by_034(const fp2& o0, const fp2& o3, const fp2& o4) const {
    const base t0 = c0 * o0;
    const base t1 = c1.mul_by_01(o3, o4);
    return {t1.mul_by_nonresidue() + t0, (c0 + c1).mul_by_01(o0 + o3, o4) - t0 - t1};
  }

  // Squaring in the cyclotomic subgroup (a^(p^6 + 1) = 1), Granger-Scott, "Faster squaring in the
  // cyclotomic subgroup of sixth degree extensions" (eprint 2009/565, §3.2): 9S instead of 12M.
  // View Fp12 = Fp4[t]/(t^3 - s), Fp4 = Fp2[s]/(s^2 - xi), t = w, s = w^3, and a = A + B t + C t^2 with
  // A = (c0.c0, c1.c1), B = (c1.c0, c0.c2), C = (c0.c1, c1.c2). Then
  // a^2 = (3A^2 - 2 conj(A)) + (3 s C^2 + 2 conj(B)) t + (3B^2 - 2 conj(C)) t^2.
  // Only valid on the cyclotomic subgroup (after the easy part of the final exponentiation).
  PP_HD fp12_t cyclotomic_sqr() const {
    fp2 a0, a1, b0, b1, c0_, c1_;
    fp4_sqr(c0.c0, c1.c1, a0, a1);  // A^2
    fp4_sqr(c1.c0, c0.c2, b0, b1);  // B^2
    fp4_sqr(c0.c1, c1.c2, c0_, c1_);  // C^2
    fp12_t r;
    // A' = 3 A^2 - 2 conj(A): (3 a0 - 2 x, 3 a1 + 2 y).
    r.c0.c0 = triple_minus_double(a0, c0.c0);
    r.c1.c1 = triple_plus_double(a1, c1.c1);
    // B' = 3 s C^2 + 2 conj(B), s (c0' + c1' s) = xi c1' + c0' s: (3 xi c1' + 2 x, 3 c0' - 2 y).
    r.c1.c0 = triple_plus_double(c1_.mul_by_nonresidue(), c1.c0);
    r.c0.c2 = triple_minus_double(c0_, c0.c2);
    // C' = 3 B^2 - 2 conj(C): (3 b0 - 2 x, 3 b1 + 2 y).
    r.c0.c1 = triple_minus_double(b0, c0.c1);
    r.c1.c2 = triple_plus_double(b1, c1.c2);
    return r;
  }

  // this^e by square-and-multiply with cyclotomic squarings (cyclotomic-subgroup elements only).
  PP_HD fp12_t cyclotomic_pow(uint64_t e) const {
    fp12_t r = one();
    bool started = false;
    for (int i = 63; i >= 0; --i) {
      if (started) r = r.cyclotomic_sqr();
      if ((e >> i) & 1) {
        r = started ? r * *this : *this;
        started = true;
      }
    }
    return r;
  }

  // this^e for a little-endian exponent of n limbs (generic square-and-multiply; tests and checks).
  PP_HD fp12_t pow(const uint64_t* e, int n) const {
    fp12_t r = one();
    for (int i = 64 * n - 1; i >= 0; --i) {
      r = r.sqr();
      if ((e[i >> 6] >> (i & 63)) & 1) r *= *this;
    }
    return r;
  }

 private:
  // (x + y s)^2 with s^2 = xi: (x^2 + xi y^2) + ((x + y)^2 - x^2 - y^2) s. 3S.
  PP_HD static void fp4_sqr(const fp2& x, const fp2& y, fp2& out0, fp2& out1) {
    const fp2 t0 = x.sqr();
    const fp2 t1 = y.sqr();
    out0 = t1.mul_by_nonresidue() + t0;
    out1 = (x + y).sqr() - t0 - t1;
  }
  // 3a - 2x = 2(a - x) + a, and 3a + 2x = 2(a + x) + a.
  PP_HD static fp2 triple_minus_double(const fp2& a, const fp2& x) { return (a - x).dbl() + a; }
  PP_HD static fp2 triple_plus_double(const fp2& a, const fp2& x) { return (a + x).dbl() + a; }
};
using fp12 = fp12_t<bls12_381::tower>;
static_assert(sizeof(fp12) == 576);

}  // namespace pp::ff
