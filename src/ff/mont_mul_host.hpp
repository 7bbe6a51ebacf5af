// Montgomery multiplication with 64-bit limbs (host path; also the portable device fallback).
// Portable: CIOS with the "no-carry" shortcut (gnark-crypto, Montgomery multiplication notes), valid
// when the modulus' top limb is below 2^63 - 1 (true for BLS12-381 p and r); 2N^2 + N 64x64 products.
// x86-64 with BMI2+ADX (checked at run time unless the build targets it): the same CIOS for N = 6 and
// N = 4 in inline asm, mulx with two independent carry chains (adcx on CF, adox on OF). Both are bit-identical.
#pragma once
#include <cstdint>

#include "ff/hd.hpp"
#include "ff/limbs.hpp"

// Under AddressSanitizer (the asan preset, which also keeps frame pointers) the 6-limb asm's operands
// do not fit the registers g++ has left where it inlines the product into the flattened bucket loops
// ("impossible constraints" in msm/bls12_381_g1.cpp); that build takes the portable product.
#if defined(__SANITIZE_ADDRESS__)
#define PP_MONT_MUL_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PP_MONT_MUL_SANITIZED 1
#endif
#endif
#ifndef PP_MONT_MUL_SANITIZED
#define PP_MONT_MUL_SANITIZED 0
#endif

#if defined(__x86_64__) && !defined(__CUDACC__) && (defined(__GNUC__) || defined(__clang__)) && !PP_MONT_MUL_SANITIZED
#define PP_MONT_MUL_ADX 1
#include <cpuid.h>
#else
#define PP_MONT_MUL_ADX 0
#endif

namespace pp::ff::host_path {

using u128 = unsigned __int128;

template <class P>
PP_HD void mont_mul_portable(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  constexpr int N = P::n64;
  static_assert(P::modulus[N - 1] < 0x7fffffffffffffffull, "no-carry CIOS needs a spare top bit");
  uint64_t t[N] = {};
PP_UNROLL
  for (int i = 0; i < N; ++i) {
    u128 acc = u128(a[0]) * b[i] + t[0];
    uint64_t A = uint64_t(acc >> 64);
    t[0] = uint64_t(acc);
    const uint64_t m = t[0] * P::inv;
    acc = u128(m) * P::modulus[0] + t[0];
    uint64_t C = uint64_t(acc >> 64);
PP_UNROLL
    for (int j = 1; j < N; ++j) {
      acc = u128(a[j]) * b[i] + t[j] + A;
      A = uint64_t(acc >> 64);
      t[j] = uint64_t(acc);
      acc = u128(m) * P::modulus[j] + t[j] + C;
      C = uint64_t(acc >> 64);
      t[j - 1] = uint64_t(acc);
    }
    t[N - 1] = C + A;
  }
  uint64_t r[N];
  const uint64_t borrow = limbs::sub<N>(r, t, P::modulus);
PP_UNROLL
  for (int i = 0; i < N; ++i) out[i] = borrow ? t[i] : r[i];
}

#if PP_MONT_MUL_ADX

// True when this CPU executes mulx (BMI2) and adcx/adox (ADX): CPUID leaf 7, EBX bits 8 and 19.
inline bool cpu_has_bmi2_adx() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  return ((ebx >> 8) & 1) && ((ebx >> 19) & 1);
}
#if defined(__BMI2__) && defined(__ADX__)
inline constexpr bool use_adx = true;
#else
inline const bool use_adx = cpu_has_bmi2_adx();
#endif

// One term of a row: (hi:lo) = rdx * SRC; TJ += lo on the OF chain; TJ1 += hi on the CF chain.
#define PP_ADX_MAC(SRC, TJ, TJ1)            \
  "mulxq " SRC ", %[lo], %[hi]\n\t"         \
  "adoxq %[lo], " TJ "\n\t"                 \
  "adcxq %[hi], " TJ1 "\n\t"

// One CIOS iteration for N = 6 on the 7-word accumulator T0..T6 (T6 = 0 on entry): t += a * b_i,
// then t += m * p with m = t0 * inv, which zeroes T0; the caller rotates names so T0 becomes the
// next iteration's zero top word (that is the division by 2^64). No carry leaves T6: t < 2p.
#define PP_ADX_ROUND6(BI, T0, T1, T2, T3, T4, T5, T6)                                         \
  "movq " BI ", %%rdx\n\t"                                                                    \
  "xorl %k[z], %k[z]\n\t"                                                                     \
  PP_ADX_MAC("0(%[a])", T0, T1) PP_ADX_MAC("8(%[a])", T1, T2) PP_ADX_MAC("16(%[a])", T2, T3)  \
  PP_ADX_MAC("24(%[a])", T3, T4) PP_ADX_MAC("32(%[a])", T4, T5) PP_ADX_MAC("40(%[a])", T5, T6) \
  "adoxq %[z], " T6 "\n\t"                                                                    \
  "movq " T0 ", %%rdx\n\t"                                                                    \
  "imulq %[inv], %%rdx\n\t"                                                                   \
  "xorl %k[z], %k[z]\n\t"                                                                     \
  PP_ADX_MAC("%[m0]", T0, T1) PP_ADX_MAC("%[m1]", T1, T2) PP_ADX_MAC("%[m2]", T2, T3)         \
  PP_ADX_MAC("%[m3]", T3, T4) PP_ADX_MAC("%[m4]", T4, T5) PP_ADX_MAC("%[m5]", T5, T6)         \
  "adoxq %[z], " T6 "\n\t"

// 6-limb CIOS in asm; requires cpu_has_bmi2_adx(). Cost: 78 mulx. Measured on the 2.6 GHz EPYC dev
// host (g++ 12 -O3, dependent chain): 23 ns vs 37 ns for mont_mul_portable; BM_FpMul 29 vs 39 ns.
template <class P>
inline void mont_mul_adx6(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  static_assert(P::n64 == 6);
  static_assert(P::modulus[5] < 0x7fffffffffffffffull, "no-carry CIOS needs a spare top bit");
  uint64_t t0, t1, t2, t3, t4, t5, t6, lo, hi, z, rdx;
  const uint64_t* ap = a;
  asm("xorl %k[t0], %k[t0]\n\t"
      "xorl %k[t1], %k[t1]\n\t"
      "xorl %k[t2], %k[t2]\n\t"
      "xorl %k[t3], %k[t3]\n\t"
      "xorl %k[t4], %k[t4]\n\t"
      "xorl %k[t5], %k[t5]\n\t"
      "xorl %k[t6], %k[t6]\n\t"
      PP_ADX_ROUND6("0(%[b])", "%[t0]", "%[t1]", "%[t2]", "%[t3]", "%[t4]", "%[t5]", "%[t6]")
      PP_ADX_ROUND6("8(%[b])", "%[t1]", "%[t2]", "%[t3]", "%[t4]", "%[t5]", "%[t6]", "%[t0]")
      PP_ADX_ROUND6("16(%[b])", "%[t2]", "%[t3]", "%[t4]", "%[t5]", "%[t6]", "%[t0]", "%[t1]")
      PP_ADX_ROUND6("24(%[b])", "%[t3]", "%[t4]", "%[t5]", "%[t6]", "%[t0]", "%[t1]", "%[t2]")
      PP_ADX_ROUND6("32(%[b])", "%[t4]", "%[t5]", "%[t6]", "%[t0]", "%[t1]", "%[t2]", "%[t3]")
      PP_ADX_ROUND6("40(%[b])", "%[t5]", "%[t6]", "%[t0]", "%[t1]", "%[t2]", "%[t3]", "%[t4]")
      // Result limbs 0..5 are t6 t0 t1 t2 t3 t4. Subtract p into lo hi z rdx t5 a; keep it unless it borrowed.
      "movq %[t6], %[lo]\n\t"  "subq %[m0], %[lo]\n\t"
      "movq %[t0], %[hi]\n\t"  "sbbq %[m1], %[hi]\n\t"
      "movq %[t1], %[z]\n\t"   "sbbq %[m2], %[z]\n\t"
      "movq %[t2], %%rdx\n\t"  "sbbq %[m3], %%rdx\n\t"
      "movq %[t3], %[t5]\n\t"  "sbbq %[m4], %[t5]\n\t"
      "movq %[t4], %[a]\n\t"   "sbbq %[m5], %[a]\n\t"
      "cmovncq %[lo], %[t6]\n\t"
      "cmovncq %[hi], %[t0]\n\t"
      "cmovncq %[z], %[t1]\n\t"
      "cmovncq %%rdx, %[t2]\n\t"
      "cmovncq %[t5], %[t3]\n\t"
      "cmovncq %[a], %[t4]\n\t"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [t5] "=&r"(t5),
        [t6] "=&r"(t6), [lo] "=&r"(lo), [hi] "=&r"(hi), [z] "=&r"(z), "=&d"(rdx), [a] "+&r"(ap)
      : [b] "r"(b), [m0] "m"(P::modulus[0]), [m1] "m"(P::modulus[1]), [m2] "m"(P::modulus[2]),
        [m3] "m"(P::modulus[3]), [m4] "m"(P::modulus[4]), [m5] "m"(P::modulus[5]), [inv] "m"(P::inv),
        "m"(*reinterpret_cast<const uint64_t(*)[6]>(a)), "m"(*reinterpret_cast<const uint64_t(*)[6]>(b))
      : "cc");
  out[0] = t6;
  out[1] = t0;
  out[2] = t1;
  out[3] = t2;
  out[4] = t3;
  out[5] = t4;
}

// The same CIOS iteration for N = 4 on T0..T4 (T4 = 0 on entry).
#define PP_ADX_ROUND4(BI, T0, T1, T2, T3, T4)                                                 \
  "movq " BI ", %%rdx\n\t"                                                                    \
  "xorl %k[z], %k[z]\n\t"                                                                     \
  PP_ADX_MAC("0(%[a])", T0, T1) PP_ADX_MAC("8(%[a])", T1, T2) PP_ADX_MAC("16(%[a])", T2, T3)  \
  PP_ADX_MAC("24(%[a])", T3, T4)                                                              \
  "adoxq %[z], " T4 "\n\t"                                                                    \
  "movq " T0 ", %%rdx\n\t"                                                                    \
  "imulq %[inv], %%rdx\n\t"                                                                   \
  "xorl %k[z], %k[z]\n\t"                                                                     \
  PP_ADX_MAC("%[m0]", T0, T1) PP_ADX_MAC("%[m1]", T1, T2) PP_ADX_MAC("%[m2]", T2, T3)         \
  PP_ADX_MAC("%[m3]", T3, T4)                                                                 \
  "adoxq %[z], " T4 "\n\t"

// 4-limb CIOS in asm (the scalar field r: NTT butterflies, scalar conversions); requires
// cpu_has_bmi2_adx(). Cost: 32 mulx + 4 imul. Measured on the 2.6 GHz EPYC dev host (g++ 12 -O3,
// loaded 2-core VM, thread CPU time of a dependent chain): 13.2 ns vs 17.8 ns for mont_mul_portable;
// BM_Ntt/16 56 -> 46.5 ms.
template <class P>
inline void mont_mul_adx4(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  static_assert(P::n64 == 4);
  static_assert(P::modulus[3] < 0x7fffffffffffffffull, "no-carry CIOS needs a spare top bit");
  uint64_t t0, t1, t2, t3, t4, lo, hi, z, rdx;
  const uint64_t* ap = a;
  asm("xorl %k[t0], %k[t0]\n\t"
      "xorl %k[t1], %k[t1]\n\t"
      "xorl %k[t2], %k[t2]\n\t"
      "xorl %k[t3], %k[t3]\n\t"
      "xorl %k[t4], %k[t4]\n\t"
      PP_ADX_ROUND4("0(%[b])", "%[t0]", "%[t1]", "%[t2]", "%[t3]", "%[t4]")
      PP_ADX_ROUND4("8(%[b])", "%[t1]", "%[t2]", "%[t3]", "%[t4]", "%[t0]")
      PP_ADX_ROUND4("16(%[b])", "%[t2]", "%[t3]", "%[t4]", "%[t0]", "%[t1]")
      PP_ADX_ROUND4("24(%[b])", "%[t3]", "%[t4]", "%[t0]", "%[t1]", "%[t2]")
      // Result limbs 0..3 are t4 t0 t1 t2. Subtract p into lo hi z a; keep it unless it borrowed.
      "movq %[t4], %[lo]\n\t"  "subq %[m0], %[lo]\n\t"
      "movq %[t0], %[hi]\n\t"  "sbbq %[m1], %[hi]\n\t"
      "movq %[t1], %[z]\n\t"   "sbbq %[m2], %[z]\n\t"
      "movq %[t2], %[a]\n\t"   "sbbq %[m3], %[a]\n\t"
      "cmovncq %[lo], %[t4]\n\t"
      "cmovncq %[hi], %[t0]\n\t"
      "cmovncq %[z], %[t1]\n\t"
      "cmovncq %[a], %[t2]\n\t"
      : [t0] "=&r"(t0), [t1] "=&r"(t1), [t2] "=&r"(t2), [t3] "=&r"(t3), [t4] "=&r"(t4), [lo] "=&r"(lo),
        [hi] "=&r"(hi), [z] "=&r"(z), "=&d"(rdx), [a] "+&r"(ap)
      : [b] "r"(b), [m0] "m"(P::modulus[0]), [m1] "m"(P::modulus[1]), [m2] "m"(P::modulus[2]),
        [m3] "m"(P::modulus[3]), [inv] "m"(P::inv),
        "m"(*reinterpret_cast<const uint64_t(*)[4]>(a)), "m"(*reinterpret_cast<const uint64_t(*)[4]>(b))
      : "cc");
  out[0] = t4;
  out[1] = t0;
  out[2] = t1;
  out[3] = t2;
}

#undef PP_ADX_ROUND4
#undef PP_ADX_ROUND6
#undef PP_ADX_MAC

#endif  // PP_MONT_MUL_ADX

// out = a * b / 2^(64N) mod m for a, b < m; out may alias a or b.
template <class P>
PP_HD_INLINE void mont_mul(uint64_t* out, const uint64_t* a, const uint64_t* b) {
#if PP_MONT_MUL_ADX
  if constexpr (P::n64 == 6) {
    if (use_adx) {
      mont_mul_adx6<P>(out, a, b);
      return;
    }
  } else if constexpr (P::n64 == 4) {
    if (use_adx) {
      mont_mul_adx4<P>(out, a, b);
      return;
    }
  }
#endif
  mont_mul_portable<P>(out, a, b);
}

}  // namespace pp::ff::host_path
