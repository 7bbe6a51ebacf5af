// Device path of the Montgomery fields: a sum of K products in one CIOS pass. Every step adds the K
// products' rows and one reduction step, so K products cost (K + 1) n^2 + n SASS multiplies for n
// 32-bit limbs instead of K (2n^2 + n) (Fp: 444 for two against 600, 732 for four against 1200).
// Uses: the XYZZ formulas' Y3 = R*(Q - X3) - Y1*PPP (ec/xyzz.hpp) and Fp2 products (fp2.hpp). Same
// limb layout and PTX primitives as mont_mul_device.hpp; tests/ff/device_path_test.cpp runs it on
// the host and checks every carry. Measurements: docs/perf/msm-h200.md, "Y3 with one reduction" and
// "Fp2 products in one pass, the Fp square".
#pragma once
#include <cstdint>

#include "ff/mont_mul_device.hpp"

namespace pp::ff::device_path {

// The bound of a K-product pass: (K + 1) p (w + 1) < w^(N + 1), so a step's running sum (below
// (K + 1) p (w + 1)) fits the two accumulators, and K p < w^N, so the pass ends below 2p. Checked on
// the top 64-bit limb: (K + 1) (top + 1) <= 2^64 - 2^32 gives (K + 1) p < w^N (w - 1) / w.
template <class P, int K>
inline constexpr bool dot_fits = P::modulus[P::n64 - 1] < (UINT64_MAX - UINT32_MAX) / (K + 1);

}  // namespace pp::ff::device_path

#if PP_DEVICE_PATH
namespace pp::ff::device_path {

// mul_step (mont_mul_device.hpp) with K product rows a[k]*b[k][i] where it has one. The odd-limb
// rows' chains never carry out (the bound); each even-limb row's carry enters x's top limb.
template <class P, int N, int K>
PP_DEVICE_PATH_FN void dot_step(uint32_t* x, uint32_t* y, const uint32_t (&a)[K][N],
                                const uint32_t (&b)[K][N], int i, const limbs32<P>& p) {
  y[0] = add_cc(y[0], x[1]);
  madc_even_rshift2<N>(x, a[0] + 1, b[0][i]);
PP_UNROLL
  for (int k = 1; k < K; ++k) cmad_even<N>(x, a[k] + 1, b[k][i]);
PP_UNROLL
  for (int k = 0; k < K; ++k) {
    cmad_even<N>(y, a[k], b[k][i]);
    x[N - 1] = addc(x[N - 1], 0);
  }
  reduce_step<P, N>(y, x, p);
}

// out = sum over k of a[k]*b[k] / R mod p, the operands as 32-bit limbs below p.
template <class P, int K>
PP_DEVICE_PATH_FN void mont_dot(uint64_t* out, const uint32_t (&a)[K][2 * P::n64],
                                const uint32_t (&b)[K][2 * P::n64]) {
  constexpr int N = 2 * P::n64;
  static_assert(dot_fits<P, K>, "needs (K + 1) * modulus < 2^(64*n64)");
  constexpr limbs32<P> p = modulus32<P>();
  uint32_t x[N], y[N];
  mul_even<N>(y, a[0] + 1, b[0][0]);
PP_UNROLL
  for (int k = 1; k < K; ++k) cmad_even<N>(y, a[k] + 1, b[k][0]);
  mul_even<N>(x, a[0], b[0][0]);
PP_UNROLL
  for (int k = 1; k < K; ++k) {
    cmad_even<N>(x, a[k], b[k][0]);
    y[N - 1] = addc(y[N - 1], 0);
  }
  reduce_step<P, N>(x, y, p);
PP_UNROLL
  for (int i = 1; i < N; ++i) {
    if (i & 1) {
      dot_step<P, N, K>(x, y, a, b, i, p);
    } else {
      dot_step<P, N, K>(y, x, a, b, i, p);
    }
  }
  finish_cios<P, N>(out, x, y, p);
}

// out = p - v for 0 <= v < p, in [1, p]: a subtrahend's factor, so that a*b - c*d = a*b + c*(p - d)
// stays a sum of products.
template <class P>
PP_DEVICE_PATH_FN void negate_into(uint32_t* out, const uint64_t* v) {
  constexpr int N = 2 * P::n64;
  constexpr limbs32<P> p = modulus32<P>();
  split(out, v, P::n64);
  out[0] = sub_cc(p.v[0], out[0]);
PP_UNROLL
  for (int i = 1; i < N - 1; ++i) out[i] = subc_cc(p.v[i], out[i]);
  out[N - 1] = subc(p.v[N - 1], out[N - 1]);
}

// out = sum over k of a[k]*b[k] / R mod p, the product k subtracted where bit k of Negate is set
// (its b[k] enters as p - b[k]); operands below p; out may alias any of them.
template <class P, int K, unsigned Negate>
PP_DEVICE_PATH_FN void mont_signed_dot(uint64_t* out, const uint64_t* const (&a)[K],
                                       const uint64_t* const (&b)[K]) {
  uint32_t f[K][2 * P::n64], g[K][2 * P::n64];
PP_UNROLL
  for (int k = 0; k < K; ++k) {
    split(f[k], a[k], P::n64);
    if ((Negate >> k) & 1) {
      negate_into<P>(g[k], b[k]);
    } else {
      split(g[k], b[k], P::n64);
    }
  }
  mont_dot<P, K>(out, f, g);
}

}  // namespace pp::ff::device_path
#endif
