// snarkjs's point encoding in .zkey and .ptau files ("LEM" in ffjavascript), for any curve: affine
// x || y, every Fp coordinate n8q = 8 n64 little-endian bytes in Montgomery form (R = 2^(64 n64): the
// same R as ff::mont_field), an Fp2 coordinate as c0 || c1, the point at infinity as all zeros, no
// flags. That is the byte image of ec::affine<Curve> on a little-endian host, so BLS12-381 (96 / 192
// bytes) and BN254 (bn128: 64 / 128 bytes) keys are copied into storage whole and checked in place.
// Host only.
#pragma once
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

#include "core/result.hpp"
#include "ec/subgroup.hpp"

namespace pp::ec {

static_assert(std::endian::native == std::endian::little, "LEM bytes are the little-endian limbs in memory");

template <class Curve>
inline constexpr std::size_t lem_size = 2 * sizeof(typename Curve::field);
template <class Curve>
using lem_bytes = std::array<uint8_t, lem_size<Curve>>;

// How much decode_lem checks beyond the length: canonical coordinates (< p) always; then on the
// curve; then in the prime-order subgroup.
enum class lem_check { range_only, on_curve, subgroup };

namespace detail {
template <class P>
bool limbs_below_modulus(const ff::mont_field<P>& a) {
  return ff::limbs::cmp<P::n64>(a.l, P::modulus) < 0;
}
template <class T>
bool limbs_below_modulus(const ff::fp2_t<T>& a) {
  return limbs_below_modulus(a.c0) && limbs_below_modulus(a.c1);
}
}  // namespace detail

// True when every Fp component of both coordinates, read as stored, is below p (a Montgomery form
// is in [0, p) exactly when the integer it stands for is).
template <class Curve>
bool coordinates_in_range(const affine<Curve>& p) {
  return detail::limbs_below_modulus(p.x) && detail::limbs_below_modulus(p.y);
}

template <class Curve>
lem_bytes<Curve> encode_lem(const affine<Curve>& p) {
  static_assert(sizeof(affine<Curve>) == lem_size<Curve>, "storage has no padding");
  lem_bytes<Curve> out;
  std::memcpy(out.data(), &p, out.size());
  return out;
}

// Every failure is invalid_argument naming the curve ("bn254_g2 lem: ...").
template <class Curve>
result<affine<Curve>> decode_lem(std::span<const uint8_t> in, lem_check check) {
  const auto error = [](const std::string& what) {
    return invalid_argument(std::string(Curve::name) + " lem: " + what);
  };
  if (in.size() != lem_size<Curve>) {
    return error("expected " + std::to_string(lem_size<Curve>) + " bytes, got " + std::to_string(in.size()));
  }
  affine<Curve> p;
  std::memcpy(&p, in.data(), lem_size<Curve>);
  if (!coordinates_in_range(p)) return error("a coordinate is not canonical (>= p)");
  if (check == lem_check::range_only || is_infinity(p)) return p;
  if (!is_on_curve(p)) return error("point is not on the curve y^2 = x^3 + b");
  if (check == lem_check::subgroup && !is_in_subgroup(p)) {
    return error("point is not in the prime-order subgroup");
  }
  return p;
}

}  // namespace pp::ec
