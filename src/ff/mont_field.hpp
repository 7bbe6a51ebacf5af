// mont_field<P>: a prime field in Montgomery form, one type for host and device.
// Storage is N little-endian 64-bit limbs (the same bytes as 2N 32-bit limbs on the device).
// Multiplication dispatches to the host path (64-bit CIOS) or the device path (32-bit PTX chains).
#pragma once
#include <cstdint>

#include "ff/hd.hpp"
#include "ff/limbs.hpp"
#include "ff/mod_add_host.hpp"
#include "ff/mont_dot_host.hpp"
#include "ff/mont_mul_host.hpp"
#include "ff/safegcd_inverse.hpp"
#if defined(__CUDACC__)
#include "ff/mont_mul_device.hpp"
#include "ff/mont_dot_device.hpp"
#include "ff/mont_sqr_device.hpp"
#endif

namespace pp::ff {

template <class P>
struct mont_field {
  using params = P;
  static constexpr int n64 = P::n64;
  static constexpr int n32 = 2 * P::n64;
  static constexpr int n_bytes = 8 * P::n64;
  static constexpr int bits = P::bits;

  uint64_t l[n64];  // Montgomery form, fully reduced (< modulus)

  PP_HD static constexpr mont_field zero() { return mont_field{}; }
  PP_HD static constexpr mont_field one() { return from_montgomery(P::r_mod); }
  // Wraps limbs that already are in Montgomery form (constants, key files).
  PP_HD static constexpr mont_field from_montgomery(const uint64_t (&v)[n64]) {
    mont_field r{};
    for (int i = 0; i < n64; ++i) r.l[i] = v[i];
    return r;
  }
  // Canonical integer (must be < modulus: callers that read untrusted data use from_canonical_checked).
  PP_HD static mont_field from_canonical_unchecked(const uint64_t* v) {
    mont_field a;
    for (int i = 0; i < n64; ++i) a.l[i] = v[i];
    return a * from_montgomery(P::r2_mod);
  }
  PP_HD static mont_field from_uint(uint64_t v) {
    uint64_t t[n64] = {v};
    return from_canonical_unchecked(t);
  }
  // Writes the canonical integer (out of Montgomery form: one multiplication by 1).
  PP_HD void to_canonical(uint64_t* out) const {
    uint64_t one_plain[n64] = {1};
    mul_raw(out, l, one_plain);
  }
  // True if v < modulus, then out = v in Montgomery form.
  PP_HD static bool from_canonical_checked(const uint64_t* v, mont_field& out) {
    if (limbs::cmp<n64>(v, P::modulus) >= 0) return false;
    out = from_canonical_unchecked(v);
    return true;
  }

  PP_HD bool is_zero() const { return limbs::is_zero<n64>(l); }
  PP_HD bool is_one() const { return *this == one(); }
  PP_HD friend bool operator==(const mont_field& a, const mont_field& b) {
    uint64_t d = 0;
    for (int i = 0; i < n64; ++i) d |= a.l[i] ^ b.l[i];
    return d == 0;
  }
  PP_HD friend bool operator!=(const mont_field& a, const mont_field& b) { return !(a == b); }

  PP_HD_INLINE friend mont_field operator+(const mont_field& a, const mont_field& b) {
    mont_field r;
#if PP_DEVICE_PASS
    device_path::mod_add<P>(r.l, a.l, b.l);
#else
    host_path::mod_add<P>(r.l, a.l, b.l);
#endif
    return r;
  }
  PP_HD_INLINE friend mont_field operator-(const mont_field& a, const mont_field& b) {
    mont_field r;
#if PP_DEVICE_PASS
    device_path::mod_sub<P>(r.l, a.l, b.l);
#else
    host_path::mod_sub<P>(r.l, a.l, b.l);
#endif
    return r;
  }
  PP_HD mont_field operator-() const { return zero() - *this; }
  PP_HD friend mont_field operator*(const mont_field& a, const mont_field& b) {
    mont_field r;
    mul_raw(r.l, a.l, b.l);
    return r;
  }
  PP_HD mont_field& operator+=(const mont_field& b) { return *this = *this + b; }
  PP_HD mont_field& operator-=(const mont_field& b) { return *this = *this - b; }
  PP_HD mont_field& operator*=(const mont_field& b) { return *this = *this * b; }

  PP_HD mont_field dbl() const { return *this + *this; }
  // On the device, where the modulus leaves room (Fp), a square in one CIOS pass with the rows'
  // repeated products formed once (ff/mont_sqr_device.hpp: 234 Fp multiplies against 300).
  PP_HD mont_field sqr() const {
#if PP_DEVICE_PASS
    if constexpr (device_path::sqr_fits<P>) {
      mont_field r;
      device_path::mont_sqr<P>(r.l, l);
      return r;
    }
#endif
    return *this * *this;
  }
  // The sum over k of a[k]*b[k], product k subtracted where bit k of Negate is set. On the device,
  // where K products fit one pass (Fp up to K = 8, not Fr), one CIOS pass with a shared reduction
  // (ff/mont_dot_device.hpp); on an ADX host, for 4-limb moduli, the same pass with a subtracted
  // product's a[k] entering as m - a[k] (ff/mont_dot_host.hpp); elsewhere K products added or
  // subtracted.
  template <int K, unsigned Negate>
  PP_HD static mont_field signed_dot(const mont_field (&a)[K], const mont_field (&b)[K]) {
    static_assert(K >= 1 && (Negate >> K) == 0);
#if PP_DEVICE_PASS
    if constexpr (device_path::dot_fits<P, K>) {
      const uint64_t* al[K];
      const uint64_t* bl[K];
      for (int k = 0; k < K; ++k) {
        al[k] = a[k].l;
        bl[k] = b[k].l;
      }
      mont_field r;
      device_path::mont_signed_dot<P, K, Negate>(r.l, al, bl);
      return r;
    }
#elif PP_MONT_MUL_ADX
    if constexpr (host_path::dot_fits<P, K>) {
      if (host_path::use_adx) {
        uint64_t negated[K][n64];
        const uint64_t* al[K];
        const uint64_t* bl[K];
        for (int k = 0; k < K; ++k) {
          if ((Negate >> k) & 1) {
            limbs::sub<n64>(negated[k], P::modulus, a[k].l);
            al[k] = negated[k];
          } else {
            al[k] = a[k].l;
          }
          bl[k] = b[k].l;
        }
        mont_field r;
        host_path::mont_dot_adx4<P, K>(r.l, al, bl);
        return r;
      }
    }
#endif
    mont_field r = (Negate & 1) ? -(a[0] * b[0]) : a[0] * b[0];
    for (int k = 1; k < K; ++k) r = ((Negate >> k) & 1) ? r - a[k] * b[k] : r + a[k] * b[k];
    return r;
  }
  PP_HD static mont_field mul_sub(const mont_field& a, const mont_field& b, const mont_field& c,
                                  const mont_field& d) {
    return signed_dot<2, 0b10>({a, c}, {b, d});
  }

  // this^e for a little-endian exponent of n limbs (square-and-multiply, left to right).
  PP_HD mont_field pow(const uint64_t* e, int n) const {
    mont_field r = one();
    for (int i = 64 * n - 1; i >= 0; --i) {
      r = r.sqr();
      if ((e[i >> 6] >> (i & 63)) & 1) r *= *this;
    }
    return r;
  }
  PP_HD mont_field pow(uint64_t e) const { return pow(&e, 1); }

  // Multiplicative inverse (ff/safegcd_inverse.hpp); the inverse of 0 is defined as 0. The limbs
  // hold a R, whose integer inverse is a^-1 R^-1: two products by R^2 make it a^-1 R.
  PP_HD mont_field inverse() const {
    mont_field r;
    safegcd::invert<P>(r.l, l);
    constexpr auto r2 = limbs::copy(P::r2_mod);  // compile-time copy: usable in device code
    const mont_field r2_field = from_montgomery(r2.v);
    return r * r2_field * r2_field;
  }

  // Legendre symbol test: 0 and squares are squares.
  PP_HD bool is_square() const {
    if (is_zero()) return true;
    constexpr auto e = limbs::copy(P::m_minus_1_half);
    return pow(e.v, n64).is_one();
  }

 private:
  PP_HD static void mul_raw(uint64_t* out, const uint64_t* a, const uint64_t* b) {
#if PP_DEVICE_PASS
    device_path::mont_mul<P>(out, a, b);
#else
    host_path::mont_mul<P>(out, a, b);
#endif
  }
};

// Inverts every element of v in place with one field inversion (Montgomery's trick); zeros stay zero.
// scratch must hold n elements.
template <class F>
PP_HD void batch_inverse(F* v, F* scratch, int64_t n) {
  F acc = F::one();
  for (int64_t i = 0; i < n; ++i) {
    scratch[i] = acc;
    if (!v[i].is_zero()) acc *= v[i];
  }
  F inv = acc.inverse();
  for (int64_t i = n - 1; i >= 0; --i) {
    if (v[i].is_zero()) continue;
    const F vi = v[i];
    v[i] = inv * scratch[i];
    inv *= vi;
  }
}

}  // namespace pp::ff
