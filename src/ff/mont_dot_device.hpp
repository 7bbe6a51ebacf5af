// Device path of the Montgomery fields: a*b - c*d in one CIOS pass, the Y3 = R*(Q - X3) - Y1*PPP
// of the XYZZ formulas (ec/xyzz.hpp): both products' rows share one reduction, 3n^2 + n SASS
// multiplies for n 32-bit limbs (444 for Fp) against two products' 2 * (2n^2 + n) (600). Same limb
// layout and PTX primitives as mont_mul_device.hpp; tests/ff/device_path_test.cpp runs it on the host
// and checks every carry. Measurements: docs/perf/msm-h200.md (session 16).
#pragma once
#include <cstdint>

#include "ff/mont_mul_device.hpp"

namespace pp::ff::device_path {

// mont_mul_sub's bound: the modulus below 2^(64 n64 - 2), so the pass ends below 2p (Fp, not Fr).
template <class P>
inline constexpr bool mul_sub_fits = (P::modulus[P::n64 - 1] >> 62) == 0;

}  // namespace pp::ff::device_path

#if PP_DEVICE_PATH
namespace pp::ff::device_path {

// mul_step (mont_mul_device.hpp) with a second product row c*di added beside a*bi.
template <class P, int N>
PP_DEVICE_PATH_FN void dot_step(uint32_t* x, uint32_t* y, const uint32_t* a, uint32_t bi,
                                const uint32_t* c, uint32_t di, const limbs32<P>& p) {
  y[0] = add_cc(y[0], x[1]);
  madc_even_rshift2<N>(x, a + 1, bi);
  cmad_even<N>(x, c + 1, di);
  cmad_even<N>(y, a, bi);
  x[N - 1] = addc(x[N - 1], 0);
  cmad_even<N>(y, c, di);
  x[N - 1] = addc(x[N - 1], 0);
  reduce_step<P, N>(y, x, p);
}

// out = (a*b - c*d) / R mod p; a, b, c, d < p; out may alias any of them. Computed as
// a*b + c*(p - d) in one CIOS pass: each step adds both products' rows and one reduction step
// (3n^2 + n multiplies against two products' 2 * (2n^2 + n)). Bounds: with p < w^N / 4 the
// running sum stays below 3p w and the last one below 2p, so one final subtraction.
template <class P>
PP_DEVICE_PATH_FN void mont_mul_sub(uint64_t* out, const uint64_t* a, const uint64_t* b,
                                    const uint64_t* c, const uint64_t* d) {
  constexpr int N = 2 * P::n64;
  static_assert(mul_sub_fits<P>, "needs modulus < 2^(64*n64 - 2)");
  constexpr limbs32<P> p = modulus32<P>();
  uint32_t a32[N], b32[N], c32[N], e32[N], x[N], y[N];
  split(a32, a, P::n64);
  split(b32, b, P::n64);
  split(c32, c, P::n64);
  split(e32, d, P::n64);
  e32[0] = sub_cc(p.v[0], e32[0]);  // e = p - d, in [1, p]
PP_UNROLL
  for (int i = 1; i < N - 1; ++i) e32[i] = subc_cc(p.v[i], e32[i]);
  e32[N - 1] = subc(p.v[N - 1], e32[N - 1]);

  mul_even<N>(y, a32 + 1, b32[0]);
  cmad_even<N>(y, c32 + 1, e32[0]);
  mul_even<N>(x, a32, b32[0]);
  cmad_even<N>(x, c32, e32[0]);
  y[N - 1] = addc(y[N - 1], 0);
  reduce_step<P, N>(x, y, p);
PP_UNROLL
  for (int i = 1; i < N; ++i) {
    if (i & 1) {
      dot_step<P, N>(x, y, a32, b32[i], c32, e32[i], p);
    } else {
      dot_step<P, N>(y, x, a32, b32[i], c32, e32[i], p);
    }
  }
  finish_cios<P, N>(out, x, y, p);
}

}  // namespace pp::ff::device_path
#endif
