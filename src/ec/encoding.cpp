// zcash-style point encodings (see encoding.hpp): per-field byte layout, flag parsing and the
// checks behind every decoder, instantiated for G1 and G2.
#include "ec/encoding.hpp"

#include <algorithm>
#include <string>

#include "core/status_macros.hpp"
#include "ec/subgroup.hpp"
#include "ff/field_bytes.hpp"

namespace pp::ec {
namespace {

// Byte layout of one coordinate. fp: 48 big-endian bytes. fp2: c1 || c0, each as fp.
template <class F>
struct field_io;

template <>
struct field_io<ff::fp> {
  static constexpr std::size_t n_bytes = 48;
  static void write(const ff::fp& a, uint8_t* out) {
    const auto b = ff::to_bytes_be(a);
    std::copy(b.begin(), b.end(), out);
  }
  // Returns the failing component's name suffix ("" here), or nullptr when in is canonical.
  static const char* read(const uint8_t* in, ff::fp& out) {
    auto r = ff::from_bytes_be<ff::fp>(std::span<const uint8_t>(in, n_bytes));
    if (!r.ok()) return "";
    out = *r;
    return nullptr;
  }
  static bool sign(const ff::fp& a) { return ff::lexicographically_largest(a); }
};

template <>
struct field_io<ff::fp2> {
  static constexpr std::size_t n_bytes = 96;
  static void write(const ff::fp2& a, uint8_t* out) {
    field_io<ff::fp>::write(a.c1, out);
    field_io<ff::fp>::write(a.c0, out + 48);
  }
  static const char* read(const uint8_t* in, ff::fp2& out) {
    if (field_io<ff::fp>::read(in, out.c1)) return ".c1";
    if (field_io<ff::fp>::read(in + 48, out.c0)) return ".c0";
    return nullptr;
  }
  // zcash spec: the sign of y.c1, or of y.c0 when y.c1 = 0.
  static bool sign(const ff::fp2& a) {
    return a.c1.is_zero() ? ff::lexicographically_largest(a.c0) : ff::lexicographically_largest(a.c1);
  }
};

template <class Curve>
status error(const char* encoding, const std::string& what) {
  return invalid_argument(std::string(Curve::name) + " " + encoding + ": " + what);
}

// Checks length and flags shared by both forms. Sets is_inf; for compressed, sign is the sign flag.
template <class Curve>
status check_header(std::span<const uint8_t> in, bool compressed, bool& is_inf, bool& sign) {
  const char* enc = compressed ? "compressed" : "uncompressed";
  const std::size_t want = compressed ? encoding_sizes<Curve>::compressed : encoding_sizes<Curve>::uncompressed;
  if (in.size() != want) {
    return error<Curve>(enc, "expected " + std::to_string(want) + " bytes, got " + std::to_string(in.size()));
  }
  const uint8_t flags = in[0];
  const bool c_flag = flags & flag_compressed;
  if (compressed && !c_flag) {
    return error<Curve>(enc, "compression flag (0x80) is clear in a " + std::to_string(want) +
                                 "-byte compressed encoding");
  }
  if (!compressed && c_flag) {
    return error<Curve>(enc, "compression flag (0x80) is set in a " + std::to_string(want) +
                                 "-byte uncompressed encoding");
  }
  is_inf = flags & flag_infinity;
  sign = flags & flag_sign;
  if (is_inf) {
    if (sign) return error<Curve>(enc, "sign flag (0x20) is set on the point at infinity");
    const bool rest_zero = (flags & 0x1f) == 0 && std::all_of(in.begin() + 1, in.end(), [](uint8_t b) { return b == 0; });
    if (!rest_zero) return error<Curve>(enc, "infinity flag (0x40) is set but the coordinate bytes are not all zero");
  }
  if (!compressed && sign) return error<Curve>(enc, "sign flag (0x20) is set in an uncompressed encoding");
  return ok_status();
}

// Reads a coordinate at in with the flag bits of its first byte cleared when strip_flags.
template <class Curve>
status read_coordinate(const uint8_t* in, bool strip_flags, const char* enc, const char* name,
                       typename Curve::field& out) {
  using io = field_io<typename Curve::field>;
  uint8_t buf[io::n_bytes];
  std::copy(in, in + io::n_bytes, buf);
  if (strip_flags) buf[0] &= 0x1f;
  if (const char* bad = io::read(buf, out)) {
    return error<Curve>(enc, std::string(name) + bad + " coordinate is not canonical (>= p)");
  }
  return ok_status();
}

template <class Curve>
result<affine<Curve>> decode_compressed_impl(std::span<const uint8_t> in, bool check_subgroup) {
  constexpr const char* enc = "compressed";
  bool is_inf = false, sign = false;
  PP_RETURN_IF_ERROR(check_header<Curve>(in, true, is_inf, sign));
  if (is_inf) return affine<Curve>::infinity();
  typename Curve::field x;
  PP_RETURN_IF_ERROR(read_coordinate<Curve>(in.data(), true, enc, "x", x));
  affine<Curve> p;
  if (!lift_x<Curve>(x, p)) {
    return error<Curve>(enc, "x is not the x-coordinate of a curve point (x^3 + b is not a square)");
  }
  if (field_io<typename Curve::field>::sign(p.y) != sign) p.y = -p.y;
  if (check_subgroup && !is_in_subgroup(p)) return error<Curve>(enc, "point is not in the prime-order subgroup");
  return p;
}

template <class Curve>
result<affine<Curve>> decode_uncompressed_impl(std::span<const uint8_t> in, bool check_point) {
  constexpr const char* enc = "uncompressed";
  constexpr std::size_t half = encoding_sizes<Curve>::uncompressed / 2;
  bool is_inf = false, sign = false;
  PP_RETURN_IF_ERROR(check_header<Curve>(in, false, is_inf, sign));
  if (is_inf) return affine<Curve>::infinity();
  affine<Curve> p;
  PP_RETURN_IF_ERROR(read_coordinate<Curve>(in.data(), true, enc, "x", p.x));
  PP_RETURN_IF_ERROR(read_coordinate<Curve>(in.data() + half, false, enc, "y", p.y));
  // (0, 0) without the infinity flag is not on the curve, and in memory it would read as infinity
  // (our storage form): refuse it even when the caller trusts the file and skips the curve check.
  if (is_infinity(p)) return error<Curve>(enc, "point is not on the curve y^2 = x^3 + b");
  if (!check_point) return p;
  if (!is_on_curve(p)) return error<Curve>(enc, "point is not on the curve y^2 = x^3 + b");
  if (!is_in_subgroup(p)) return error<Curve>(enc, "point is not in the prime-order subgroup");
  return p;
}

}  // namespace

template <class Curve>
compressed_bytes<Curve> encode_compressed(const affine<Curve>& p) {
  compressed_bytes<Curve> out{};
  if (is_infinity(p)) {
    out[0] = flag_compressed | flag_infinity;
    return out;
  }
  using io = field_io<typename Curve::field>;
  io::write(p.x, out.data());
  out[0] |= flag_compressed | (io::sign(p.y) ? flag_sign : 0);
  return out;
}

template <class Curve>
uncompressed_bytes<Curve> encode_uncompressed(const affine<Curve>& p) {
  uncompressed_bytes<Curve> out{};
  if (is_infinity(p)) {
    out[0] = flag_infinity;
    return out;
  }
  using io = field_io<typename Curve::field>;
  io::write(p.x, out.data());
  io::write(p.y, out.data() + io::n_bytes);
  return out;
}

template <class Curve>
result<affine<Curve>> decode_compressed(std::span<const uint8_t> in) {
  return decode_compressed_impl<Curve>(in, true);
}
template <class Curve>
result<affine<Curve>> decode_compressed_unchecked(std::span<const uint8_t> in) {
  return decode_compressed_impl<Curve>(in, false);
}
template <class Curve>
result<affine<Curve>> decode_uncompressed(std::span<const uint8_t> in) {
  return decode_uncompressed_impl<Curve>(in, true);
}
template <class Curve>
result<affine<Curve>> decode_uncompressed_unchecked(std::span<const uint8_t> in) {
  return decode_uncompressed_impl<Curve>(in, false);
}

template compressed_bytes<g1_curve> encode_compressed(const g1_affine&);
template compressed_bytes<g2_curve> encode_compressed(const g2_affine&);
template uncompressed_bytes<g1_curve> encode_uncompressed(const g1_affine&);
template uncompressed_bytes<g2_curve> encode_uncompressed(const g2_affine&);
template result<g1_affine> decode_compressed<g1_curve>(std::span<const uint8_t>);
template result<g2_affine> decode_compressed<g2_curve>(std::span<const uint8_t>);
template result<g1_affine> decode_uncompressed<g1_curve>(std::span<const uint8_t>);
template result<g2_affine> decode_uncompressed<g2_curve>(std::span<const uint8_t>);
template result<g1_affine> decode_uncompressed_unchecked<g1_curve>(std::span<const uint8_t>);
template result<g2_affine> decode_uncompressed_unchecked<g2_curve>(std::span<const uint8_t>);
template result<g1_affine> decode_compressed_unchecked<g1_curve>(std::span<const uint8_t>);
template result<g2_affine> decode_compressed_unchecked<g2_curve>(std::span<const uint8_t>);

}  // namespace pp::ec
