// Fp2 = Fp[u] / (u^2 + 1): c0 + c1*u. The field of G2 coordinates.
#pragma once
#include "ff/fp.hpp"

namespace pp::ff {

struct fp2;
#if PP_DEVICE_PASS
// On the device, Fp2 products are out-of-line calls: force-inlining 3 Fp products into every G2
// formula made the G2 kernels so large that nvcc took ~20 minutes per file and ptxas spilled
// (H200, 2026-12-02: the G2 accumulation 7% slower inlined). Operands pass by value, in registers:
// by reference they had to live in the caller's stack frame (1312 bytes in the G2 accumulation,
// 424 by value; that kernel 3% faster, the bucket reduction 7-11%; docs/perf/msm-h200.md, "Fp2
// operands by value").
static __device__ __noinline__ fp2 fp2_mul_device(fp2 a, fp2 b);
static __device__ __noinline__ fp2 fp2_sqr_device(fp2 a);
static __device__ __noinline__ fp2 fp2_mul_sub_device(fp2 a, fp2 b, fp2 c, fp2 d);
#endif

struct fp2 {
  using base = fp;
  fp c0, c1;

  PP_HD static constexpr fp2 zero() { return fp2{fp::zero(), fp::zero()}; }
  PP_HD static constexpr fp2 one() { return fp2{fp::one(), fp::zero()}; }
  PP_HD bool is_zero() const { return c0.is_zero() && c1.is_zero(); }
  PP_HD bool is_one() const { return c0.is_one() && c1.is_zero(); }
  PP_HD friend bool operator==(const fp2& a, const fp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  PP_HD friend bool operator!=(const fp2& a, const fp2& b) { return !(a == b); }

  PP_HD friend fp2 operator+(const fp2& a, const fp2& b) { return {a.c0 + b.c0, a.c1 + b.c1}; }
  PP_HD friend fp2 operator-(const fp2& a, const fp2& b) { return {a.c0 - b.c0, a.c1 - b.c1}; }
  PP_HD fp2 operator-() const { return {-c0, -c1}; }
  // Karatsuba: 3M. (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u
  PP_HD static fp2 mul_inline(const fp2& a, const fp2& b) {
    const fp t0 = a.c0 * b.c0;
    const fp t1 = a.c1 * b.c1;
    return {t0 - t1, (a.c0 + a.c1) * (b.c0 + b.c1) - t0 - t1};
  }
  PP_HD friend fp2 operator*(const fp2& a, const fp2& b) {
#if PP_DEVICE_PASS
    return fp2_mul_device(a, b);
#else
    return mul_inline(a, b);
#endif
  }
  // The XYZZ formulas' a*b - c*d (ec/xyzz.hpp).
  PP_HD static fp2 mul_sub(const fp2& a, const fp2& b, const fp2& c, const fp2& d) {
#if PP_DEVICE_PASS
    return fp2_mul_sub_device(a, b, c, d);
#else
    return a * b - c * d;
#endif
  }
  PP_HD friend fp2 operator*(const fp2& a, const fp& s) { return {a.c0 * s, a.c1 * s}; }
  PP_HD fp2& operator+=(const fp2& b) { return *this = *this + b; }
  PP_HD fp2& operator-=(const fp2& b) { return *this = *this - b; }
  PP_HD fp2& operator*=(const fp2& b) { return *this = *this * b; }

  PP_HD fp2 dbl() const { return {c0.dbl(), c1.dbl()}; }
  // Complex squaring: 2M. (a0 + a1 u)^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u
  PP_HD fp2 sqr_inline() const { return {(c0 + c1) * (c0 - c1), (c0 * c1).dbl()}; }
  PP_HD fp2 sqr() const {
#if PP_DEVICE_PASS
    return fp2_sqr_device(*this);
#else
    return sqr_inline();
#endif
  }
  PP_HD fp2 conjugate() const { return {c0, -c1}; }
  // Multiplication by the sextic non-residue xi = 1 + u (the tower's v^3).
  PP_HD fp2 mul_by_nonresidue() const { return {c0 - c1, c0 + c1}; }
  PP_HD fp norm() const { return c0.sqr() + c1.sqr(); }
  // 1/(a0 + a1 u) = (a0 - a1 u) / (a0^2 + a1^2); 0 maps to 0.
  PP_HD fp2 inverse() const {
    const fp t = norm().inverse();
    return {c0 * t, -(c1 * t)};
  }
  PP_HD fp2 pow(const uint64_t* e, int n) const {
    fp2 r = one();
    for (int i = 64 * n - 1; i >= 0; --i) {
      r = r.sqr();
      if ((e[i >> 6] >> (i & 63)) & 1) r *= *this;
    }
    return r;
  }
  // a is a square in Fp2 iff its norm is a square in Fp.
  PP_HD bool is_square() const { return norm().is_square(); }
};
static_assert(sizeof(fp2) == 96);

#if PP_DEVICE_PASS
// Fp2 products on the device as one-pass sums of Fp products (ff/mont_dot_device.hpp), one
// reduction per coefficient. a*b: c0 = a0 b0 - a1 b1, c1 = a0 b1 + a1 b0, 888 multiplies against
// Karatsuba's 900 and none of its five modular additions. a*b - c*d: four products a coefficient,
// 1464 multiplies against two Fp2 products' 1776 (docs/perf/msm-h200.md, "Fp2 products in one pass,
// the Fp square").
static __device__ __noinline__ fp2 fp2_mul_device(fp2 a, fp2 b) {
  return {fp::signed_dot<2, 0b10>({a.c0, a.c1}, {b.c0, b.c1}),
          fp::signed_dot<2, 0b00>({a.c0, a.c1}, {b.c1, b.c0})};
}
static __device__ __noinline__ fp2 fp2_mul_sub_device(fp2 a, fp2 b, fp2 c, fp2 d) {
  return {fp::signed_dot<4, 0b0110>({a.c0, a.c1, c.c0, c.c1}, {b.c0, b.c1, d.c0, d.c1}),
          fp::signed_dot<4, 0b1100>({a.c0, a.c1, c.c0, c.c1}, {b.c1, b.c0, d.c1, d.c0})};
}
static __device__ __noinline__ fp2 fp2_sqr_device(fp2 a) { return a.sqr_inline(); }
#endif

}  // namespace pp::ff
