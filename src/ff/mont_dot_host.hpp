// Host path of mont_field::signed_dot for 4-limb moduli on x86-64 with BMI2+ADX (BN254's p and r): a
// sum of K products in one CIOS pass, each step adding the K products' rows and one reduction row.
// K products cost 16 (K + 1) mulx + 4 imul instead of K (32 mulx + 4 imul): an Fp2 product (two
// 2-product sums, ff/fp2.hpp) 96 mulx against Karatsuba's 108 and none of its five modular additions.
// The device twin is ff/mont_dot_device.hpp; tests/ff/mont_dot_host_test.cpp checks this against GMP.
#pragma once
#include <cstdint>

#include "ff/hd.hpp"
#include "ff/mont_mul_host.hpp"

namespace pp::ff::host_path {

// The bound of a K-product pass over operands a_k <= m (a negated operand enters as m - a) and
// b_k < m: a step's sum t + sum_k a_k b_k[i] + q m stays below 2^256 + (K + 1) m 2^64 < 2^320 (five
// words), so the next step starts below 2^192 + (K + 1) m < 2^256 with its top word zero; and the
// pass ends below (K m^2 + 2^256 m) / 2^256 < 2m where K m < 2^256, so one conditional subtraction
// reduces it. Checked on the top limb: (K + 1) (top + 1) < 2^64. BN254: K <= 4.
template <class P, int K>
inline constexpr bool dot_fits = P::n64 == 4 && K >= 1 && P::modulus[3] < UINT64_MAX / (K + 1) - 1;

#if PP_MONT_MUL_ADX

// (t4:t3:t2:t1:t0) += a * b for a 4-limb a in memory and a word b: mulx rows with the low halves
// on the OF chain and the high halves on the CF chain (as mont_mul_adx4). The caller's bound keeps
// the sum below 2^320, so no carry leaves t4.
inline void dot_row4(uint64_t& t0, uint64_t& t1, uint64_t& t2, uint64_t& t3, uint64_t& t4, const uint64_t* a,
                     uint64_t b) {
  uint64_t lo, hi, z;
  asm("xorl %k[z], %k[z]\n\t"
      "mulxq 0(%[a]), %[lo], %[hi]\n\t"  "adoxq %[lo], %[t0]\n\t" "adcxq %[hi], %[t1]\n\t"
      "mulxq 8(%[a]), %[lo], %[hi]\n\t"  "adoxq %[lo], %[t1]\n\t" "adcxq %[hi], %[t2]\n\t"
      "mulxq 16(%[a]), %[lo], %[hi]\n\t" "adoxq %[lo], %[t2]\n\t" "adcxq %[hi], %[t3]\n\t"
      "mulxq 24(%[a]), %[lo], %[hi]\n\t" "adoxq %[lo], %[t3]\n\t" "adcxq %[hi], %[t4]\n\t"
      "adoxq %[z], %[t4]\n\t"
      : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [t4] "+r"(t4), [lo] "=&r"(lo),
        [hi] "=&r"(hi), [z] "=&r"(z)
      : [a] "r"(a), "d"(b), "m"(*reinterpret_cast<const uint64_t(*)[4]>(a))
      : "cc");
}

// out = sum_k a[k] * b[k] / 2^256 mod m, fully reduced; requires dot_fits<P, K> and use_adx.
// out may alias any operand.
template <class P, int K>
inline void mont_dot_adx4(uint64_t* out, const uint64_t* const (&a)[K], const uint64_t* const (&b)[K]) {
  static_assert(dot_fits<P, K>);
  uint64_t t0 = 0, t1 = 0, t2 = 0, t3 = 0, t4 = 0;
PP_UNROLL
  for (int i = 0; i < 4; ++i) {
PP_UNROLL
    for (int k = 0; k < K; ++k) dot_row4(t0, t1, t2, t3, t4, a[k], b[k][i]);
    dot_row4(t0, t1, t2, t3, t4, P::modulus, t0 * P::inv);  // zeroes t0: the division by 2^64
    t0 = t1, t1 = t2, t2 = t3, t3 = t4, t4 = 0;
  }
  // Below 2m: subtract m, keep the difference unless it borrowed.
  uint64_t d0, d1, d2, d3;
  asm("movq %[t0], %[d0]\n\t" "subq %[m0], %[d0]\n\t"
      "movq %[t1], %[d1]\n\t" "sbbq %[m1], %[d1]\n\t"
      "movq %[t2], %[d2]\n\t" "sbbq %[m2], %[d2]\n\t"
      "movq %[t3], %[d3]\n\t" "sbbq %[m3], %[d3]\n\t"
      "cmovncq %[d0], %[t0]\n\t" "cmovncq %[d1], %[t1]\n\t" "cmovncq %[d2], %[t2]\n\t" "cmovncq %[d3], %[t3]\n\t"
      : [t0] "+r"(t0), [t1] "+r"(t1), [t2] "+r"(t2), [t3] "+r"(t3), [d0] "=&r"(d0), [d1] "=&r"(d1),
        [d2] "=&r"(d2), [d3] "=&r"(d3)
      : [m0] "m"(P::modulus[0]), [m1] "m"(P::modulus[1]), [m2] "m"(P::modulus[2]), [m3] "m"(P::modulus[3])
      : "cc");
  out[0] = t0, out[1] = t1, out[2] = t2, out[3] = t3;
}

#endif  // PP_MONT_MUL_ADX

// True when signed_dot<K> runs as one pass here (mont_dot_adx4), so that a sum of products is
// cheaper than the products apart; ff/fp2.hpp picks its product's formula by it.
template <class P, int K>
PP_HD_INLINE bool dot_is_fused() {
#if PP_MONT_MUL_ADX
  if constexpr (dot_fits<P, K>) return use_adx;
#endif
  return false;
}

}  // namespace pp::ff::host_path
