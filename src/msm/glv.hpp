// GLV split of G1 scalars for the host Pippenger (msm/pippenger.cpp; Gallant, Lambert, Vanstone,
// CRYPTO 2001). On BLS12-381 G1 the endomorphism phi(x, y) = (beta x, y) acts as [-z^2], z the seed
// (ec/subgroup.hpp), and r = z^4 - z^2 + 1. So every k < r is k = k1 + k2 z^2 with k1 = k mod z^2 and
// k2 = floor(k / z^2) <= z^2 - 1, both below 2^128, and [k] P = [k1] P + [k2] (beta x, -y): twice the
// points, half the bits, hence half the windows and half the bucket reductions of a 255-bit MSM.
#pragma once
#include <cstdint>

#include "ec/bls12_381_curves.hpp"
#include "msm/booth.hpp"

namespace pp::msm {

// Both halves are below 2^128; signed digits need one more bit (booth.hpp: bit c*W - 1 must be 0).
inline constexpr int glv_half_bits = 128;
inline constexpr int glv_digit_bits = glv_half_bits + 1;

// The split costs 48 bytes per point (beta x) and, from canonical scalars, 32 more (the halves): at
// most 320 MiB at this cap. Larger MSMs keep whole scalars; the CPU prover's memory estimate
// (groth16/prover.cpp) counts the cap.
inline constexpr int64_t glv_max_points = int64_t{1} << 22;
inline constexpr int64_t glv_bytes_per_point = 48 + 32;

namespace detail {

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

}  // namespace detail

// k (canonical, < r) -> {k1 low, k1 high, k2 low, k2 high}, the same 32 bytes: two divisions by |z|,
// k = q1 |z| + r1 and q1 = k2 |z| + r2, so k1 = r2 |z| + r1 < z^2. The top limbs skip their
// division: k < 2^255 and |z| > 2^63, so k.l[3] < |z| and q1 < 2^192 has q1.l[2] < |z|.
inline canonical_scalar glv_split(const canonical_scalar& k) {
  constexpr uint64_t z = ec::bls_seed_abs;
  uint64_t q[4] = {k.l[0], k.l[1], k.l[2], k.l[3]};
  const uint64_t r1 = detail::div_limbs_by_64(q, 4, z);  // q = floor(k / |z|) < 2^192
  const uint64_t r2 = detail::div_limbs_by_64(q, 3, z);  // q = k2 < 2^128
  const unsigned __int128 k1 = static_cast<unsigned __int128>(r2) * z + r1;
  return canonical_scalar{{static_cast<uint64_t>(k1), static_cast<uint64_t>(k1 >> 64), q[0], q[1]}};
}

// The signed digit of window w (width c <= 24) of the 128-bit value (hi:lo), as booth_digit reads a
// 256-bit one: in [-2^(c-1), 2^(c-1)]; windows w < ceil(glv_digit_bits / c) recompose the value.
inline int32_t glv_digit(uint64_t lo, uint64_t hi, int w, int c) {
  const unsigned __int128 k = (static_cast<unsigned __int128>(hi) << 64) | lo;
  const int pos = c * w - 1;  // v holds bits [pos, pos + c]: bit 0 the borrow-in, bit c the sign
  const unsigned __int128 window = w == 0 ? k << 1 : (pos >= glv_half_bits ? 0 : k >> pos);
  const uint64_t v = static_cast<uint64_t>(window) & ((uint64_t{2} << c) - 1);
  const int64_t top = static_cast<int64_t>(v >> c);
  return static_cast<int32_t>(static_cast<int64_t>(v >> 1) + static_cast<int64_t>(v & 1) - (top << c));
}

}  // namespace pp::msm
