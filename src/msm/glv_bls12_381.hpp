// BLS12-381's GLV split (msm/glv.hpp). phi(x, y) = (beta x, y) acts on G1 as [-z^2], z the seed
// (ec/subgroup.hpp), and r = z^4 - z^2 + 1. So every k < r is k = k1 + k2 z^2 with k1 = k mod z^2 and
// k2 = floor(k / z^2) <= z^2 - 1, both below 2^128 and non-negative, and
// [k] P = [k1] P + [k2] (beta x, -y): the second term always enters negated.
#pragma once
#include <cstdint>

#include "ec/bls12_381_curves.hpp"
#include "msm/glv.hpp"

namespace pp::msm {
namespace glv_detail {

// q = (hi:lo) / d, *rem = (hi:lo) mod d; requires hi < d (the quotient fits one limb).
inline uint64_t div_128_by_64(uint64_t hi, uint64_t lo, uint64_t d, uint64_t* rem) {
#if defined(__x86_64__)
  uint64_t q, r;
  asm("divq %4" : "=a"(q), "=d"(r) : "a"(lo), "d"(hi), "rm"(d) : "cc");
  *rem = r;
  return q;
#else
  const unsigned __int128 n = (static_cast<unsigned __int128>(hi) << 64) | lo;
  *rem = static_cast<uint64_t>(n % d);
  return static_cast<uint64_t>(n / d);
#endif
}

// v[0, limbs) /= d in place (little-endian), returning the remainder; v's top limb must be < d.
inline uint64_t div_limbs_by_64(uint64_t* v, int limbs, uint64_t d) {
  uint64_t rem = v[limbs - 1];
  v[limbs - 1] = 0;
  for (int i = limbs - 2; i >= 0; --i) v[i] = div_128_by_64(rem, v[i], d, &rem);
  return rem;
}

}  // namespace glv_detail

template <>
struct glv<ec::g1_curve> {
  static constexpr bool available = true;
  // Both halves are below 2^128; signed digits need one more bit (booth.hpp: bit c*W - 1 must be 0).
  static constexpr int digit_bits = glv_half_bits + 1;

  // k (canonical, < r) -> {k1 low, k1 high, k2 low, k2 high}: two divisions by |z|, k = q1 |z| + r1
  // and q1 = k2 |z| + r2, so k1 = r2 |z| + r1 < z^2. The top limbs skip their division: k < 2^255 and
  // |z| > 2^63, so k.l[3] < |z| and q1 < 2^192 has q1.l[2] < |z|.
  static canonical_scalar split(const canonical_scalar& k) {
    constexpr uint64_t z = ec::bls_seed_abs;
    uint64_t q[4] = {k.l[0], k.l[1], k.l[2], k.l[3]};
    const uint64_t r1 = glv_detail::div_limbs_by_64(q, 4, z);  // q = floor(k / |z|) < 2^192
    const uint64_t r2 = glv_detail::div_limbs_by_64(q, 3, z);  // q = k2 < 2^128
    const unsigned __int128 k1 = static_cast<unsigned __int128>(r2) * z + r1;
    return canonical_scalar{{static_cast<uint64_t>(k1), static_cast<uint64_t>(k1 >> 64), q[0], q[1]}};
  }

  static glv_half half(const canonical_scalar& s, int i) {
    return i == 0 ? glv_half{s.l[0], s.l[1], false} : glv_half{s.l[2], s.l[3], true};
  }

  static constexpr ec::limbs6 beta() { return ec::g1_curve::beta(); }
};

}  // namespace pp::msm
