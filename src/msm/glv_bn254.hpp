// BN254's GLV split (msm/glv.hpp), for G1 and G2. phi(x, y) = (beta x, y) acts on G1 as [lambda] with
// lambda = -(36x^3 + 18x^2 + 6x + 2) mod r, x the seed (ec/bn254_curves.hpp). The lattice of
// (a, b) with a + b lambda = 0 mod r has the short basis v1 = (n1, n2), v2 = (a2, -n1) with
// n1 = 2x + 1, n2 = 6x^2 + 4x + 1, a2 = 6x^2 + 2x (determinant -r). Rounding k's coordinates in it,
// c1 = round(k n1 / r) and c2 = round(k n2 / r), leaves
//   k1 = k - c1 n1 - c2 a2,  k2 = c2 n1 - c1 n2,  k = k1 + k2 lambda mod r,
// with |k1| <= (n1 + a2) / 2 and |k2| <= (n2 + n1) / 2, both below 2^126: signed, so each half is
// stored as its magnitude with the sign in bit 127. The rounding is exact (an estimate from a
// precomputed 2^256 n / r, then corrected against k n - c r), which is what the bound needs.
// tests/msm/glv_test.cpp checks the constants against the seed, the bounds and the recomposition.
#pragma once
#include <cstdint>

#include "ec/bn254_curves.hpp"
#include "ff/limbs.hpp"
#include "msm/glv.hpp"

namespace pp::msm {
namespace glv_bn254_detail {

inline constexpr uint64_t n1[2] = {0x89d3256894d213e3, 0};                   // 2x + 1
inline constexpr uint64_t n2[2] = {0x0be4e1541221250b, 0x6f4d8248eeb859fd};  // 6x^2 + 4x + 1
inline constexpr uint64_t a2[2] = {0x8211bbeb7d4f1128, 0x6f4d8248eeb859fc};  // 6x^2 + 2x
// floor(2^256 n / r) for n1 and n2.
inline constexpr uint64_t g1[3] = {0xd91d232ec7e0b3d7, 0x2, 0};
inline constexpr uint64_t g2[3] = {0x5398fd0300ff6565, 0x4ccef014a773d2d2, 0x2};
inline constexpr uint64_t r[4] = {0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d,
                                  0x30644e72e131a029};
inline constexpr uint64_t half_r[4] = {0xa1f0fac9f8000001, 0x9419f4243cdcb848, 0xdc2822db40c0ac2e,
                                       0x183227397098d014};  // (r + 1) / 2
inline constexpr uint64_t sign_bit = uint64_t{1} << 63;

// out = a * b mod 2^384 (a has na limbs, b nb; little-endian).
inline void mul_wide(const uint64_t* a, int na, const uint64_t* b, int nb, uint64_t out[6]) {
  for (int i = 0; i < 6; ++i) out[i] = 0;
  for (int i = 0; i < na && i < 6; ++i) {
    uint64_t carry = 0;
    int j = 0;
    for (; j < nb && i + j < 6; ++j) {
      const unsigned __int128 t = static_cast<unsigned __int128>(a[i]) * b[j] + out[i + j] + carry;
      out[i + j] = static_cast<uint64_t>(t);
      carry = static_cast<uint64_t>(t >> 64);
    }
    if (i + j < 6) out[i + j] = carry;
  }
}

// c = round(k n / r) for k < r and n < 2^127, g = floor(2^256 n / r). The estimate floor(k g / 2^256)
// is floor(k n / r) or one below (k / 2^256 < 1/4): t = k n - c r starts in [0, 2r), one step makes
// c the floor and t the remainder, and a remainder of at least (r + 1) / 2 rounds up (r is odd: no
// ties).
inline void round_quotient(const uint64_t k[4], const uint64_t n[2], const uint64_t g[3], uint64_t c[2]) {
  uint64_t e[6];
  mul_wide(k, 4, g, 3, e);
  c[0] = e[4];
  c[1] = e[5];
  uint64_t t[6], cr[6];
  mul_wide(k, 4, n, 2, t);
  mul_wide(c, 2, r, 4, cr);
  ff::limbs::sub<6>(t, t, cr);  // below 2r < 2^256: the top limbs are 0
  const auto increment = [&] {
    if (++c[0] == 0) ++c[1];
  };
  if (ff::limbs::cmp<4>(t, r) >= 0) {
    ff::limbs::sub<4>(t, t, r);
    increment();
  }
  if (ff::limbs::cmp<4>(t, half_r) >= 0) increment();
}

// v (a two's-complement 256-bit value of magnitude < 2^126) -> its magnitude's two low limbs, the
// sign in bit 127.
inline void to_sign_magnitude(const uint64_t v[6], uint64_t out[2]) {
  const bool negative = (v[3] >> 63) != 0;
  uint64_t m[4] = {0, 0, 0, 0};
  if (negative) {
    ff::limbs::sub<4>(m, m, v);  // 0 - v
  } else {
    for (int i = 0; i < 4; ++i) m[i] = v[i];
  }
  out[0] = m[0];
  out[1] = m[1] | (negative ? sign_bit : 0);
}

}  // namespace glv_bn254_detail

template <>
struct glv<ec::bn254::g1_curve> {
  static constexpr bool available = true;
  // Both magnitudes are below 2^126; signed digits need one more bit (booth.hpp).
  static constexpr int digit_bits = 127;

  static canonical_scalar split(const canonical_scalar& k) {
    using namespace glv_bn254_detail;
    uint64_t c1[2], c2[2];
    round_quotient(k.l, n1, g1, c1);
    round_quotient(k.l, n2, g2, c2);
    uint64_t k1[6] = {k.l[0], k.l[1], k.l[2], k.l[3], 0, 0}, k2[6], t[6];
    mul_wide(c1, 2, n1, 2, t);
    ff::limbs::sub<6>(k1, k1, t);
    mul_wide(c2, 2, a2, 2, t);
    ff::limbs::sub<6>(k1, k1, t);
    mul_wide(c2, 2, n1, 2, k2);
    mul_wide(c1, 2, n2, 2, t);
    ff::limbs::sub<6>(k2, k2, t);
    canonical_scalar s;
    to_sign_magnitude(k1, s.l);
    to_sign_magnitude(k2, s.l + 2);
    return s;
  }

  static glv_half half(const canonical_scalar& s, int i) {
    const uint64_t hi = s.l[2 * i + 1];
    return glv_half{s.l[2 * i], hi & ~glv_bn254_detail::sign_bit, (hi & glv_bn254_detail::sign_bit) != 0};
  }

  static constexpr ec::bn254::limbs4 beta() { return ec::bn254::g1_curve::beta(); }
};

// G2: the twist y^2 = x^3 + b' has the same endomorphism, (beta' x, y) with beta' in Fp acting as the
// same lambda (ec/bn254_curves.hpp), so the same split serves. Over a dense witness BN254's B_G2 MSM
// is a third of a CPU proof (docs/perf/bn254-cpu.md); halving its windows halves its bucket
// reductions, which cost more against G2's batched affine additions than G1's do.
template <>
struct glv<ec::bn254::g2_curve> : glv<ec::bn254::g1_curve> {
  static constexpr ec::bn254::limbs4 beta() { return ec::bn254::g2_curve::beta(); }
};

}  // namespace pp::msm
