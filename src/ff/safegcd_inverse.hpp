// Modular inverse by Bernstein-Yang divsteps ("Fast constant-time gcd computation and modular
// inversion", 2019), in the form of batches of 30 divsteps on 32-bit words with signed 30-bit limbs:
// branch-free and a fixed number of steps, so a warp stays converged. Host and device.
//
// Why not Fermat: a^(p-2) is 380 squarings and ~230 products for Fp (~610 products), the cost that
// keeps batch-affine accumulation out of the device MSM (docs/perf/msm-h200.md, "Batch-affine
// bucket sums (not landed)").
// Here an inversion is ~37 batches of 30 divsteps plus two 13-limb matrix updates per batch.
//
// divstep(delta, f, g) = (1 - delta, g, (g - f) / 2)           if delta > 0 and g is odd,
//                        (1 + delta, f, (g + (g mod 2) f) / 2)  otherwise.
// From delta = 1, f = m (odd), g = x (0 <= x < m), the paper's Theorem 11.2 bounds the steps after
// which g = 0 and f = +-gcd = +-1: floor((49 d + 57) / 17) for bit length d >= 46 (1101 for Fp,
// 738 for Fr). Alongside, d and e track f / x and g / x mod m, so at the end x^-1 = d * sign(f).
#pragma once
#include <cstdint>

#include "ff/hd.hpp"

namespace pp::ff::safegcd {

inline constexpr int batch_steps = 30;
inline constexpr uint32_t limb_mask = (1u << batch_steps) - 1;

// Limbs of a signed 30-bit-limb number holding bits-bit values with a sign and headroom.
constexpr int limb_count(int bits) { return (bits + 2 + batch_steps - 1) / batch_steps; }

// Divsteps that reach g = 0 for every 0 <= x < m of the given bit length (Theorem 11.2).
constexpr int step_bound(int bits) { return (49 * bits + 57) / 17; }

// The transition matrix of 30 divsteps, scaled by 2^30: [f', g'] = [[u, v], [q, r]] [f, g] / 2^30.
// |u| + |v| <= 2^30 and |q| + |r| <= 2^30.
struct matrix {
  int32_t u, v, q, r;
};

// value = sum l[i] 2^(30 i); limbs below the top one in [0, 2^30) after every update, the top one signed.
template <int L>
struct signed30 {
  int32_t l[L];
};

// 30 divsteps on the low 32 bits of f (odd) and g: the new delta, and the matrix in t. Every step:
// if delta > 0 and g is odd, (delta, f, g) becomes (-delta, g, -f) first; then g += f if g is odd;
// then delta += 1, g /= 2, and the f row of the matrix doubles (the division by 2 moves to the end).
PP_HD int32_t divsteps_30(int32_t delta, uint32_t f, uint32_t g, matrix& t) {
  uint32_t u = 1, v = 0, q = 0, r = 1;
  PP_UNROLL
  for (int i = 0; i < batch_steps; ++i) {
    const uint32_t odd = 0u - (g & 1u);
    const uint32_t swap = odd & static_cast<uint32_t>(-delta >> 31);  // delta > 0: -delta < 0
    const uint32_t sf = (f ^ g) & swap;
    const uint32_t su = (u ^ q) & swap;
    const uint32_t sv = (v ^ r) & swap;
    f ^= sf;
    g ^= sf;
    u ^= su;
    q ^= su;
    v ^= sv;
    r ^= sv;
    g = (g ^ swap) - swap;  // negate the row that was swapped in
    q = (q ^ swap) - swap;
    r = (r ^ swap) - swap;
    delta = static_cast<int32_t>((static_cast<uint32_t>(delta) ^ swap) - swap);
    g += f & odd;
    q += u & odd;
    r += v & odd;
    delta += 1;
    g >>= 1;
    u <<= 1;
    v <<= 1;
  }
  t = {static_cast<int32_t>(u), static_cast<int32_t>(v), static_cast<int32_t>(q), static_cast<int32_t>(r)};
  return delta;
}

// [f, g] = t [f, g] / 2^30, exactly (the low 30 bits of both sums are zero by construction).
template <int L>
PP_HD void update_fg(signed30<L>& f, signed30<L>& g, const matrix& t) {
  int64_t cf = int64_t(t.u) * f.l[0] + int64_t(t.v) * g.l[0];
  int64_t cg = int64_t(t.q) * f.l[0] + int64_t(t.r) * g.l[0];
  cf >>= batch_steps;
  cg >>= batch_steps;
  PP_UNROLL
  for (int i = 1; i < L; ++i) {
    cf += int64_t(t.u) * f.l[i] + int64_t(t.v) * g.l[i];
    cg += int64_t(t.q) * f.l[i] + int64_t(t.r) * g.l[i];
    f.l[i - 1] = static_cast<int32_t>(static_cast<uint32_t>(cf) & limb_mask);
    g.l[i - 1] = static_cast<int32_t>(static_cast<uint32_t>(cg) & limb_mask);
    cf >>= batch_steps;
    cg >>= batch_steps;
  }
  f.l[L - 1] = static_cast<int32_t>(cf);
  g.l[L - 1] = static_cast<int32_t>(cg);
}

// [d, e] = t [d, e] / 2^30 mod m, for d, e in (-2m, m) (kept in that range). A multiple of m
// (md, me) is added so that the division by 2^30 is exact; md, me start with u (v) where d (e) is
// negative, which is what keeps the range (the safegcd write-up of libsecp256k1, section 4).
template <int L>
PP_HD void update_de(signed30<L>& d, signed30<L>& e, const matrix& t, const signed30<L>& m, uint32_t m_inv30) {
  const int32_t sd = d.l[L - 1] >> 31, se = e.l[L - 1] >> 31;
  int32_t md = (t.u & sd) + (t.v & se);
  int32_t me = (t.q & sd) + (t.r & se);
  int64_t cd = int64_t(t.u) * d.l[0] + int64_t(t.v) * e.l[0];
  int64_t ce = int64_t(t.q) * d.l[0] + int64_t(t.r) * e.l[0];
  md -= static_cast<int32_t>((m_inv30 * static_cast<uint32_t>(cd) + static_cast<uint32_t>(md)) & limb_mask);
  me -= static_cast<int32_t>((m_inv30 * static_cast<uint32_t>(ce) + static_cast<uint32_t>(me)) & limb_mask);
  cd += int64_t(m.l[0]) * md;
  ce += int64_t(m.l[0]) * me;
  cd >>= batch_steps;
  ce >>= batch_steps;
  PP_UNROLL
  for (int i = 1; i < L; ++i) {
    cd += int64_t(t.u) * d.l[i] + int64_t(t.v) * e.l[i] + int64_t(m.l[i]) * md;
    ce += int64_t(t.q) * d.l[i] + int64_t(t.r) * e.l[i] + int64_t(m.l[i]) * me;
    d.l[i - 1] = static_cast<int32_t>(static_cast<uint32_t>(cd) & limb_mask);
    e.l[i - 1] = static_cast<int32_t>(static_cast<uint32_t>(ce) & limb_mask);
    cd >>= batch_steps;
    ce >>= batch_steps;
  }
  d.l[L - 1] = static_cast<int32_t>(cd);
  e.l[L - 1] = static_cast<int32_t>(ce);
}

// a += m where mask is all ones (a's lower limbs in [0, 2^30) again after the carries).
template <int L>
PP_HD void add_masked(signed30<L>& a, const signed30<L>& m, int32_t mask) {
  int64_t c = 0;
  PP_UNROLL
  for (int i = 0; i < L - 1; ++i) {
    c += int64_t(a.l[i]) + (m.l[i] & mask);
    a.l[i] = static_cast<int32_t>(static_cast<uint32_t>(c) & limb_mask);
    c >>= batch_steps;
  }
  a.l[L - 1] = static_cast<int32_t>(c + a.l[L - 1] + (m.l[L - 1] & mask));
}

// a = -a where mask is all ones.
template <int L>
PP_HD void negate_masked(signed30<L>& a, int32_t mask) {
  int64_t c = 0;
  PP_UNROLL
  for (int i = 0; i < L - 1; ++i) {
    c += int64_t((a.l[i] ^ mask) - mask);
    a.l[i] = static_cast<int32_t>(static_cast<uint32_t>(c) & limb_mask);
    c >>= batch_steps;
  }
  a.l[L - 1] = static_cast<int32_t>(c + ((a.l[L - 1] ^ mask) - mask));
}

// Little-endian 64-bit limbs (a value below 2^(30 L - 1)) to signed 30-bit limbs, and back (a
// value in [0, 2^(64 N))).
template <int N, int L>
PP_HD void to_signed30(signed30<L>& out, const uint64_t* a) {
  PP_UNROLL
  for (int i = 0; i < L; ++i) {
    const int bit = batch_steps * i, w = bit / 64, s = bit % 64;
    uint64_t x = w < N ? a[w] >> s : 0;
    if (s > 64 - batch_steps && w + 1 < N) x |= a[w + 1] << (64 - s);
    out.l[i] = static_cast<int32_t>(static_cast<uint32_t>(x) & limb_mask);
  }
}
template <int N, int L>
PP_HD void from_signed30(uint64_t* out, const signed30<L>& a) {
  PP_UNROLL
  for (int w = 0; w < N; ++w) out[w] = 0;
  PP_UNROLL
  for (int i = 0; i < L; ++i) {
    const int bit = batch_steps * i, w = bit / 64, s = bit % 64;
    const uint64_t x = static_cast<uint32_t>(a.l[i]);
    if (w < N) out[w] |= x << s;
    if (s > 64 - batch_steps && w + 1 < N) out[w + 1] |= x >> (64 - s);
  }
}

// The modulus of P in signed 30-bit limbs, and m^-1 mod 2^30 (from P::inv = -m^-1 mod 2^64).
template <class P>
struct modulus30 {
  static constexpr int L = limb_count(P::bits);
  static constexpr signed30<L> m = [] {
    signed30<L> r{};
    for (int i = 0; i < L; ++i) {
      const int bit = batch_steps * i, w = bit / 64, s = bit % 64;
      uint64_t x = w < P::n64 ? P::modulus[w] >> s : 0;
      if (s > 64 - batch_steps && w + 1 < P::n64) x |= P::modulus[w + 1] << (64 - s);
      r.l[i] = static_cast<int32_t>(static_cast<uint32_t>(x) & limb_mask);
    }
    return r;
  }();
  static constexpr uint32_t inv30 = static_cast<uint32_t>(0 - P::inv) & limb_mask;
  static constexpr int batches = (step_bound(P::bits) + batch_steps - 1) / batch_steps;
};

// out = x^-1 mod m for the canonical integer x in [0, m) (N limbs); 0 gives 0. Out of line on the
// device: callers are rare and the body is large.
template <class P>
PP_HD_NOINLINE void invert(uint64_t* out, const uint64_t* x) {
  using M = modulus30<P>;
  constexpr int L = M::L;
  constexpr signed30<L> m = M::m;
  signed30<L> f = m, g, d{}, e{};
  to_signed30<P::n64>(g, x);
  e.l[0] = 1;
  int32_t delta = 1;
  for (int b = 0; b < M::batches; ++b) {
    matrix t;
    delta = divsteps_30(delta, static_cast<uint32_t>(f.l[0]), static_cast<uint32_t>(g.l[0]), t);
    update_fg(f, g, t);
    update_de(d, e, t, m, M::inv30);
  }
  // g = 0 and f = +-1 (x != 0), d = f / x in (-2m, m): bring d * sign(f) into [0, m).
  add_masked(d, m, d.l[L - 1] >> 31);  // (-m, m)
  negate_masked(d, f.l[L - 1] >> 31);  // (-m, m)
  add_masked(d, m, d.l[L - 1] >> 31);  // [0, m)
  from_signed30<P::n64>(out, d);
}

}  // namespace pp::ff::safegcd
