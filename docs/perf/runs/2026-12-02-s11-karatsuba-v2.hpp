// s11 experiment (not part of the build; docs/perf/msm-h200.md, session 11), measured slower than
// the CIOS product in src/ff/mont_mul_device.hpp. v2: Fp Montgomery product as one-level Karatsuba with every multiply-add chain writing
// even-aligned limb pairs (ptxas fuses each lo/hi pair into one IMAD.WIDE into an aligned register
// pair; v1's chains at odd offsets cost a move per pair), then a reduce-only CIOS on the low half
// whose shift carries are deferred, + the high half.
#pragma once
#include <cstdint>

#ifndef KHD
#define KHD inline
#endif

namespace kara2 {

// a[0..6) * b[0..6) -> out[0..12). Row i: products a_j b_i with i + j even go to e (pairs at
// i + j), the others to d (d[k] has weight w^(k+1): pairs at i + j - 1); every chain starts at an
// even index and its carry goes to the limb after it, which holds at most 1 (no ripple).
template <class Ops>
KHD void mul6(Ops& o, uint32_t* out, const uint32_t* a, const uint32_t* b) {
  uint32_t e[13], d[12];
#pragma unroll
  for (int k = 0; k < 13; ++k) e[k] = 0;
#pragma unroll
  for (int k = 0; k < 12; ++k) d[k] = 0;
#pragma unroll
  for (int i = 0; i < 6; ++i) {
    const int es = (i & 1) ? i + 1 : i;  // e's chain start; its products use j = es - i, es - i + 2, ...
    const int ds = (i & 1) ? i - 1 : i;  // d's chain start; j = ds - i + 1, ...
    const int ej = es - i, dj = ds - i + 1;
    e[es] = o.mad_lo_cc(a[ej], b[i], e[es]);
    e[es + 1] = o.madc_hi_cc(a[ej], b[i], e[es + 1]);
#pragma unroll
    for (int k = 2; k < 6; k += 2) {
      e[es + k] = o.madc_lo_cc(a[ej + k], b[i], e[es + k]);
      e[es + k + 1] = o.madc_hi_cc(a[ej + k], b[i], e[es + k + 1]);
    }
    e[es + 6] = o.addc(e[es + 6], 0);
    d[ds] = o.mad_lo_cc(a[dj], b[i], d[ds]);
    d[ds + 1] = o.madc_hi_cc(a[dj], b[i], d[ds + 1]);
#pragma unroll
    for (int k = 2; k < 6; k += 2) {
      d[ds + k] = o.madc_lo_cc(a[dj + k], b[i], d[ds + k]);
      d[ds + k + 1] = o.madc_hi_cc(a[dj + k], b[i], d[ds + k + 1]);
    }
    if (ds + 6 < 12) d[ds + 6] = o.addc(d[ds + 6], 0);
  }
  // out = e + d w (e[12] and d[11] are 0: the product is below w^12)
  out[0] = e[0];
  out[1] = o.add_cc(e[1], d[0]);
#pragma unroll
  for (int k = 2; k < 11; ++k) out[k] = o.addc_cc(e[k], d[k - 1]);
  out[11] = o.addc(e[11], d[10]);
}

// a[0..6)^2 -> out[0..12): the 15 products a_i a_j (i < j) once, with the parity split of mul6 (no
// chain at an odd offset), doubled, then the squares a_i^2 at even positions in one chain.
template <class Ops>
KHD void sqr6(Ops& o, uint32_t* out, const uint32_t* a) {
  uint32_t e[12], d[12];
#pragma unroll
  for (int k = 0; k < 12; ++k) e[k] = d[k] = 0;
  // row 0: e gets j = 2, 4 at 2..5; d gets j = 1, 3, 5 at d[0..5]
  e[2] = a[0] * a[2];
  e[3] = o.umulhi(a[0], a[2]);
  e[4] = a[0] * a[4];
  e[5] = o.umulhi(a[0], a[4]);
  d[0] = a[0] * a[1];
  d[1] = o.umulhi(a[0], a[1]);
  d[2] = a[0] * a[3];
  d[3] = o.umulhi(a[0], a[3]);
  d[4] = a[0] * a[5];
  d[5] = o.umulhi(a[0], a[5]);
  // row 1: e gets j = 3, 5 at e[4..7]; d gets j = 2, 4 at d[2..5]
  e[4] = o.mad_lo_cc(a[1], a[3], e[4]);
  e[5] = o.madc_hi_cc(a[1], a[3], e[5]);
  e[6] = o.madc_lo_cc(a[1], a[5], e[6]);
  e[7] = o.madc_hi_cc(a[1], a[5], e[7]);
  e[8] = o.addc(e[8], 0);
  d[2] = o.mad_lo_cc(a[1], a[2], d[2]);
  d[3] = o.madc_hi_cc(a[1], a[2], d[3]);
  d[4] = o.madc_lo_cc(a[1], a[4], d[4]);
  d[5] = o.madc_hi_cc(a[1], a[4], d[5]);
  d[6] = o.addc(d[6], 0);
  // row 2: e gets j = 4 at e[6..7]; d gets j = 3, 5 at d[4..7]
  e[6] = o.mad_lo_cc(a[2], a[4], e[6]);
  e[7] = o.madc_hi_cc(a[2], a[4], e[7]);
  e[8] = o.addc(e[8], 0);
  d[4] = o.mad_lo_cc(a[2], a[3], d[4]);
  d[5] = o.madc_hi_cc(a[2], a[3], d[5]);
  d[6] = o.madc_lo_cc(a[2], a[5], d[6]);
  d[7] = o.madc_hi_cc(a[2], a[5], d[7]);
  d[8] = o.addc(d[8], 0);
  // row 3: e gets j = 5 at e[8..9]; d gets j = 4 at d[6..7]
  e[8] = o.mad_lo_cc(a[3], a[5], e[8]);
  e[9] = o.madc_hi_cc(a[3], a[5], e[9]);
  e[10] = o.addc(e[10], 0);
  d[6] = o.mad_lo_cc(a[3], a[4], d[6]);
  d[7] = o.madc_hi_cc(a[3], a[4], d[7]);
  d[8] = o.addc(d[8], 0);
  // row 4: d gets j = 5 at d[8..9]
  d[8] = o.mad_lo_cc(a[4], a[5], d[8]);
  d[9] = o.madc_hi_cc(a[4], a[5], d[9]);
  d[10] = o.addc(d[10], 0);
  // D = e + d w (below w^11), out = 2 D + sum a_i^2 w^(2i)
  uint32_t s[12];
  s[0] = e[0];
  s[1] = o.add_cc(e[1], d[0]);
#pragma unroll
  for (int k = 2; k < 12; ++k) s[k] = o.addc_cc(e[k], d[k - 1]);
  out[0] = o.add_cc(s[0], s[0]);
#pragma unroll
  for (int k = 1; k < 12; ++k) out[k] = o.addc_cc(s[k], s[k]);
  out[0] = o.mad_lo_cc(a[0], a[0], out[0]);
  out[1] = o.madc_hi_cc(a[0], a[0], out[1]);
#pragma unroll
  for (int k = 1; k < 6; ++k) {
    out[2 * k] = o.madc_lo_cc(a[k], a[k], out[2 * k]);
    out[2 * k + 1] = o.madc_hi_cc(a[k], a[k], out[2 * k + 1]);
  }
}

// r = a b / R mod p (a, b < p, 12 limbs).
template <class Ops, bool Square>
KHD void mont_core12(Ops& o, uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* p, uint32_t inv) {
  uint32_t t[24];
  if constexpr (Square) {
    sqr6(o, t, a);
    sqr6(o, t + 12, a + 6);
  } else {
    mul6(o, t, a, b);            // z0
    mul6(o, t + 12, a + 6, b + 6);  // z2
  }
  uint32_t sa[6], sb[6];
  sa[0] = o.add_cc(a[0], a[6]);
#pragma unroll
  for (int k = 1; k < 6; ++k) sa[k] = o.addc_cc(a[k], a[k + 6]);
  const uint32_t ca = o.addc(0, 0);
  uint32_t cb;
  if constexpr (Square) {
#pragma unroll
    for (int k = 0; k < 6; ++k) sb[k] = sa[k];
    cb = ca;
  } else {
    sb[0] = o.add_cc(b[0], b[6]);
#pragma unroll
    for (int k = 1; k < 6; ++k) sb[k] = o.addc_cc(b[k], b[k + 6]);
    cb = o.addc(0, 0);
  }
  uint32_t zm[13];
  if constexpr (Square) sqr6(o, zm, sa);
  else mul6(o, zm, sa, sb);
  const uint32_t ma = 0u - ca, mb = 0u - cb;
  zm[6] = o.add_cc(zm[6], sb[0] & ma);
#pragma unroll
  for (int k = 1; k < 6; ++k) zm[6 + k] = o.addc_cc(zm[6 + k], sb[k] & ma);
  zm[12] = o.addc(ca & cb, 0);
  zm[6] = o.add_cc(zm[6], sa[0] & mb);
#pragma unroll
  for (int k = 1; k < 6; ++k) zm[6 + k] = o.addc_cc(zm[6 + k], sa[k] & mb);
  zm[12] = o.addc(zm[12], 0);
  zm[0] = o.sub_cc(zm[0], t[0]);
#pragma unroll
  for (int k = 1; k < 12; ++k) zm[k] = o.subc_cc(zm[k], t[k]);
  zm[12] = o.subc(zm[12], 0);
  zm[0] = o.sub_cc(zm[0], t[12]);
#pragma unroll
  for (int k = 1; k < 12; ++k) zm[k] = o.subc_cc(zm[k], t[12 + k]);
  zm[12] = o.subc(zm[12], 0);
  t[6] = o.add_cc(t[6], zm[0]);
#pragma unroll
  for (int k = 1; k < 13; ++k) t[6 + k] = o.addc_cc(t[6 + k], zm[k]);
#pragma unroll
  for (int k = 19; k < 23; ++k) t[k] = o.addc_cc(t[k], 0);
  t[23] = o.addc(t[23], 0);

  // REDC(t[0..12)): CIOS without products. T = x + y w; step: m = x0 inv, x += even(m p), y +=
  // odd(m p) (x's top carry into y's top limb); then T/w = (y + x1) + (x >> 2 limbs) w, the carry of
  // y0 + x1 (weight w) deferred to the next step's low limb (weight 1 there).
  uint32_t x[12], y[12];
#pragma unroll
  for (int k = 0; k < 12; ++k) { x[k] = t[k]; y[k] = 0; }
  uint32_t pend = 0;
#pragma unroll
  for (int i = 0; i < 12; ++i) {
    uint32_t* lo = (i & 1) ? y : x;  // the accumulator holding limb 0
    uint32_t* hi = (i & 1) ? x : y;
    const uint32_t m = lo[0] * inv;
    lo[0] = o.mad_lo_cc(p[0], m, lo[0]);
    lo[1] = o.madc_hi_cc(p[0], m, lo[1]);
#pragma unroll
    for (int j = 2; j < 12; j += 2) {
      lo[j] = o.madc_lo_cc(p[j], m, lo[j]);
      lo[j + 1] = o.madc_hi_cc(p[j], m, lo[j + 1]);
    }
    hi[11] = o.addc(hi[11], 0);
    hi[0] = o.mad_lo_cc(p[1], m, hi[0]);
    hi[1] = o.madc_hi_cc(p[1], m, hi[1]);
#pragma unroll
    for (int j = 2; j < 12; j += 2) {
      hi[j] = o.madc_lo_cc(p[j + 1], m, hi[j]);
      hi[j + 1] = o.madc_hi_cc(p[j + 1], m, hi[j + 1]);
    }
    // T/w: hi + lo[1] + pend at limb 0, lo >> 2 at weight w (lo[0] is 0 now).
    hi[0] = o.add_cc(hi[0], lo[1]);
    const uint32_t c1 = o.addc(0, 0);
    hi[0] = o.add_cc(hi[0], pend);
    pend = o.addc(c1, 0);  // weight w in this frame: limb 0 of the next one
#pragma unroll
    for (int k = 0; k < 10; ++k) lo[k] = lo[k + 2];
    lo[10] = lo[11] = 0;
  }
  // After 12 steps (even count) T = x + y w with the last step's hi = y holding limb 0... the last
  // step i = 11 used lo = y, hi = x: T = x + y_shifted w, pend at weight w.
  // result = x + y w + pend w + t[12..24)
  uint32_t u[12];
  u[0] = o.add_cc(x[0], t[12]);
#pragma unroll
  for (int k = 1; k < 12; ++k) u[k] = o.addc_cc(x[k], t[12 + k]);
  u[1] = o.add_cc(u[1], y[0]);
#pragma unroll
  for (int k = 2; k < 12; ++k) u[k] = o.addc_cc(u[k], y[k - 1]);
  u[1] = o.add_cc(u[1], pend);
#pragma unroll
  for (int k = 2; k < 12; ++k) u[k] = o.addc_cc(u[k], 0);
  uint32_t s[12];
  s[0] = o.sub_cc(u[0], p[0]);
#pragma unroll
  for (int k = 1; k < 12; ++k) s[k] = o.subc_cc(u[k], p[k]);
  const uint32_t keep = o.subc(0, 0);
#pragma unroll
  for (int k = 0; k < 12; ++k) r[k] = (u[k] & keep) | (s[k] & ~keep);
}

template <class Ops>
KHD void mont_mul12(Ops& o, uint32_t* r, const uint32_t* a, const uint32_t* b, const uint32_t* p, uint32_t inv) {
  mont_core12<Ops, false>(o, r, a, b, p, inv);
}
template <class Ops>
KHD void mont_sqr12(Ops& o, uint32_t* r, const uint32_t* a, const uint32_t* p, uint32_t inv) {
  mont_core12<Ops, true>(o, r, a, a, p, inv);
}

}  // namespace kara2
