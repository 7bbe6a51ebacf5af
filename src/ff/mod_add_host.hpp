// Modular addition and subtraction on the host (the device has its own in mont_mul_device.hpp).
// Portable: limb chains and a branch-free select. x86-64, N = 4 and 6: the same in inline asm,
// because g++ 12 turns the portable select into SSE shuffles and the borrow into setc/add pairs
// (Fp add 8.1 ns, sub 5.0 ns in a dependent chain on the EPYC dev VM, the asm 2.3 / 2.4 ns:
// bench/ff/field_bench.cpp BM_FpAdd[Portable] / BM_FpSub[Portable], docs/perf/cpu-prove-vs-snarkjs.md,
// "Host add and sub in asm").
// The asm needs nothing beyond x86-64 (adc, sbb, cmov) and few registers (the sanitizer builds keep
// the frame pointer). Both paths are bit-identical (tests/ff/mod_add_host_test.cpp).
#pragma once
#include <cstdint>

#include "ff/hd.hpp"
#include "ff/limbs.hpp"

#if defined(__x86_64__) && !defined(__CUDACC__) && (defined(__GNUC__) || defined(__clang__))
#define PP_MOD_ADD_ASM 1
#else
#define PP_MOD_ADD_ASM 0
#endif

namespace pp::ff::host_path {

// out = a + b mod m for a, b < m (m < 2^(64N-1): the sum has no carry out); out may alias a or b.
template <class P>
PP_HD_INLINE void mod_add_portable(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  constexpr int N = P::n64;
  uint64_t s[N], r[N];
  limbs::add<N>(s, a, b);
  const uint64_t keep_s = 0 - limbs::sub<N>(r, s, P::modulus);
  PP_UNROLL
  for (int i = 0; i < N; ++i) out[i] = (s[i] & keep_s) | (r[i] & ~keep_s);
}

// out = a - b mod m for a, b < m; out may alias a or b.
template <class P>
PP_HD_INLINE void mod_sub_portable(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  constexpr int N = P::n64;
  uint64_t d[N], m[N];
  const uint64_t add_back = 0 - limbs::sub<N>(d, a, b);
  PP_UNROLL
  for (int i = 0; i < N; ++i) m[i] = P::modulus[i] & add_back;
  limbs::add<N>(out, d, m);
}

#if PP_MOD_ADD_ASM

// The limbs stay in registers: 2N + 1 at most (N = 6: 13 of the 14 a frame-pointer build leaves).
// The second set is written only after a and b were read, so it may take their registers.
#define PP_LIMB_OUTPUTS6(X, C) [X##0] C(X##0), [X##1] C(X##1), [X##2] C(X##2), [X##3] C(X##3), \
                               [X##4] C(X##4), [X##5] C(X##5)
#define PP_LIMB_OUTPUTS4(X, C) [X##0] C(X##0), [X##1] C(X##1), [X##2] C(X##2), [X##3] C(X##3)
#define PP_MODULUS_INPUTS4 [m0] "m"(P::modulus[0]), [m1] "m"(P::modulus[1]), \
                           [m2] "m"(P::modulus[2]), [m3] "m"(P::modulus[3])
#define PP_MODULUS_INPUTS6 PP_MODULUS_INPUTS4, [m4] "m"(P::modulus[4]), [m5] "m"(P::modulus[5])
#define PP_ARRAY(N, p) (*reinterpret_cast<const uint64_t(*)[N]>(p))

// s = a + b; t = s - m; s where that borrowed, else t.
template <class P>
inline void mod_add_asm6(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  static_assert(P::n64 == 6);
  uint64_t s0, s1, s2, s3, s4, s5, t0, t1, t2, t3, t4, t5;
  asm("movq 0(%[a]), %[s0]\n\t"  "movq 8(%[a]), %[s1]\n\t"  "movq 16(%[a]), %[s2]\n\t"
      "movq 24(%[a]), %[s3]\n\t" "movq 32(%[a]), %[s4]\n\t" "movq 40(%[a]), %[s5]\n\t"
      "addq 0(%[b]), %[s0]\n\t"  "adcq 8(%[b]), %[s1]\n\t"  "adcq 16(%[b]), %[s2]\n\t"
      "adcq 24(%[b]), %[s3]\n\t" "adcq 32(%[b]), %[s4]\n\t" "adcq 40(%[b]), %[s5]\n\t"
      "movq %[s0], %[t0]\n\t" "movq %[s1], %[t1]\n\t" "movq %[s2], %[t2]\n\t"
      "movq %[s3], %[t3]\n\t" "movq %[s4], %[t4]\n\t" "movq %[s5], %[t5]\n\t"
      "subq %[m0], %[t0]\n\t" "sbbq %[m1], %[t1]\n\t" "sbbq %[m2], %[t2]\n\t"
      "sbbq %[m3], %[t3]\n\t" "sbbq %[m4], %[t4]\n\t" "sbbq %[m5], %[t5]\n\t"
      "cmovncq %[t0], %[s0]\n\t" "cmovncq %[t1], %[s1]\n\t" "cmovncq %[t2], %[s2]\n\t"
      "cmovncq %[t3], %[s3]\n\t" "cmovncq %[t4], %[s4]\n\t" "cmovncq %[t5], %[s5]\n\t"
      : PP_LIMB_OUTPUTS6(s, "=&r"), PP_LIMB_OUTPUTS6(t, "=r")
      : [a] "r"(a), [b] "r"(b), "m"(PP_ARRAY(6, a)), "m"(PP_ARRAY(6, b)), PP_MODULUS_INPUTS6
      : "cc");
  out[0] = s0, out[1] = s1, out[2] = s2, out[3] = s3, out[4] = s4, out[5] = s5;
}

// d = a - b and k = 0 - borrow in one asm, d + (m & k) in a second: one asm for both would need
// 13 registers and the array operands' addresses, more than a frame-pointer build has.
template <class P>
inline void mod_sub_asm6(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  static_assert(P::n64 == 6);
  uint64_t d0, d1, d2, d3, d4, d5, k;
  asm("movq 0(%[a]), %[d0]\n\t"  "movq 8(%[a]), %[d1]\n\t"  "movq 16(%[a]), %[d2]\n\t"
      "movq 24(%[a]), %[d3]\n\t" "movq 32(%[a]), %[d4]\n\t" "movq 40(%[a]), %[d5]\n\t"
      "subq 0(%[b]), %[d0]\n\t"  "sbbq 8(%[b]), %[d1]\n\t"  "sbbq 16(%[b]), %[d2]\n\t"
      "sbbq 24(%[b]), %[d3]\n\t" "sbbq 32(%[b]), %[d4]\n\t" "sbbq 40(%[b]), %[d5]\n\t"
      "sbbq %[k], %[k]\n\t"
      : PP_LIMB_OUTPUTS6(d, "=&r"), [k] "=r"(k)
      : [a] "r"(a), [b] "r"(b), "m"(PP_ARRAY(6, a)), "m"(PP_ARRAY(6, b))
      : "cc");
  const uint64_t t0 = P::modulus[0] & k, t1 = P::modulus[1] & k, t2 = P::modulus[2] & k,
                 t3 = P::modulus[3] & k, t4 = P::modulus[4] & k, t5 = P::modulus[5] & k;
  asm("addq %[t0], %[d0]\n\t" "adcq %[t1], %[d1]\n\t" "adcq %[t2], %[d2]\n\t"
      "adcq %[t3], %[d3]\n\t" "adcq %[t4], %[d4]\n\t" "adcq %[t5], %[d5]\n\t"
      : PP_LIMB_OUTPUTS6(d, "+r")
      : PP_LIMB_OUTPUTS6(t, "r")
      : "cc");
  out[0] = d0, out[1] = d1, out[2] = d2, out[3] = d3, out[4] = d4, out[5] = d5;
}

template <class P>
inline void mod_add_asm4(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  static_assert(P::n64 == 4);
  uint64_t s0, s1, s2, s3, t0, t1, t2, t3;
  asm("movq 0(%[a]), %[s0]\n\t"  "movq 8(%[a]), %[s1]\n\t"  "movq 16(%[a]), %[s2]\n\t"
      "movq 24(%[a]), %[s3]\n\t"
      "addq 0(%[b]), %[s0]\n\t"  "adcq 8(%[b]), %[s1]\n\t"  "adcq 16(%[b]), %[s2]\n\t"
      "adcq 24(%[b]), %[s3]\n\t"
      "movq %[s0], %[t0]\n\t" "movq %[s1], %[t1]\n\t" "movq %[s2], %[t2]\n\t"
      "movq %[s3], %[t3]\n\t"
      "subq %[m0], %[t0]\n\t" "sbbq %[m1], %[t1]\n\t" "sbbq %[m2], %[t2]\n\t"
      "sbbq %[m3], %[t3]\n\t"
      "cmovncq %[t0], %[s0]\n\t" "cmovncq %[t1], %[s1]\n\t" "cmovncq %[t2], %[s2]\n\t"
      "cmovncq %[t3], %[s3]\n\t"
      : PP_LIMB_OUTPUTS4(s, "=&r"), PP_LIMB_OUTPUTS4(t, "=r")
      : [a] "r"(a), [b] "r"(b), "m"(PP_ARRAY(4, a)), "m"(PP_ARRAY(4, b)), PP_MODULUS_INPUTS4
      : "cc");
  out[0] = s0, out[1] = s1, out[2] = s2, out[3] = s3;
}

template <class P>
inline void mod_sub_asm4(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  static_assert(P::n64 == 4);
  uint64_t d0, d1, d2, d3, k;
  asm("movq 0(%[a]), %[d0]\n\t"  "movq 8(%[a]), %[d1]\n\t"  "movq 16(%[a]), %[d2]\n\t"
      "movq 24(%[a]), %[d3]\n\t"
      "subq 0(%[b]), %[d0]\n\t"  "sbbq 8(%[b]), %[d1]\n\t"  "sbbq 16(%[b]), %[d2]\n\t"
      "sbbq 24(%[b]), %[d3]\n\t"
      "sbbq %[k], %[k]\n\t"
      : PP_LIMB_OUTPUTS4(d, "=&r"), [k] "=r"(k)
      : [a] "r"(a), [b] "r"(b), "m"(PP_ARRAY(4, a)), "m"(PP_ARRAY(4, b))
      : "cc");
  const uint64_t t0 = P::modulus[0] & k, t1 = P::modulus[1] & k, t2 = P::modulus[2] & k,
                 t3 = P::modulus[3] & k;
  asm("addq %[t0], %[d0]\n\t" "adcq %[t1], %[d1]\n\t" "adcq %[t2], %[d2]\n\t"
      "adcq %[t3], %[d3]\n\t"
      : PP_LIMB_OUTPUTS4(d, "+r")
      : PP_LIMB_OUTPUTS4(t, "r")
      : "cc");
  out[0] = d0, out[1] = d1, out[2] = d2, out[3] = d3;
}

#undef PP_ARRAY
#undef PP_MODULUS_INPUTS6
#undef PP_MODULUS_INPUTS4
#undef PP_LIMB_OUTPUTS4
#undef PP_LIMB_OUTPUTS6

#endif  // PP_MOD_ADD_ASM

template <class P>
PP_HD_INLINE void mod_add(uint64_t* out, const uint64_t* a, const uint64_t* b) {
#if PP_MOD_ADD_ASM
  if constexpr (P::n64 == 6) return mod_add_asm6<P>(out, a, b);
  if constexpr (P::n64 == 4) return mod_add_asm4<P>(out, a, b);
#endif
  mod_add_portable<P>(out, a, b);
}

template <class P>
PP_HD_INLINE void mod_sub(uint64_t* out, const uint64_t* a, const uint64_t* b) {
#if PP_MOD_ADD_ASM
  if constexpr (P::n64 == 6) return mod_sub_asm6<P>(out, a, b);
  if constexpr (P::n64 == 4) return mod_sub_asm4<P>(out, a, b);
#endif
  mod_sub_portable<P>(out, a, b);
}

}  // namespace pp::ff::host_path
