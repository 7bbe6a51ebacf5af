// BN254's batches of affine additions on AVX-512 IFMA (msm/bn254_batch_ifma.hpp). Same formulas as
// msm/affine_buckets.hpp's scalar loop: lambda = (qy - ay) / (qx - ax), or 3 ax^2 / 2 ay when
// doubling; x3 = lambda^2 - ax - qx, y3 = lambda (ax - x3) - ay. One skeleton (add_batch) runs eight
// Fp chains of Montgomery's trick; a policy per group (g1_adds, g2_adds) says what each lane chains
// and how it finishes. G2 inverts Fp2 through the norm, 1/d = conj(d) / (d0^2 + d1^2), so its chains
// run in Fp too. Scales and bounds (ff/bn254_fp_x8_ifma.hpp) are noted as @s and < kp.

// g++ 12 flags the AVX-512 intrinsics' own _mm512_undefined operands (GCC bug 105593, fixed in 13).
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "msm/bn254_batch_ifma.hpp"

#include <algorithm>

#include "ff/bn254_tower.hpp"
#include "ff/mont_field.hpp"
#if defined(__x86_64__)
#include "ff/bn254_fp_x8_ifma.hpp"
#endif

namespace pp::msm::detail {
#if defined(__x86_64__)
namespace {

using fp = ff::bn254::fp;
namespace x8 = ff::bn254::ifma;
using x8::fp_x8;

constexpr std::size_t lanes = 8;

// 2^260 mod p: one at scale 260.
x8::limbs52 one260() {
  fp sixteen = fp::one();
  for (int i = 0; i < 4; ++i) sixteen = sixteen.dbl();
  return x8::to_limbs52(sixteen.l);
}

// Lanes that hold an addition of the group starting at j0.
PP_IFMA __mmask8 live_lanes(std::size_t j0, std::size_t m) {
  return m - j0 >= lanes ? 0xff : static_cast<__mmask8>((1u << (m - j0)) - 1);
}

// The field elements at byte offset `at` of the group's buckets and of its q: lane i from addition
// j0 + i, past the end a copy of the last (masked out).
template <class Point>
struct group_source {
  Point* bucket;
  const uint32_t* index;
  const Point* q;
  std::size_t j0, m;

  Point& a(std::size_t i) const { return bucket[index[std::min(j0 + i, m - 1)]]; }
  const Point& b(std::size_t i) const { return q[std::min(j0 + i, m - 1)]; }
  template <class Member>
  PP_IFMA fp_x8 load_a(Member member) const {
    const uint64_t* src[lanes];
    for (std::size_t i = 0; i < lanes; ++i) src[i] = member(a(i)).l;
    return x8::load(src);
  }
  template <class Member>
  PP_IFMA fp_x8 load_b(Member member) const {
    const uint64_t* src[lanes];
    for (std::size_t i = 0; i < lanes; ++i) src[i] = member(b(i)).l;
    return x8::load(src);
  }
  template <class Member>
  PP_IFMA void store_a(Member member, const fp_x8& v, __mmask8 which) const {
    uint64_t* dst[lanes];
    for (std::size_t i = 0; i < lanes; ++i) dst[i] = member(a(i)).l;
    x8::store(v, dst, which);
  }
};

// x < 8p to canonical.
PP_IFMA fp_x8 canonical(const fp_x8& x) {
  return x8::reduce_below(x8::reduce_below(x8::reduce_below(x, x8::p4), x8::p2), x8::p1);
}

struct g1_adds {
  using point = ec::affine<ec::bn254::g1_curve>;
  // The chains' inverses come @262: lambda = num@256 * inv@262 is @258, so lambda^2 is @256.
  static constexpr int inverse_scale = 262;

  struct group {
    fp_x8 ax, ay, qx, qy;  // @256, < p
    fp_x8 chain;           // the denominator @260, < 32p; one where no inversion is wanted
    fp_x8 num;             // @256, < 6p
    __mmask8 live, infinity;
  };

  PP_IFMA static group load(const group_source<point>& s, const fp_x8& one) {
    group g;
    g.ax = s.load_a([](const point& p) -> const fp& { return p.x; });
    g.ay = s.load_a([](const point& p) -> const fp& { return p.y; });
    g.qx = s.load_b([](const point& p) -> const fp& { return p.x; });
    g.qy = s.load_b([](const point& p) -> const fp& { return p.y; });
    g.live = live_lanes(s.j0, s.m);
    fp_x8 den = x8::sub(g.qx, g.ax, x8::p1);  // < 2p
    g.num = x8::sub(g.qy, g.ay, x8::p1);      // < 2p
    g.infinity = 0;
    if (const __mmask8 same_x = x8::equal(g.ax, g.qx) & g.live) {  // rare: P + P or P + (-P)
      const __mmask8 dbl = x8::equal(g.ay, g.qy) & same_x & ~x8::equal(g.ay, fp_x8{});  // y = 0: 2-torsion
      if (dbl) {
        const fp_x8 x2 = x8::mul(x8::shl<4>(g.ax), g.ax);               // @256, < 2p
        g.num = x8::blend(dbl, g.num, x8::add(x8::add(x2, x2), x2));  // < 6p
        den = x8::blend(dbl, den, x8::add(g.ay, g.ay));               // < 2p
      }
      g.infinity = same_x & ~dbl;
    }
    g.chain = x8::blend(static_cast<__mmask8>(~g.live | g.infinity), x8::shl<4>(den), one);
    return g;
  }

  // inv: 1 / den @262, < 2p.
  PP_IFMA static void finish(const group& g, const fp_x8& inv, const group_source<point>& s) {
    const fp_x8 lambda = x8::mul(g.num, inv);  // @258, < 2p
    const fp_x8 l2 = x8::mul(lambda, lambda);  // @256, < 2p
    const fp_x8 x3 = canonical(x8::sub(x8::sub(l2, g.ax, x8::p1), g.qx, x8::p1));
    const fp_x8 dx = x8::shl<2>(x8::sub(g.ax, x3, x8::p1));                   // @258, < 8p
    const fp_x8 y3 = canonical(x8::sub(x8::mul(lambda, dx), g.ay, x8::p1));  // mul @256, < 2p
    const auto finite = static_cast<__mmask8>(g.live & ~g.infinity);
    s.store_a([](point& p) -> fp& { return p.x; }, x3, finite);
    s.store_a([](point& p) -> fp& { return p.y; }, y3, finite);
  }
};

// Fp2 = Fp[u] / (u^2 + 1) over lane pairs.
struct fp2_x8 {
  fp_x8 c0, c1;
};

struct g2_adds {
  using point = ec::affine<ec::bn254::g2_curve>;
  // The chains' inverses (of the norms) come @266: conj(den) @256 times them is @262, lambda @258.
  static constexpr int inverse_scale = 266;

  struct group {
    fp2_x8 ax, ay, qx, qy;  // @256, < p
    fp2_x8 den;             // @256, < p
    fp2_x8 num;             // @256, < 6p
    fp_x8 chain;            // the norm of den @260, < 32p; one where no inversion is wanted
    __mmask8 live, infinity;
  };

  PP_IFMA static fp2_x8 load_a(const group_source<point>& s, ff::bn254::fp2 point::*member) {
    return {s.load_a([member](const point& p) -> const fp& { return (p.*member).c0; }),
            s.load_a([member](const point& p) -> const fp& { return (p.*member).c1; })};
  }
  PP_IFMA static fp2_x8 load_b(const group_source<point>& s, ff::bn254::fp2 point::*member) {
    return {s.load_b([member](const point& p) -> const fp& { return (p.*member).c0; }),
            s.load_b([member](const point& p) -> const fp& { return (p.*member).c1; })};
  }
  PP_IFMA static __mmask8 equal(const fp2_x8& a, const fp2_x8& b) {
    return x8::equal(a.c0, b.c0) & x8::equal(a.c1, b.c1);
  }
  PP_IFMA static fp2_x8 sub(const fp2_x8& a, const fp2_x8& b) {
    return {x8::sub(a.c0, b.c0, x8::p1), x8::sub(a.c1, b.c1, x8::p1)};
  }
  PP_IFMA static fp2_x8 add(const fp2_x8& a, const fp2_x8& b) { return {x8::add(a.c0, b.c0), x8::add(a.c1, b.c1)}; }

  PP_IFMA static group load(const group_source<point>& s, const fp_x8& one) {
    group g;
    g.ax = load_a(s, &point::x);
    g.ay = load_a(s, &point::y);
    g.qx = load_b(s, &point::x);
    g.qy = load_b(s, &point::y);
    g.live = live_lanes(s.j0, s.m);
    fp2_x8 den = sub(g.qx, g.ax);  // < 2p
    g.num = sub(g.qy, g.ay);       // < 2p
    g.infinity = 0;
    if (const __mmask8 same_x = equal(g.ax, g.qx) & g.live) {  // rare: P + P or P + (-P)
      const __mmask8 dbl = equal(g.ay, g.qy) & same_x & ~equal(g.ay, fp2_x8{});  // y = 0: 2-torsion
      if (dbl) {
        // ax^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u, @256 (one factor shifted @260), < 4p
        const fp_x8 s0 = x8::mul(x8::shl<4>(x8::add(g.ax.c0, g.ax.c1)), x8::sub(g.ax.c0, g.ax.c1, x8::p1));
        const fp_x8 s1 = x8::mul(x8::shl<4>(g.ax.c0), g.ax.c1);
        const fp2_x8 x2{x8::reduce_below(s0, x8::p1), x8::reduce_below(x8::add(s1, s1), x8::p2)};  // < p, < 2p
        const fp2_x8 three_x2 = add(add(x2, x2), x2);                                               // < 6p
        g.num = {x8::blend(dbl, g.num.c0, three_x2.c0), x8::blend(dbl, g.num.c1, three_x2.c1)};
        const fp2_x8 two_y = add(g.ay, g.ay);  // < 2p
        den = {x8::blend(dbl, den.c0, two_y.c0), x8::blend(dbl, den.c1, two_y.c1)};
      }
      g.infinity = same_x & ~dbl;
    }
    g.den = {x8::reduce_below(den.c0, x8::p1), x8::reduce_below(den.c1, x8::p1)};
    // d0^2 + d1^2 @256 (first factors @260: 16p * p, twice, below 2^260 p), < 2p
    const fp_x8 norm = x8::dot2(x8::shl<4>(g.den.c0), g.den.c0, x8::shl<4>(g.den.c1), g.den.c1);
    g.chain = x8::blend(static_cast<__mmask8>(~g.live | g.infinity), x8::shl<4>(norm), one);
    return g;
  }

  // inv: 1 / norm @266, < 2p.
  PP_IFMA static void finish(const group& g, const fp_x8& inv, const group_source<point>& s) {
    // 1 / den = conj(den) / norm @262, < 2p; a0 b0 - a1 b1 as a0 b0 + a1 (kp - b1).
    const fp2_x8 d_inv{x8::mul(g.den.c0, inv), x8::mul(x8::sub(fp_x8{}, g.den.c1, x8::p1), inv)};
    const fp2_x8 lambda{x8::dot2(g.num.c0, d_inv.c0, g.num.c1, x8::sub(fp_x8{}, d_inv.c1, x8::p2)),
                        x8::dot2(g.num.c0, d_inv.c1, g.num.c1, d_inv.c0)};  // @258, < 2p
    const fp_x8 l1_neg = x8::sub(fp_x8{}, lambda.c1, x8::p2);
    const fp2_x8 l2{x8::dot2(lambda.c0, lambda.c0, lambda.c1, l1_neg),
                    x8::mul(lambda.c0, x8::add(lambda.c1, lambda.c1))};  // @256, < 2p
    const fp2_x8 x3{canonical(x8::sub(x8::sub(l2.c0, g.ax.c0, x8::p1), g.qx.c0, x8::p1)),
                    canonical(x8::sub(x8::sub(l2.c1, g.ax.c1, x8::p1), g.qx.c1, x8::p1))};
    const fp2_x8 dx{x8::shl<2>(x8::sub(g.ax.c0, x3.c0, x8::p1)),
                    x8::shl<2>(x8::sub(g.ax.c1, x3.c1, x8::p1))};  // @258, < 8p
    const fp2_x8 ly{x8::dot2(lambda.c0, dx.c0, lambda.c1, x8::sub(fp_x8{}, dx.c1, x8::p8)),
                    x8::dot2(lambda.c0, dx.c1, lambda.c1, dx.c0)};  // @256, < 2p
    const fp2_x8 y3{canonical(x8::sub(ly.c0, g.ay.c0, x8::p1)), canonical(x8::sub(ly.c1, g.ay.c1, x8::p1))};
    const auto finite = static_cast<__mmask8>(g.live & ~g.infinity);
    s.store_a([](point& p) -> fp& { return p.x.c0; }, x3.c0, finite);
    s.store_a([](point& p) -> fp& { return p.x.c1; }, x3.c1, finite);
    s.store_a([](point& p) -> fp& { return p.y.c0; }, y3.c0, finite);
    s.store_a([](point& p) -> fp& { return p.y.c1; }, y3.c1, finite);
  }
};

// Inverts the eight lanes' chain products (@260, < p) in scalar code with one inversion
// (ff::batch_inverse), returning their inverses @scale: the lanes read as mont_field limbs (@256) are
// y = 16 * product, and the inverse wanted, 2^scale / product = 2^(scale - 256) * 16 / y, is read
// @256 as 2^(scale - 252) / y.
void invert_lanes(uint64_t* words, int scale) {
  fp y[lanes], scratch[lanes];
  for (std::size_t i = 0; i < lanes; ++i) {
    for (int w = 0; w < 4; ++w) y[i].l[w] = words[4 * i + w];
  }
  ff::batch_inverse(y, scratch, lanes);
  fp k = fp::one();
  for (int i = 252; i < scale; ++i) k = k.dbl();
  for (std::size_t i = 0; i < lanes; ++i) {
    const fp yi_inv = y[i] * k;
    for (int w = 0; w < 4; ++w) words[4 * i + w] = yi_inv.l[w];
  }
}

// Forward over the groups: eight chains (one a lane) of products of the chained values, @260, keeping
// each group's prefix; one inversion for the lanes; backward: each group's inverse from the prefix,
// then its sums. Each pass loads the group afresh (cheaper than keeping it). Not inlined: its callers
// are not compiled for AVX-512.
template <class Adds>
[[gnu::target("avx512f,avx512ifma")]] void add_batch(typename Adds::point* bucket, const uint32_t* index,
                                                     const typename Adds::point* q, std::size_t m,
                                                     uint8_t* infinity, std::vector<uint64_t>& scratch) {
  constexpr std::size_t words_per_group = 5 * lanes;  // one fp_x8
  const std::size_t groups = (m + lanes - 1) / lanes;
  scratch.resize(groups * words_per_group + 4 * lanes);
  uint64_t* prefix = scratch.data();
  uint64_t* lane_words = scratch.data() + groups * words_per_group;
  static const x8::limbs52 one_limbs = one260();
  const fp_x8 one = x8::splat(one_limbs);
  const auto source = [&](std::size_t g) {
    return group_source<typename Adds::point>{bucket, index, q, g * lanes, m};
  };

  fp_x8 acc = one;
  for (std::size_t g = 0; g < groups; ++g) {
    const auto t = Adds::load(source(g), one);
    for (int k = 0; k < 5; ++k) _mm512_storeu_si512(prefix + (g * 5 + k) * lanes, acc.l[k]);
    acc = x8::mul(acc, t.chain);
  }
  uint64_t* words[lanes];
  for (std::size_t i = 0; i < lanes; ++i) words[i] = lane_words + 4 * i;
  x8::store(x8::reduce_below(acc, x8::p1), words, 0xff);
  invert_lanes(lane_words, Adds::inverse_scale);
  fp_x8 acc_inv = x8::load(words);  // @inverse_scale, < p

  for (std::size_t g = groups; g-- > 0;) {
    const auto t = Adds::load(source(g), one);
    fp_x8 before;
    for (int k = 0; k < 5; ++k) before.l[k] = _mm512_loadu_si512(prefix + (g * 5 + k) * lanes);
    const fp_x8 inv = x8::mul(acc_inv, before);  // 1 / chain @inverse_scale, < 2p
    acc_inv = x8::mul(acc_inv, t.chain);
    Adds::finish(t, inv, source(g));
    for (std::size_t i = 0; i < lanes && g * lanes + i < m; ++i) infinity[g * lanes + i] = (t.infinity >> i) & 1;
  }
}

}  // namespace

bool bn254_ifma_available() {
  static const bool available = x8::cpu_has_avx512_ifma();
  return available;
}

void bn254_add_batch_ifma(ec::affine<ec::bn254::g1_curve>* bucket, const uint32_t* index,
                          const ec::affine<ec::bn254::g1_curve>* q, std::size_t m, uint8_t* infinity,
                          std::vector<uint64_t>& scratch) {
  if (m > 0) add_batch<g1_adds>(bucket, index, q, m, infinity, scratch);
}

void bn254_add_batch_ifma(ec::affine<ec::bn254::g2_curve>* bucket, const uint32_t* index,
                          const ec::affine<ec::bn254::g2_curve>* q, std::size_t m, uint8_t* infinity,
                          std::vector<uint64_t>& scratch) {
  if (m > 0) add_batch<g2_adds>(bucket, index, q, m, infinity, scratch);
}

#else  // no AVX-512 off x86-64: never available, so never called

bool bn254_ifma_available() { return false; }
void bn254_add_batch_ifma(ec::affine<ec::bn254::g1_curve>*, const uint32_t*, const ec::affine<ec::bn254::g1_curve>*,
                          std::size_t, uint8_t*, std::vector<uint64_t>&) {}
void bn254_add_batch_ifma(ec::affine<ec::bn254::g2_curve>*, const uint32_t*, const ec::affine<ec::bn254::g2_curve>*,
                          std::size_t, uint8_t*, std::vector<uint64_t>&) {}

#endif

}  // namespace pp::msm::detail
