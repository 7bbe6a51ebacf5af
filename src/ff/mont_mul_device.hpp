// Device path of the Montgomery fields: 32-bit limbs with PTX carry chains (where it compiles:
// ff/ptx_carry_chain.hpp). mont_field<P> keeps its 64-bit limbs in memory; here they are split into
// 2*n64 32-bit limbs in registers. Multiplication is CIOS with the products split by limb parity
// (even/odd accumulators), so every multiply-add sits in one unbroken mad.lo.cc / madc.hi.cc chain;
// ptxas fuses each lo/hi pair into one IMAD.WIDE.U32(.X): 2n^2 + n SASS multiplies for n 32-bit
// limbs, output fully reduced. H200: 9.6 SM-clk per Fp mul (docs/perf/foundation-h200.md), 4.46
// per Fr mul (ntt-h200.md).
#pragma once
#include <cstdint>

#include "ff/hd.hpp"
#include "ff/ptx_carry_chain.hpp"

#if defined(__CUDACC__)
namespace pp::ff::device_consts {
// 2^32 - 1 where ptxas cannot see it (a constant-bank operand): see reduction_factor. Declared in
// both of nvcc's passes, since the host pass registers every __constant__.
static __constant__ uint32_t minus_one = 0xffffffffu;
}  // namespace pp::ff::device_consts
#endif

#if PP_DEVICE_PATH
namespace pp::ff::device_path {

// The modulus as 32-bit limbs; a local constexpr array indexed by unrolled loop counters, so every
// use folds into an immediate operand (no constant-bank or local-memory loads).
template <class P>
struct limbs32 {
  uint32_t v[2 * P::n64];
};
template <class P>
PP_DEVICE_PATH_FN constexpr limbs32<P> modulus32() {
  limbs32<P> m{};
  for (int i = 0; i < 2 * P::n64; ++i) m.v[i] = uint32_t(P::modulus[i >> 1] >> (32 * (i & 1)));
  return m;
}

PP_DEVICE_PATH_FN void split(uint32_t* out, const uint64_t* in, int n64) {
PP_UNROLL
  for (int i = 0; i < n64; ++i) {
    out[2 * i] = uint32_t(in[i]);
    out[2 * i + 1] = uint32_t(in[i] >> 32);
  }
}
PP_DEVICE_PATH_FN void join(uint64_t* out, const uint32_t* in, int n64) {
PP_UNROLL
  for (int i = 0; i < n64; ++i) out[i] = uint64_t(in[2 * i]) | (uint64_t(in[2 * i + 1]) << 32);
}

// acc = sum over even j of a[j]*bi*w^j (w = 2^32): lo/hi halves land on disjoint limbs, no carries.
template <int N>
PP_DEVICE_PATH_FN void mul_even(uint32_t* acc, const uint32_t* a, uint32_t bi) {
PP_UNROLL
  for (int j = 0; j < N; j += 2) {
    acc[j] = a[j] * bi;
    acc[j + 1] = mul_hi(a[j], bi);
  }
}

// acc += sum over even j of a[j]*bi*w^j; one chain, leaves the carry out of acc[N-1] in CC.CF.
template <int N>
PP_DEVICE_PATH_FN void cmad_even(uint32_t* acc, const uint32_t* a, uint32_t bi) {
  acc[0] = mad_lo_cc(a[0], bi, acc[0]);
  acc[1] = madc_hi_cc(a[0], bi, acc[1]);
PP_UNROLL
  for (int j = 2; j < N; j += 2) {
    acc[j] = madc_lo_cc(a[j], bi, acc[j]);
    acc[j + 1] = madc_hi_cc(a[j], bi, acc[j + 1]);
  }
}

// acc = (acc >> 2 limbs) + sum over even j of a[j]*bi*w^j + CC.CF (carry in). The caller's bound
// guarantees no carry out of acc[N-1].
template <int N>
PP_DEVICE_PATH_FN void madc_even_rshift2(uint32_t* acc, const uint32_t* a, uint32_t bi) {
PP_UNROLL
  for (int j = 0; j < N - 2; j += 2) {
    acc[j] = madc_lo_cc(a[j], bi, acc[j + 2]);
    acc[j + 1] = madc_hi_cc(a[j], bi, acc[j + 3]);
  }
  acc[N - 2] = madc_lo_cc(a[N - 2], bi, 0);
  acc[N - 1] = madc_hi(a[N - 2], bi, 0);
}

// The reduction step's factor m = x0 * (-1/p mod w). For Fr, -1/p = w - 1: with the immediate,
// ptxas knows m = -x0 and emits every m*p[j] pair of the step's chains as IMAD.X + IMAD.HI.X, 48
// unfused pairs per Fr product; with the factor read from the constant bank m is opaque and every
// pair fuses into one IMAD.WIDE.U32.X (SASS of an Fr product 304 -> 232 instructions, 4.69 -> 4.46
// SM-clk in arith_bench, the 64-register NTT kernels' spills cut by a quarter, NTT 2^27 38.5 -> 35.3
// ms: docs/perf/ntt-h200.md, "Fr reduction fused"). Fp's factor is an ordinary immediate multiply
// already.
template <class P>
PP_DEVICE_PATH_FN uint32_t reduction_factor(uint32_t x0) {
  if constexpr (P::inv32 == 0xffffffffu) {
    return x0 * device_consts::minus_one;
  } else {
    return x0 * P::inv32;
  }
}

// One Montgomery reduction step on T = x + y*w: m = x[0]*inv, T += m*p, after which x[0] == 0.
// x's chain carry (weight w^N) goes into y[N-1], which has weight w^N too.
template <class P, int N>
PP_DEVICE_PATH_FN void reduce_step(uint32_t* x, uint32_t* y, const limbs32<P>& p) {
  const uint32_t m = reduction_factor<P>(x[0]);
  cmad_even<N>(x, p.v, m);
  y[N - 1] = addc(y[N - 1], 0);
  cmad_even<N>(y, p.v + 1, m);
}

// On entry T = x + y*w with x[0] == 0. Computes T = T/w + a*bi, then one reduction step; on exit
// T = y + x*w with y[0] == 0 (the accumulators swap roles).
//   T/w = y + x[1] + (x >> 2 limbs)*w, so y takes x[1] (its carry enters x's chain, weight w),
//   x shifts down two limbs while taking the odd-limb products, y takes the even-limb products.
template <class P, int N>
PP_DEVICE_PATH_FN void mul_step(uint32_t* x, uint32_t* y, const uint32_t* a, uint32_t bi,
                                const limbs32<P>& p) {
  y[0] = add_cc(y[0], x[1]);
  madc_even_rshift2<N>(x, a + 1, bi);
  cmad_even<N>(y, a, bi);
  x[N - 1] = addc(x[N - 1], 0);
  reduce_step<P, N>(y, x, p);
}

// out = t - p if t >= p else t (t < 2p).
template <int N>
PP_DEVICE_PATH_FN void final_subtract(uint32_t* out, const uint32_t* t, const uint32_t* p) {
  uint32_t r[N];
  r[0] = sub_cc(t[0], p[0]);
PP_UNROLL
  for (int i = 1; i < N; ++i) r[i] = subc_cc(t[i], p[i]);
  const uint32_t keep_t = subc(0, 0);  // all ones when t < p
PP_UNROLL
  for (int i = 0; i < N; ++i) out[i] = (t[i] & keep_t) | (r[i] & ~keep_t);
}

// The end of a CIOS pass of N steps (N even): they leave T = y + x*w with y[0] == 0 and T < 2p, so
// the result is T/w = x + (y >> 1 limb) less p when it reaches p.
template <class P, int N>
PP_DEVICE_PATH_FN void finish_cios(uint64_t* out, uint32_t* x, const uint32_t* y, const limbs32<P>& p) {
  x[0] = add_cc(x[0], y[1]);
PP_UNROLL
  for (int i = 1; i < N - 1; ++i) x[i] = addc_cc(x[i], y[i + 1]);
  x[N - 1] = addc(x[N - 1], 0);
  uint32_t r[N];
  final_subtract<N>(r, x, p.v);
  join(out, r, P::n64);
}

// Montgomery product out = a*b/R mod p, R = 2^(64*n64); a, b < p; out may alias a or b.
// Bounds (a, b < p < w^N/2): CIOS keeps T < 2p between steps and T < 2pw < w^(N+1) inside one, so
// the odd accumulator (weight w) never overflows N limbs and the even one carries at most one bit
// per chain, which is added to the odd accumulator's top limb.
template <class P>
PP_DEVICE_PATH_FN void mont_mul(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  constexpr int N = 2 * P::n64;
  static_assert(N % 2 == 0 && N >= 4);
  static_assert((P::modulus[P::n64 - 1] >> 63) == 0, "needs modulus < 2^(64*n64 - 1)");
  constexpr limbs32<P> p = modulus32<P>();
  uint32_t a32[N], b32[N], x[N], y[N];
  split(a32, a, P::n64);
  split(b32, b, P::n64);

  mul_even<N>(x, a32, b32[0]);
  mul_even<N>(y, a32 + 1, b32[0]);
  reduce_step<P, N>(x, y, p);
PP_UNROLL
  for (int i = 1; i < N; ++i) {
    if (i & 1) {
      mul_step<P, N>(x, y, a32, b32[i], p);
    } else {
      mul_step<P, N>(y, x, a32, b32[i], p);
    }
  }
  finish_cios<P, N>(out, x, y, p);
}

// out = a + b mod p (a, b < p < 2^(64*n64 - 1), so a + b fits the limbs).
template <class P>
PP_DEVICE_PATH_FN void mod_add(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  constexpr int N = 2 * P::n64;
  constexpr limbs32<P> p = modulus32<P>();
  uint32_t a32[N], b32[N], s[N], r[N];
  split(a32, a, P::n64);
  split(b32, b, P::n64);
  s[0] = add_cc(a32[0], b32[0]);
PP_UNROLL
  for (int i = 1; i < N - 1; ++i) s[i] = addc_cc(a32[i], b32[i]);
  s[N - 1] = addc(a32[N - 1], b32[N - 1]);
  final_subtract<N>(r, s, p.v);
  join(out, r, P::n64);
}

// out = a - b mod p: subtract, then add p masked by the borrow.
template <class P>
PP_DEVICE_PATH_FN void mod_sub(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  constexpr int N = 2 * P::n64;
  constexpr limbs32<P> p = modulus32<P>();
  uint32_t a32[N], b32[N], d[N];
  split(a32, a, P::n64);
  split(b32, b, P::n64);
  d[0] = sub_cc(a32[0], b32[0]);
PP_UNROLL
  for (int i = 1; i < N; ++i) d[i] = subc_cc(a32[i], b32[i]);
  const uint32_t borrow = subc(0, 0);  // all ones when a < b
  d[0] = add_cc(d[0], p.v[0] & borrow);
PP_UNROLL
  for (int i = 1; i < N - 1; ++i) d[i] = addc_cc(d[i], p.v[i] & borrow);
  d[N - 1] = addc(d[N - 1], p.v[N - 1] & borrow);
  join(out, d, P::n64);
}

}  // namespace pp::ff::device_path
#endif
