// BN254's G1 batch of affine additions on AVX-512 IFMA (msm/bn254_g1_batch_ifma.hpp). Same formulas
// as msm/affine_buckets.hpp's scalar loop: lambda = (qy - ay) / (qx - ax), or 3 ax^2 / 2 ay when
// doubling; x3 = lambda^2 - ax - qx, y3 = lambda (ax - x3) - ay; 6 products an addition. Scales and
// bounds (ff/bn254_fp_x8_ifma.hpp) are noted on each line as @s and < kp.

// g++ 12 flags the AVX-512 intrinsics' own _mm512_undefined operands (GCC bug 105593, fixed in 13).
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"

#include "msm/bn254_g1_batch_ifma.hpp"

#include <algorithm>

#include "ff/bn254_fp_x8_ifma.hpp"

namespace pp::msm::detail {
namespace {

using point = ec::affine<ec::bn254::g1_curve>;
using fp = ff::bn254::fp;
namespace x8 = ff::bn254::ifma;

constexpr std::size_t lanes = 8;
constexpr std::size_t words_per_group = 5 * lanes;  // one fp_x8

// 2^260 mod p: one at scale 260.
x8::limbs52 one260() {
  fp sixteen = fp::one();
  for (int i = 0; i < 4; ++i) sixteen = sixteen.dbl();
  return x8::to_limbs52(sixteen.l);
}

// One group's operands, recomputed by both passes (reloading is cheaper than keeping them).
struct group {
  x8::fp_x8 ax, ay, qx, qy;  // @256, < p
  x8::fp_x8 den;             // @260, < 32p; one where no inversion is wanted
  x8::fp_x8 num;             // @256, < 6p
  __mmask8 live;             // lanes that hold an addition
  __mmask8 infinity;         // live lanes whose sum is infinity
};

PP_IFMA group load_group(const point* bucket, const uint32_t* index, const point* q, std::size_t j0,
                         std::size_t m, const x8::fp_x8& one) {
  const uint64_t *ax[lanes], *ay[lanes], *qx[lanes], *qy[lanes];
  for (std::size_t i = 0; i < lanes; ++i) {
    const std::size_t j = std::min(j0 + i, m - 1);  // past the end: a copy of the last, masked out
    const point& a = bucket[index[j]];
    ax[i] = a.x.l;
    ay[i] = a.y.l;
    qx[i] = q[j].x.l;
    qy[i] = q[j].y.l;
  }
  group g;
  g.ax = x8::load(ax);
  g.ay = x8::load(ay);
  g.qx = x8::load(qx);
  g.qy = x8::load(qy);
  g.live = m - j0 >= lanes ? 0xff : static_cast<__mmask8>((1u << (m - j0)) - 1);
  x8::fp_x8 den = x8::sub(g.qx, g.ax, x8::p1);  // < 2p
  g.num = x8::sub(g.qy, g.ay, x8::p1);          // < 2p
  __mmask8 skip = static_cast<__mmask8>(~g.live);
  g.infinity = 0;
  if (const __mmask8 same_x = x8::equal(g.ax, g.qx) & g.live) {  // rare: P + P or P + (-P)
    const x8::fp_x8 zero{};
    const __mmask8 same_y = x8::equal(g.ay, g.qy) & same_x;
    const __mmask8 dbl = same_y & ~x8::equal(g.ay, zero);  // y = 0 (2-torsion) doubles to infinity
    if (dbl) {
      const x8::fp_x8 x2 = x8::mul(x8::shl<4>(g.ax), g.ax);                  // @256, < 2p
      g.num = x8::blend(dbl, g.num, x8::add(x8::add(x2, x2), x2));          // < 6p
      den = x8::blend(dbl, den, x8::add(g.ay, g.ay));                       // < 2p
    }
    g.infinity = same_x & ~dbl;
    skip |= g.infinity;
  }
  g.den = x8::blend(skip, x8::shl<4>(den), one);
  return g;
}

// Inverts the eight lanes' chain products (@260, < 2p) in scalar code with one inversion, returning
// their inverses @262: the lanes read as mont_field limbs are y = 16 * product, and the inverse
// wanted is 2^262 / (2^260 product) = 1024 / y.
void invert_lanes(uint64_t* words) {
  fp y[lanes], prefix[lanes + 1];
  prefix[0] = fp::one();
  for (std::size_t i = 0; i < lanes; ++i) {
    for (int w = 0; w < 4; ++w) y[i].l[w] = words[4 * i + w];
    prefix[i + 1] = prefix[i] * y[i];
  }
  fp k = fp::one();
  for (int i = 0; i < 10; ++i) k = k.dbl();
  fp inv = prefix[lanes].inverse() * k;  // 1024 / (y_0 ... y_7)
  for (std::size_t i = lanes; i-- > 0;) {
    const fp yi_inv = inv * prefix[i];
    inv *= y[i];
    for (int w = 0; w < 4; ++w) words[4 * i + w] = yi_inv.l[w];
  }
}

// Not inlined: its callers are not compiled for AVX-512.
[[gnu::target("avx512f,avx512ifma")]] void add_batch(point* bucket, const uint32_t* index, const point* q, std::size_t m, uint8_t* infinity,
                       std::vector<uint64_t>& scratch) {
  const std::size_t groups = (m + lanes - 1) / lanes;
  scratch.resize(groups * words_per_group + 4 * lanes);
  auto* prefix = reinterpret_cast<long long*>(scratch.data());  // chain products before each group
  uint64_t* lane_words = scratch.data() + groups * words_per_group;
  static const x8::limbs52 one_limbs = one260();
  const x8::fp_x8 one = x8::splat(one_limbs);

  // Forward: eight chains (one a lane) of products of the denominators, @260.
  x8::fp_x8 acc = one;
  for (std::size_t g = 0; g < groups; ++g) {
    const group t = load_group(bucket, index, q, g * lanes, m, one);
    for (int k = 0; k < 5; ++k) _mm512_storeu_si512(prefix + (g * 5 + k) * lanes, acc.l[k]);
    acc = x8::mul(acc, t.den);
  }
  uint64_t* words[lanes];
  for (std::size_t i = 0; i < lanes; ++i) words[i] = lane_words + 4 * i;
  x8::store(x8::reduce_below(acc, x8::p1), words, 0xff);
  invert_lanes(lane_words);
  x8::fp_x8 acc_inv = x8::load(words);  // @262, < p

  // Backward: each group's inverses, then its sums.
  for (std::size_t g = groups; g-- > 0;) {
    const group t = load_group(bucket, index, q, g * lanes, m, one);
    x8::fp_x8 before;
    for (int k = 0; k < 5; ++k) before.l[k] = _mm512_loadu_si512(prefix + (g * 5 + k) * lanes);
    const x8::fp_x8 inv = x8::mul(acc_inv, before);  // 1 / den @262, < 2p
    acc_inv = x8::mul(acc_inv, t.den);
    const x8::fp_x8 lambda = x8::mul(t.num, inv);     // @258, < 2p
    const x8::fp_x8 l2 = x8::mul(lambda, lambda);      // @256, < 2p
    x8::fp_x8 x3 = x8::sub(x8::sub(l2, t.ax, x8::p1), t.qx, x8::p1);  // < 4p
    x3 = x8::reduce_below(x8::reduce_below(x3, x8::p2), x8::p1);
    const x8::fp_x8 dx = x8::shl<2>(x8::sub(t.ax, x3, x8::p1));         // @258, < 8p
    x8::fp_x8 y3 = x8::sub(x8::mul(lambda, dx), t.ay, x8::p1);          // @256, < 3p
    y3 = x8::reduce_below(x8::reduce_below(y3, x8::p2), x8::p1);
    uint64_t *out_x[lanes], *out_y[lanes];
    for (std::size_t i = 0; i < lanes; ++i) {
      point& b = bucket[index[std::min(g * lanes + i, m - 1)]];
      out_x[i] = b.x.l;
      out_y[i] = b.y.l;
    }
    const auto finite = static_cast<__mmask8>(t.live & ~t.infinity);
    x8::store(x3, out_x, finite);
    x8::store(y3, out_y, finite);
    for (std::size_t i = 0; i < lanes && g * lanes + i < m; ++i) infinity[g * lanes + i] = (t.infinity >> i) & 1;
  }
}

}  // namespace

bool bn254_g1_ifma_available() {
  static const bool available = x8::cpu_has_avx512_ifma();
  return available;
}

void bn254_g1_add_batch_ifma(point* bucket, const uint32_t* index, const point* q, std::size_t m, uint8_t* infinity,
                             std::vector<uint64_t>& scratch) {
  if (m > 0) add_batch(bucket, index, q, m, infinity, scratch);
}

}  // namespace pp::msm::detail
