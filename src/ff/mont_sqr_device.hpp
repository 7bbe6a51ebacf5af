// Device path of the Montgomery fields: a square inside the CIOS pass of mont_mul_device.hpp. a^2
// needs a_i a_i once and a_i a_j (j > i) twice, so step i adds a_i times a_i, a_{i+1} << 1 and then
// the limbs d_k of d = 2a (2a fits N limbs: the modulus is below w^N / 2) at limbs i .. N - 1 of
// the pass's frame, where a product's step i adds a times b_i at all N. So the rows cost n(n+1)/2
// SASS multiplies for n 32-bit limbs, 3n(n+1)/2 with the reduction (Fp: 234 against 300), from the
// limbs of a alone (d_k is formed where it is used). A step adds up to 2pw, so the pass needs
// 3p < w^N (sqr_fits: Fp; Fr's square stays a product). tests/ff/device_path_test.cpp runs it on
// the host against GMP and checks every carry.
#pragma once
#include <cstdint>

#include "ff/mont_mul_device.hpp"

namespace pp::ff::device_path {

// The pass's bound: a step's running sum stays below 3p w^2 / (w - 1), which fits the two
// accumulators when 3p < w^N (w - 1) / w; on the top 64-bit limb, 3 (top + 1) <= 2^64 - 2^32.
template <class P>
inline constexpr bool sqr_fits = P::modulus[P::n64 - 1] < (UINT64_MAX - UINT32_MAX) / 3;

}  // namespace pp::ff::device_path

#if PP_DEVICE_PATH
namespace pp::ff::device_path {

// Step i's multiplicand at limb k >= i of the pass's frame: a_i, then a_{i+1} << 1, then d_k.
template <int N>
PP_DEVICE_PATH_FN uint32_t sqr_row_limb(const uint32_t* a, int i, int k) {
  return k == i ? a[i] : k == i + 1 ? a[i + 1] << 1 : (a[k] << 1) | (a[k - 1] >> 31);
}

// mul_step with step i's row of the square, a_i times limbs i .. N - 1 of the frame: below limb i
// the odd accumulator only shifts (carrying), and the even one's chain starts at limb i or i + 1.
template <class P, int N>
PP_DEVICE_PATH_FN void sqr_step(uint32_t* x, uint32_t* y, const uint32_t* a, int i, const limbs32<P>& p) {
  const uint32_t ai = a[i];
  y[0] = add_cc(y[0], x[1]);
PP_UNROLL
  for (int j = 0; j < N - 2; j += 2) {
    if (j + 1 >= i) {
      const uint32_t v = sqr_row_limb<N>(a, i, j + 1);
      x[j] = madc_lo_cc(v, ai, x[j + 2]);
      x[j + 1] = madc_hi_cc(v, ai, x[j + 3]);
    } else {
      x[j] = addc_cc(x[j + 2], 0);
      x[j + 1] = addc_cc(x[j + 3], 0);
    }
  }
  const uint32_t top = sqr_row_limb<N>(a, i, N - 1);
  x[N - 2] = madc_lo_cc(top, ai, 0);
  x[N - 1] = madc_hi(top, ai, 0);
  const int y0 = (i + 1) & ~1;  // the first even limb >= i: the even accumulator's chain
  if (y0 < N) {
PP_UNROLL
    for (int j = y0; j < N; j += 2) {
      const uint32_t v = sqr_row_limb<N>(a, i, j);
      y[j] = j == y0 ? mad_lo_cc(v, ai, y[j]) : madc_lo_cc(v, ai, y[j]);
      y[j + 1] = madc_hi_cc(v, ai, y[j + 1]);
    }
    x[N - 1] = addc(x[N - 1], 0);
  }
  reduce_step<P, N>(y, x, p);
}

// out = a^2 / R mod p; a < p; out may alias a.
template <class P>
PP_DEVICE_PATH_FN void mont_sqr(uint64_t* out, const uint64_t* a) {
  constexpr int N = 2 * P::n64;
  static_assert(sqr_fits<P>, "needs 3 * modulus < 2^(64*n64)");
  constexpr limbs32<P> p = modulus32<P>();
  uint32_t a32[N], x[N], y[N];
  split(a32, a, P::n64);
PP_UNROLL
  for (int j = 0; j < N; j += 2) {
    const uint32_t ve = sqr_row_limb<N>(a32, 0, j), vo = sqr_row_limb<N>(a32, 0, j + 1);
    x[j] = ve * a32[0];
    x[j + 1] = mul_hi(ve, a32[0]);
    y[j] = vo * a32[0];
    y[j + 1] = mul_hi(vo, a32[0]);
  }
  reduce_step<P, N>(x, y, p);
PP_UNROLL
  for (int i = 1; i < N; ++i) {
    if (i & 1) {
      sqr_step<P, N>(x, y, a32, i, p);
    } else {
      sqr_step<P, N>(y, x, a32, i, p);
    }
  }
  finish_cios<P, N>(out, x, y, p);
}

}  // namespace pp::ff::device_path
#endif
