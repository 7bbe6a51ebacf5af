// Fixed-width little-endian multi-limb integer helpers (64-bit limbs), host and device.
// The fields build their modular operations on these.
#pragma once
#include <cstdint>

#include "ff/hd.hpp"

#if !PP_DEVICE_PASS && defined(__x86_64__)
#include <immintrin.h>
#define PP_LIMBS_ADC 1  // adc/sbb chains through the carry flag
#else
#define PP_LIMBS_ADC 0
#endif

namespace pp::ff::limbs {

// out = a + b, returns the carry out.
template <int N>
PP_HD uint64_t add(uint64_t* out, const uint64_t* a, const uint64_t* b) {
#if PP_LIMBS_ADC
  unsigned char c = 0;
  PP_UNROLL
  for (int i = 0; i < N; ++i) {
    unsigned long long t;
    c = _addcarry_u64(c, a[i], b[i], &t);
    out[i] = t;
  }
  return c;
#else
  uint64_t carry = 0;
PP_UNROLL
  for (int i = 0; i < N; ++i) {
    const uint64_t s = a[i] + carry;
    const uint64_t c1 = s < carry;
    out[i] = s + b[i];
    carry = c1 | (out[i] < s);
  }
  return carry;
#endif
}

// out = a - b, returns the borrow out.
template <int N>
PP_HD uint64_t sub(uint64_t* out, const uint64_t* a, const uint64_t* b) {
#if PP_LIMBS_ADC
  unsigned char c = 0;
  PP_UNROLL
  for (int i = 0; i < N; ++i) {
    unsigned long long t;
    c = _subborrow_u64(c, a[i], b[i], &t);
    out[i] = t;
  }
  return c;
#else
  uint64_t borrow = 0;
PP_UNROLL
  for (int i = 0; i < N; ++i) {
    const uint64_t d = a[i] - b[i];
    const uint64_t b1 = a[i] < b[i];
    out[i] = d - borrow;
    borrow = b1 | (d < borrow);
  }
  return borrow;
#endif
}

// -1, 0, 1 as a <, ==, > b.
template <int N>
PP_HD constexpr int cmp(const uint64_t* a, const uint64_t* b) {
  for (int i = N - 1; i >= 0; --i) {
    if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
  }
  return 0;
}

template <int N>
PP_HD constexpr bool is_zero(const uint64_t* a) {
  uint64_t acc = 0;
PP_UNROLL
  for (int i = 0; i < N; ++i) acc |= a[i];
  return acc == 0;
}

// Bit i of a little-endian number.
template <int N>
PP_HD constexpr bool bit(const uint64_t* a, int i) {
  return (a[i >> 6] >> (i & 63)) & 1;
}

// A by-value copy of a constant limb array. `constexpr auto e = limbs::copy(P::m_minus_1_half);` is
// evaluated at compile time, so device code may then index e.v at run time: indexing the static
// constexpr member itself at run time (or binding a reference to it) is undefined in device code.
template <int N>
struct array {
  uint64_t v[N];
};
template <int N>
PP_HD constexpr array<N> copy(const uint64_t (&src)[N]) {
  array<N> r{};
  for (int i = 0; i < N; ++i) r.v[i] = src[i];
  return r;
}

}  // namespace pp::ff::limbs
