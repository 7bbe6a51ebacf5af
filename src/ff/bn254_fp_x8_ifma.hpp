// BN254's Fp eight elements at a time on AVX-512 IFMA: five 52-bit limbs an element, limb k of eight
// lanes in one zmm, products by vpmadd52luq/vpmadd52huq (low/high 52 bits of 52x52-bit products,
// accumulated). Host and x86-64 only: nothing compiled by nvcc includes it. Every function carries
// the AVX-512 target attribute, so the build need not target AVX-512: callers check
// cpu_has_avx512_ifma() first (msm/bn254_batch_ifma.cpp).
//
// Scales: a lane holds an integer v standing for the field element v / 2^s mod p. mont_field's limbs
// are the same integers at s = 256; mul(a, b) returns a * b / 2^260 (s_a + s_b - 260), so callers
// track s and shift by 2^k (shl) where they need another. Bounds: limbs "normalized" below 2^52
// (the top one may be larger); mul needs a * b < 2^260 p and returns < 2p.
#pragma once
#include <immintrin.h>

#include <array>
#include <cstdint>

#include "ff/bn254_constants.hpp"

#define PP_IFMA [[gnu::target("avx512f,avx512ifma"), gnu::always_inline]] inline

namespace pp::ff::bn254::ifma {

// True when the CPU and the OS run AVX-512F and IFMA (libgcc checks XCR0 for the zmm state).
inline bool cpu_has_avx512_ifma() {
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
}

inline constexpr uint64_t mask52 = (uint64_t{1} << 52) - 1;
using limbs52 = std::array<uint64_t, 5>;

// 4 x 64 -> 5 x 52 bits; v < 2^260.
constexpr limbs52 to_limbs52(const uint64_t* v) {
  return {v[0] & mask52, ((v[0] >> 52) | (v[1] << 12)) & mask52, ((v[1] >> 40) | (v[2] << 24)) & mask52,
          ((v[2] >> 28) | (v[3] << 36)) & mask52, v[3] >> 16};
}
constexpr limbs52 times(const limbs52& a, uint64_t k) {
  limbs52 r{};
  uint64_t carry = 0;
  for (int j = 0; j < 5; ++j) {
    const uint64_t t = a[j] * k + carry;
    r[j] = j < 4 ? t & mask52 : t;
    carry = t >> 52;
  }
  return r;
}
inline constexpr limbs52 p1 = to_limbs52(fp_params::modulus);
inline constexpr limbs52 p2 = times(p1, 2);
inline constexpr limbs52 p4 = times(p1, 4);
inline constexpr limbs52 p8 = times(p1, 8);
inline constexpr uint64_t pinv52 = fp_params::inv & mask52;  // -p^-1 mod 2^52

struct fp_x8 {
  __m512i l[5];
};

PP_IFMA __m512i splat(uint64_t v) { return _mm512_set1_epi64(static_cast<long long>(v)); }
PP_IFMA fp_x8 splat(const limbs52& v) { return {{splat(v[0]), splat(v[1]), splat(v[2]), splat(v[3]), splat(v[4])}}; }

// Carries every limb's excess (signed: limbs may be negative after a subtraction) into the next.
PP_IFMA fp_x8 normalize(fp_x8 a) {
  const __m512i m = splat(mask52);
  for (int j = 0; j < 4; ++j) {
    a.l[j + 1] = _mm512_add_epi64(a.l[j + 1], _mm512_srai_epi64(a.l[j], 52));
    a.l[j] = _mm512_and_si512(a.l[j], m);
  }
  return a;
}

// One CIOS accumulator over 52-bit words: per round i, rows a * b[i] (low halves into t0..t4,
// high halves into t1..t5) are added, then reduce() adds m p for m = t0 * -p^-1 mod 2^52 and drops
// the zero word. Accumulators stay unnormalized (< 2^57) until result().
struct cios_x8 {
  __m512i t0, t1, t2, t3, t4, t5;

  PP_IFMA static cios_x8 zero() {
    const __m512i z = _mm512_setzero_si512();
    return {z, z, z, z, z, z};
  }
  // The round's first row starts t5 afresh (the word above the previous round's top).
  PP_IFMA void first_row(const fp_x8& a, __m512i bi) {
    t5 = _mm512_madd52hi_epu64(_mm512_setzero_si512(), a.l[4], bi);
    add_row_low_and_mid(a, bi);
  }
  PP_IFMA void next_row(const fp_x8& a, __m512i bi) {
    t5 = _mm512_madd52hi_epu64(t5, a.l[4], bi);
    add_row_low_and_mid(a, bi);
  }
  PP_IFMA void reduce() {
    const __m512i m = _mm512_madd52lo_epu64(_mm512_setzero_si512(), t0, splat(pinv52));  // t0 * -p^-1 mod 2^52
    t0 = _mm512_madd52lo_epu64(t0, m, splat(p1[0]));                                     // now 0 mod 2^52
    t1 = _mm512_madd52lo_epu64(t1, m, splat(p1[1]));
    t2 = _mm512_madd52lo_epu64(t2, m, splat(p1[2]));
    t3 = _mm512_madd52lo_epu64(t3, m, splat(p1[3]));
    t4 = _mm512_madd52lo_epu64(t4, m, splat(p1[4]));
    t1 = _mm512_madd52hi_epu64(t1, m, splat(p1[0]));
    t2 = _mm512_madd52hi_epu64(t2, m, splat(p1[1]));
    t3 = _mm512_madd52hi_epu64(t3, m, splat(p1[2]));
    t4 = _mm512_madd52hi_epu64(t4, m, splat(p1[3]));
    t5 = _mm512_madd52hi_epu64(t5, m, splat(p1[4]));
    // Divide by 2^52: drop the zero word, keeping its carry.
    t0 = _mm512_add_epi64(t1, _mm512_srli_epi64(t0, 52));
    t1 = t2;
    t2 = t3;
    t3 = t4;
    t4 = t5;
  }
  PP_IFMA fp_x8 result() const { return normalize({{t0, t1, t2, t3, t4}}); }

 private:
  PP_IFMA void add_row_low_and_mid(const fp_x8& a, __m512i bi) {
    t0 = _mm512_madd52lo_epu64(t0, a.l[0], bi);
    t1 = _mm512_madd52lo_epu64(t1, a.l[1], bi);
    t2 = _mm512_madd52lo_epu64(t2, a.l[2], bi);
    t3 = _mm512_madd52lo_epu64(t3, a.l[3], bi);
    t4 = _mm512_madd52lo_epu64(t4, a.l[4], bi);
    t1 = _mm512_madd52hi_epu64(t1, a.l[0], bi);
    t2 = _mm512_madd52hi_epu64(t2, a.l[1], bi);
    t3 = _mm512_madd52hi_epu64(t3, a.l[2], bi);
    t4 = _mm512_madd52hi_epu64(t4, a.l[3], bi);
  }
};

// Montgomery product a * b / 2^260 (50 IFMA for the product, 55 for the reduction, per eight
// lanes).
PP_IFMA fp_x8 mul(const fp_x8& a, const fp_x8& b) {
  cios_x8 t = cios_x8::zero();
#pragma GCC unroll 5
  for (int i = 0; i < 5; ++i) {
    t.first_row(a, b.l[i]);
    t.reduce();
  }
  return t.result();
}

// (a * b + c * d) / 2^260 with one reduction (31 IFMA a round against mul's 21, twice), for Fp2's
// products: a * b + c * d < 2^260 p returns < 2p.
PP_IFMA fp_x8 dot2(const fp_x8& a, const fp_x8& b, const fp_x8& c, const fp_x8& d) {
  cios_x8 t = cios_x8::zero();
#pragma GCC unroll 5
  for (int i = 0; i < 5; ++i) {
    t.first_row(a, b.l[i]);
    t.next_row(c, d.l[i]);
    t.reduce();
  }
  return t.result();
}

PP_IFMA fp_x8 add(const fp_x8& a, const fp_x8& b) {
  fp_x8 r;
  for (int j = 0; j < 5; ++j) r.l[j] = _mm512_add_epi64(a.l[j], b.l[j]);
  return normalize(r);
}

// a + kp - b, for b <= kp: the difference lazily reduced (< a + kp).
PP_IFMA fp_x8 sub(const fp_x8& a, const fp_x8& b, const limbs52& kp) {
  fp_x8 r;
  for (int j = 0; j < 5; ++j) r.l[j] = _mm512_sub_epi64(_mm512_add_epi64(a.l[j], splat(kp[j])), b.l[j]);
  return normalize(r);
}

// a - kp where a >= kp, else a.
PP_IFMA fp_x8 reduce_below(const fp_x8& a, const limbs52& kp) {
  fp_x8 d;
  for (int j = 0; j < 5; ++j) d.l[j] = _mm512_sub_epi64(a.l[j], splat(kp[j]));
  d = normalize(d);
  const __mmask8 below = _mm512_cmplt_epi64_mask(d.l[4], _mm512_setzero_si512());
  for (int j = 0; j < 5; ++j) d.l[j] = _mm512_mask_blend_epi64(below, d.l[j], a.l[j]);
  return d;
}

// a * 2^k as an integer (no reduction): scale s -> s + k. a normalized, the result below 2^260.
template <int K>
PP_IFMA fp_x8 shl(const fp_x8& a) {
  const __m512i m = splat(mask52);
  fp_x8 r;
  r.l[0] = _mm512_and_si512(_mm512_slli_epi64(a.l[0], K), m);
  for (int j = 1; j < 5; ++j) {
    const __m512i up = _mm512_slli_epi64(a.l[j], K);
    r.l[j] = _mm512_or_si512(j < 4 ? _mm512_and_si512(up, m) : up, _mm512_srli_epi64(a.l[j - 1], 52 - K));
  }
  return r;
}

// Lanes where a == b; both normalized and below p (one representation each).
PP_IFMA __mmask8 equal(const fp_x8& a, const fp_x8& b) {
  __mmask8 eq = 0xff;
  for (int j = 0; j < 5; ++j) eq &= _mm512_cmpeq_epi64_mask(a.l[j], b.l[j]);
  return eq;
}

PP_IFMA fp_x8 blend(__mmask8 take_b, const fp_x8& a, const fp_x8& b) {
  fp_x8 r;
  for (int j = 0; j < 5; ++j) r.l[j] = _mm512_mask_blend_epi64(take_b, a.l[j], b.l[j]);
  return r;
}

// Eight 4 x 64-bit elements (src[i] -> lane i) into limbs: a 4 x 8 transpose by unpacks and
// two-source permutes, then the 52-bit split.
PP_IFMA fp_x8 load(const uint64_t* const src[8]) {
  __m512i z[4];
  for (int i = 0; i < 4; ++i) {
    const __m256i lo = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src[i]));
    const __m256i hi = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(src[i + 4]));
    z[i] = _mm512_inserti64x4(_mm512_castsi256_si512(lo), hi, 1);  // [x_i | x_i+4]
  }
  const __m512i t0 = _mm512_unpacklo_epi64(z[0], z[1]), t1 = _mm512_unpackhi_epi64(z[0], z[1]);
  const __m512i t2 = _mm512_unpacklo_epi64(z[2], z[3]), t3 = _mm512_unpackhi_epi64(z[2], z[3]);
  const __m512i even = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
  const __m512i odd = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
  const __m512i w0 = _mm512_permutex2var_epi64(t0, even, t2), w2 = _mm512_permutex2var_epi64(t0, odd, t2);
  const __m512i w1 = _mm512_permutex2var_epi64(t1, even, t3), w3 = _mm512_permutex2var_epi64(t1, odd, t3);
  const __m512i m = splat(mask52);
  return {{_mm512_and_si512(w0, m),
           _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w0, 52), _mm512_slli_epi64(w1, 12)), m),
           _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w1, 40), _mm512_slli_epi64(w2, 24)), m),
           _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(w2, 28), _mm512_slli_epi64(w3, 36)), m),
           _mm512_srli_epi64(w3, 16)}};
}

// The inverse of load for a normalized a < 2^256: lane i to dst[i] where bit i of lanes is set.
PP_IFMA void store(const fp_x8& a, uint64_t* const dst[8], __mmask8 lanes) {
  const __m512i w0 = _mm512_or_si512(a.l[0], _mm512_slli_epi64(a.l[1], 52));
  const __m512i w1 = _mm512_or_si512(_mm512_srli_epi64(a.l[1], 12), _mm512_slli_epi64(a.l[2], 40));
  const __m512i w2 = _mm512_or_si512(_mm512_srli_epi64(a.l[2], 24), _mm512_slli_epi64(a.l[3], 28));
  const __m512i w3 = _mm512_or_si512(_mm512_srli_epi64(a.l[3], 36), _mm512_slli_epi64(a.l[4], 16));
  // u0 = [x0_0 x0_1 x2_0 x2_1 | x4_0 x4_1 x6_0 x6_1], u2 the same for limbs 2, 3; u1, u3 odd lanes.
  const __m512i u0 = _mm512_unpacklo_epi64(w0, w1), u1 = _mm512_unpackhi_epi64(w0, w1);
  const __m512i u2 = _mm512_unpacklo_epi64(w2, w3), u3 = _mm512_unpackhi_epi64(w2, w3);
  const __m512i first = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0);    // [x_0 | x_2] of a pair
  const __m512i second = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);  // [x_4 | x_6]
  const __m512i v[4] = {_mm512_permutex2var_epi64(u0, first, u2), _mm512_permutex2var_epi64(u1, first, u3),
                        _mm512_permutex2var_epi64(u0, second, u2), _mm512_permutex2var_epi64(u1, second, u3)};
  // v[0] = [x0 | x2], v[1] = [x1 | x3], v[2] = [x4 | x6], v[3] = [x5 | x7].
  constexpr int lane_of[4][2] = {{0, 2}, {1, 3}, {4, 6}, {5, 7}};
  for (int k = 0; k < 4; ++k) {
    if ((lanes >> lane_of[k][0]) & 1) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst[lane_of[k][0]]), _mm512_castsi512_si256(v[k]));
    }
    if ((lanes >> lane_of[k][1]) & 1) {
      _mm256_storeu_si256(reinterpret_cast<__m256i*>(dst[lane_of[k][1]]), _mm512_extracti64x4_epi64(v[k], 1));
    }
  }
}

}  // namespace pp::ff::bn254::ifma
