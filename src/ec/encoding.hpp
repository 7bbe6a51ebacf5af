// Point encodings of Filecoin / bellperson / zcash (zcash "BLS12-381" serialization spec):
// big-endian coordinates, G2 coordinates as c1 || c0, flags in the top 3 bits of byte 0:
// 0x80 compressed, 0x40 point at infinity, 0x20 sign (y lexicographically largest; for G2 y.c1
// decides unless it is 0, then y.c0). Sizes: G1 48 / 96 B, G2 96 / 192 B (compressed / not).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>

#include "core/result.hpp"
#include "ec/affine.hpp"

namespace pp::ec {

template <class Curve>
struct encoding_sizes;
template <>
struct encoding_sizes<g1_curve> {
  static constexpr std::size_t compressed = 48;
  static constexpr std::size_t uncompressed = 96;
};
template <>
struct encoding_sizes<g2_curve> {
  static constexpr std::size_t compressed = 96;
  static constexpr std::size_t uncompressed = 192;
};

template <class Curve>
using compressed_bytes = std::array<uint8_t, encoding_sizes<Curve>::compressed>;
template <class Curve>
using uncompressed_bytes = std::array<uint8_t, encoding_sizes<Curve>::uncompressed>;

inline constexpr uint8_t flag_compressed = 0x80;
inline constexpr uint8_t flag_infinity = 0x40;
inline constexpr uint8_t flag_sign = 0x20;

// Encoders take any stored point; infinity encodes as the flags alone with zero coordinates.
template <class Curve>
compressed_bytes<Curve> encode_compressed(const affine<Curve>& p);
template <class Curve>
uncompressed_bytes<Curve> encode_uncompressed(const affine<Curve>& p);

// Full validation: length, flags, canonical coordinates (< p), on the curve (for compressed: x^3 + b
// has a square root), in the prime-order subgroup. Every failure is invalid_argument with its own
// message, prefixed with the curve and encoding ("g2 compressed: ...").
template <class Curve>
result<affine<Curve>> decode_compressed(std::span<const uint8_t> in);
template <class Curve>
result<affine<Curve>> decode_uncompressed(std::span<const uint8_t> in);

// For trusted inputs only (proving keys this process wrote or already verified): checks length,
// flags and canonical coordinates, but NOT that the point is on the curve or in the subgroup.
template <class Curve>
result<affine<Curve>> decode_uncompressed_unchecked(std::span<const uint8_t> in);
// Compressed without the subgroup check (on-curve still holds: y is computed from x).
template <class Curve>
result<affine<Curve>> decode_compressed_unchecked(std::span<const uint8_t> in);

extern template compressed_bytes<g1_curve> encode_compressed(const g1_affine&);
extern template compressed_bytes<g2_curve> encode_compressed(const g2_affine&);
extern template uncompressed_bytes<g1_curve> encode_uncompressed(const g1_affine&);
extern template uncompressed_bytes<g2_curve> encode_uncompressed(const g2_affine&);
extern template result<g1_affine> decode_compressed<g1_curve>(std::span<const uint8_t>);
extern template result<g2_affine> decode_compressed<g2_curve>(std::span<const uint8_t>);
extern template result<g1_affine> decode_uncompressed<g1_curve>(std::span<const uint8_t>);
extern template result<g2_affine> decode_uncompressed<g2_curve>(std::span<const uint8_t>);
extern template result<g1_affine> decode_uncompressed_unchecked<g1_curve>(std::span<const uint8_t>);
extern template result<g2_affine> decode_uncompressed_unchecked<g2_curve>(std::span<const uint8_t>);
extern template result<g1_affine> decode_compressed_unchecked<g1_curve>(std::span<const uint8_t>);
extern template result<g2_affine> decode_compressed_unchecked<g2_curve>(std::span<const uint8_t>);

// Named shorthands for callers that do not template over the curve.
inline result<g1_affine> decode_g1_compressed(std::span<const uint8_t> in) { return decode_compressed<g1_curve>(in); }
inline result<g1_affine> decode_g1_uncompressed(std::span<const uint8_t> in) { return decode_uncompressed<g1_curve>(in); }
inline result<g2_affine> decode_g2_compressed(std::span<const uint8_t> in) { return decode_compressed<g2_curve>(in); }
inline result<g2_affine> decode_g2_uncompressed(std::span<const uint8_t> in) { return decode_uncompressed<g2_curve>(in); }

}  // namespace pp::ec
