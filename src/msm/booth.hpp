// Signed (Booth) window digits of a 255-bit scalar, read straight from its canonical limbs.
// Window w of width c holds the digit d_w = v_w + b(cw-1) - 2^c b(cw+c-1), where v_w is the c-bit
// value of bits [cw, cw+c) and b(i) is bit i (b(-1) = 0). Sum over w of 2^(cw) d_w telescopes to k
// when b(cW-1) = 0, i.e. cW >= 256 (k < r < 2^255). Each digit needs only its own c+1 bits, so
// windows are independent (no carry chain) and |d_w| <= 2^(c-1): 2^(c-1) buckets per window.
#pragma once
#include <cstdint>

namespace pp::msm {

// A scalar's canonical integer (not Montgomery form), 4 little-endian limbs.
struct canonical_scalar {
  uint64_t l[4];
};
static_assert(sizeof(canonical_scalar) == 32);

inline constexpr int scalar_bits = 256;  // windows must cover bit 255 (zero) for the top digit

// Windows of width c needed so that c * windows >= 256.
constexpr int num_windows(int c) { return (scalar_bits + c - 1) / c; }

// len (<= 63) bits of k starting at bit pos (>= 0); bits at 256 and beyond read as zero.
inline uint64_t scalar_bits_at(const canonical_scalar& k, int pos, int len) {
  if (pos >= scalar_bits) return 0;
  const int li = pos >> 6, sh = pos & 63;
  uint64_t v = k.l[li] >> sh;
  if (sh + len > 64 && li + 1 < 4) v |= k.l[li + 1] << (64 - sh);
  return v & ((uint64_t{1} << len) - 1);
}

// The signed digit of window w (width c, 1 <= c <= 24), in [-2^(c-1), 2^(c-1)].
inline int32_t booth_digit(const canonical_scalar& k, int w, int c) {
  // v holds bits [cw - 1, cw + c - 1]: bit 0 is the borrow-in b(cw-1), bit c the sign bit.
  const uint64_t v = w == 0 ? scalar_bits_at(k, 0, c) << 1 : scalar_bits_at(k, c * w - 1, c + 1);
  const int64_t top = static_cast<int64_t>((v >> c) & 1);
  return static_cast<int32_t>(static_cast<int64_t>(v >> 1) + static_cast<int64_t>(v & 1) - (top << c));
}

}  // namespace pp::msm
