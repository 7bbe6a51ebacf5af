// GLV split of G1 scalars for the host Pippenger (msm/pippenger_impl.hpp; Gallant, Lambert, Vanstone,
// CRYPTO 2001). Where G1 has an endomorphism phi(x, y) = (beta x, y) acting as [lambda] (lambda a cube
// root of unity mod r), every k < r is k = k1 + k2 lambda with |k1|, |k2| about sqrt(r), and
// [k] P = [k1] P + [k2] phi(P): twice the points, half the bits, hence half the windows and half the
// bucket reductions of a 255-bit MSM.
//
// glv<Curve> is one curve's split (msm/glv_bls12_381.hpp, msm/glv_bn254.hpp); the primary template
// says the curve has none (BLS12-381's G2). A specialization provides:
//   digit_bits           bits the signed digits of a half cover (one above the halves' bound)
//   split(k)             canonical k < r -> the two halves, 128 bits each, in one canonical_scalar
//   half(s, i)           half i of a split: its magnitude and whether the term enters negated
//   beta()               beta's canonical limbs in the base field Fp (the curve's fp_from_limbs
//                        reads them; on G2, phi scales x in Fp2 by it)
#pragma once
#include <cstdint>

#include "msm/booth.hpp"

namespace pp::msm {

template <class Curve>
struct glv {
  static constexpr bool available = false;
};

// One half of a split scalar: the magnitude (hi:lo) < 2^128 and the sign of its term.
struct glv_half {
  uint64_t lo, hi;
  bool negative;
};

// Halves are below 2^128, so their digits never read past bit 128.
inline constexpr int glv_half_bits = 128;

// The split costs at most one coordinate per point (beta x: 48 bytes on BLS12-381's G1, 64 on
// BN254's G2) and, from canonical scalars, 32 more (the halves): at most 384 MiB at this cap. Larger
// MSMs keep whole scalars; the CPU prover's memory estimate (groth16/prover.cpp) counts both.
inline constexpr int64_t glv_max_points = int64_t{1} << 22;

// The signed digit of window w (width c <= 24) of the 128-bit value (hi:lo), as booth_digit reads a
// 256-bit one: in [-2^(c-1), 2^(c-1)]; windows w < ceil(digit_bits / c) recompose the value when it
// is below 2^(digit_bits - 1).
inline int32_t glv_digit(uint64_t lo, uint64_t hi, int w, int c) {
  const unsigned __int128 k = (static_cast<unsigned __int128>(hi) << 64) | lo;
  const int pos = c * w - 1;  // v holds bits [pos, pos + c]: bit 0 the borrow-in, bit c the sign
  const unsigned __int128 window = w == 0 ? k << 1 : (pos >= glv_half_bits ? 0 : k >> pos);
  const uint64_t v = static_cast<uint64_t>(window) & ((uint64_t{2} << c) - 1);
  const int64_t top = static_cast<int64_t>(v >> c);
  return static_cast<int32_t>(static_cast<int64_t>(v >> 1) + static_cast<int64_t>(v & 1) - (top << c));
}

}  // namespace pp::msm
