// Fp2 = Fp[u] / (u^2 + 1): c0 + c1*u. The field of G2 coordinates, written once over a tower's traits T
// (T::fp the base field with p = 3 mod 4, so u^2 + 1 is irreducible; T::params the generated tower
// constants, whose xi_c0 gives the sextic non-residue xi = xi_c0 + u). fp2 is BLS12-381's.
#pragma once
#include "ff/bls12_381_tower.hpp"

namespace pp::ff {

template <class T>
struct fp2_t;
#if PP_DEVICE_PASS
// On the device, Fp2 products are out-of-line calls: force-inlining 3 Fp products into every G2
// formula made the G2 kernels so large that nvcc took ~20 minutes per file and ptxas spilled
// (H200, 2026-12-02: the G2 accumulation 7% slower inlined). Operands pass by value, in registers:
// by reference they had to live in the caller's stack frame (1312 bytes in the G2 accumulation,
// 424 by value; that kernel 3% faster, the bucket reduction 7-11%; docs/perf/msm-h200.md, "Fp2
// operands by value").
template <class T>
static __device__ __noinline__ fp2_t<T> fp2_mul_device(fp2_t<T> a, fp2_t<T> b);
template <class T>
static __device__ __noinline__ fp2_t<T> fp2_sqr_device(fp2_t<T> a);
template <class T>
static __device__ __noinline__ fp2_t<T> fp2_mul_sub_device(fp2_t<T> a, fp2_t<T> b, fp2_t<T> c, fp2_t<T> d);
#endif

template <class T>
struct fp2_t {
  using tower = T;
  using base = typename T::fp;
  base c0, c1;

  PP_HD static constexpr fp2_t zero() { return fp2_t{base::zero(), base::zero()}; }
  PP_HD static constexpr fp2_t one() { return fp2_t{base::one(), base::zero()}; }
  // A constant from a generated table ({c0, c1} in Montgomery form). Callers evaluate it in constant
  // expressions, so device code sees immediates rather than the host arrays.
  PP_HD static constexpr fp2_t from_table(const uint64_t (&v)[2][base::n64]) {
    return fp2_t{base::from_montgomery(v[0]), base::from_montgomery(v[1])};
  }
  PP_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  PP_HD bool is_one() const { return c0.is_one() && c1.is_zero(); }
  PP_HD friend bool operator==(const fp2_t& a, const fp2_t& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  PP_HD friend bool operator!=(const fp2_t& a, const fp2_t& b) { return !(a == b); }

  PP_HD friend fp2_t operator+(const fp2_t& a, const fp2_t& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  PP_HD friend fp2_t operator-(const fp2_t& a, const fp2_t& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  PP_HD fp2_t operator-() const { return {-c0, -c1}; }
  // Karatsuba: 3M. (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u
  PP_HD static fp2_t mul_inline(const fp2_t& a, const fp2_t& b) {
    const base t0 = a.c0 * b.c0;
    const base t1 = a.c1 * b.c1;
    return {t0 - t1, (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
  }
  // As two sums of products, c0 = a0 b0 - a1 b1 and c1 = a0 b1 + a1 b0, each one Montgomery pass:
  // cheaper than Karatsuba where the base field fuses such sums (the device; BN254's Fp on an ADX
  // host, ff/mont_dot_host.hpp: 33 against 41 ns a product on the EPYC dev VM, throughput of eight
  // independent chains; BM_PippengerBn254G2 2^17, 1 thread, 906 -> 821 ms).
  PP_HD static fp2_t mul_by_dots(const fp2_t& a, const fp2_t& b) {
    return {base::template signed_dot<2, 0b10>({a.c0, a.c1}, {b.c0, b.c1}),
            base::template signed_dot<2, 0b00>({a.c0, a.c1}, {b.c1, b.c0})};
  }
  // a*b - c*d as two sums of four products.
  PP_HD static fp2_t mul_sub_by_dots(const fp2_t& a, const fp2_t& b, const fp2_t& c, const fp2_t& d) {
    return {base::template signed_dot<4, 0b0110>({a.c0, a.c1, c.c0, c.c1}, {b.c0, b.c1, d.c0, d.c1}),
            base::template signed_dot<4, 0b1100>({a.c0, a.c1, c.c0, c.c1}, {b.c1, b.c0, d.c1, d.c0})};
  }
  PP_HD friend fp2_t operator*(const fp2_t& a, const fp2_t& b) {
#if PP_DEVICE_PASS
    return fp2_mul_device(a, b);
#else
    if (host_path::dot_is_fused<typename base::params, 2>()) return mul_by_dots(a, b);
    return mul_inline(a, b);
#endif
  }
  // The XYZZ formulas' a*b - c*d (ec/xyzz.hpp).
  PP_HD static fp2_t mul_sub(const fp2_t& a, const fp2_t& b, const fp2_t& c, const fp2_t& d) {
#if PP_DEVICE_PASS
    return fp2_mul_sub_device(a, b, c, d);
#else
    if (host_path::dot_is_fused<typename base::params, 4>()) return mul_sub_by_dots(a, b, c, d);
    return a * b - c * d;
#endif
  }
  PP_HD friend fp2_t operator*(const fp2_t& a, const base& s) { return {a.c0 * s, a.c1 * s}; }
  PP_HD fp2_t& operator+=(const fp2_t& b) { return *this = *this + b; }
  PP_HD fp2_t& operator-=(const fp2_t& b) { return *this = *this - b; }
  PP_HD fp2_t& operator*=(const fp2_t& b) { return *this = *this * b; }

  PP_HD fp2_t dbl() const { return {c0.dbl(), c1.dbl()}; }
  // Complex squaring: 2M. (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u
  PP_HD fp2_t sqr_inline() const { return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()}; }
  PP_HD fp2_t sqr() const {
#if PP_DEVICE_PASS
    return fp2_sqr_device(*this);
#else
    return sqr_inline();
#endif
  }
  PP_HD fp2_t conjugate() const { return {c0, -c1}; }
  // Multiplication by the sextic non-residue xi = k + u (the tower's v^3), k = T::params::xi_c0:
  // (k c0 - c1) + (c0 + k c1) u, with k c done by additions (k = 1: BLS12-381; k = 9: BN254).
  PP_HD fp2_t mul_by_nonresidue() const {
    constexpr int k = T::params::xi_c0;
    if constexpr (k == 1) {
      return {c0 - c1, c0 + c1};
    } else {
      return {times<k>(c0) - c1, c0 + times<k>(c1)};
    }
  }
  // a0^2 + a1^2: one fused pass where the host has it (ff/mont_dot_host.hpp).
  PP_HD base norm() const {
#if !PP_DEVICE_PASS
    if (host_path::dot_is_fused<typename base::params, 2>()) return base::template signed_dot<2, 0>({c0, c1}, {c0, c1});
#endif
    return c0.sqr() + c1.sqr();
  }
  // 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2); 0 maps to 0.
  PP_HD fp2_t inverse() const {
    const base t = norm().inverse();
    return {c0 * t, -(c1 * t)};
  }
  PP_HD fp2_t pow(const uint64_t* e, int n) const {
    fp2_t r = one();
    for (int i = 64 * n - 1; i >= 0; --i) {
      r = r.sqr();
      if ((e[i >> 6] >> (i & 63)) & 1) r *= *this;
    }
    return r;
  }
  // a is a square in Fp2 iff its norm is a square in Fp.
  PP_HD bool is_square() const { return norm().is_square(); }

 private:
  // k a for a small constant k > 0: doublings and additions, left to right over the bits of k.
  template <int K>
  PP_HD static base times(const base& a) {
    static_assert(K > 0);
    if constexpr (K == 1) {
      return a;
    } else if constexpr (K % 2 == 0) {
      return times<K / 2>(a).dbl();
    } else {
      return times<K - 1>(a) + a;
    }
  }
};

using fp2 = fp2_t<bls12_381::tower>;
static_assert(sizeof(fp2) == 96);

// A BLS12-381 Fp2 constant from a generated table: fp2::from_table, for callers outside templates.
PP_HD constexpr fp2 fp2_from_table(const uint64_t (&v)[2][6]) { return fp2::from_table(v); }

#if PP_DEVICE_PASS
// Fp2 products on the device as one-pass sums of Fp products (ff/mont_dot_device.hpp), one
// reduction per coefficient. a*b: c0 = a0 b0 - a1 b1, c1 = a0 b1 + a1 b0, 888 multiplies against
// Karatsuba's 900 and none of its five modular additions. a*b - c*d: four products a coefficient,
// 1464 multiplies against two Fp2 products' 1776 (docs/perf/msm-h200.md, "Fp2 products in one pass,
// the Fp square").
template <class T>
static __device__ __noinline__ fp2_t<T> fp2_mul_device(fp2_t<T> a, fp2_t<T> b) {
  return fp2_t<T>::mul_by_dots(a, b);
}
template <class T>
static __device__ __noinline__ fp2_t<T> fp2_mul_sub_device(fp2_t<T> a, fp2_t<T> b, fp2_t<T> c, fp2_t<T> d) {
  return fp2_t<T>::mul_sub_by_dots(a, b, c, d);
}
template <class T>
static __device__ __noinline__ fp2_t<T> fp2_sqr_device(fp2_t<T> a) {
  return a.sqr_inline();
}
#endif

}  // namespace pp::ff
