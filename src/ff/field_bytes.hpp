// Host-only conversions of a mont_field<P> to and from its canonical integer: bytes (big- and
// little-endian, exactly n_bytes long), decimal strings (snarkjs JSON) and hex strings.
// Every parser range-checks (value < modulus) and returns pp::result; printers never fail.
#pragma once
#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "core/status.hpp"
#include "ff/bls12_381_constants.hpp"
#include "ff/bn254_constants.hpp"
#include "ff/limbs.hpp"
#include "ff/mont_field.hpp"

namespace pp::ff {

// The name error messages use for a field.
template <class P>
inline constexpr std::string_view field_name = "field";
template <>
inline constexpr std::string_view field_name<fp_params> = "fp";
template <>
inline constexpr std::string_view field_name<fr_params> = "fr";
template <>
inline constexpr std::string_view field_name<bn254::fp_params> = "bn254 fp";
template <>
inline constexpr std::string_view field_name<bn254::fr_params> = "bn254 fr";

namespace detail {

template <class F>
std::string field_error(std::string_view what) {
  std::string m(field_name<typename F::params>);
  m += ": ";
  m += what;
  return m;
}

// Range check shared by every parser: canonical limbs -> Montgomery form, or invalid_argument.
template <class F>
result<F> from_canonical_limbs(const uint64_t* v, std::string_view source) {
  F out;
  if (!F::from_canonical_checked(v, out)) {
    return invalid_argument(field_error<F>(std::string(source) + " value >= modulus"));
  }
  return out;
}

template <class F>
status check_length(std::size_t got) {
  if (got == static_cast<std::size_t>(F::n_bytes)) return ok_status();
  return invalid_argument(field_error<F>("expected " + std::to_string(F::n_bytes) + " bytes, got " +
                                         std::to_string(got)));
}

// a = a * m + add on N limbs; returns the limb carried out of the top (nonzero means overflow).
template <int N>
uint64_t mul_add_small(uint64_t* a, uint64_t m, uint64_t add) {
  unsigned __int128 carry = add;
  for (int i = 0; i < N; ++i) {
    carry += static_cast<unsigned __int128>(a[i]) * m;
    a[i] = static_cast<uint64_t>(carry);
    carry >>= 64;
  }
  return static_cast<uint64_t>(carry);
}

// a = a / d on N limbs, returns a mod d (schoolbook long division by one limb, top limb first).
template <int N>
uint64_t div_small(uint64_t* a, uint64_t d) {
  unsigned __int128 rem = 0;
  for (int i = N - 1; i >= 0; --i) {
    const unsigned __int128 cur = (rem << 64) | a[i];
    a[i] = static_cast<uint64_t>(cur / d);
    rem = cur % d;
  }
  return static_cast<uint64_t>(rem);
}

// A character for an error message: printable ASCII as 'c', anything else as 0xNN.
inline std::string describe_char(char ch) {
  const auto u = static_cast<unsigned char>(ch);
  if (u >= 0x20 && u < 0x7f) return std::string("'") + ch + "'";
  static constexpr char hex[] = "0123456789abcdef";
  return std::string("0x") + hex[u >> 4] + hex[u & 0xf];
}

inline constexpr uint64_t pow10_19 = 10'000'000'000'000'000'000ull;  // largest power of 10 in 64 bits

}  // namespace detail

// ---- bytes -------------------------------------------------------------------------------------

template <class F>
std::array<uint8_t, F::n_bytes> to_bytes_le(const F& a) {
  uint64_t c[F::n64];
  a.to_canonical(c);
  std::array<uint8_t, F::n_bytes> out{};
  for (int i = 0; i < F::n_bytes; ++i) out[i] = static_cast<uint8_t>(c[i / 8] >> (8 * (i % 8)));
  return out;
}

template <class F>
std::array<uint8_t, F::n_bytes> to_bytes_be(const F& a) {
  const auto le = to_bytes_le(a);
  std::array<uint8_t, F::n_bytes> out{};
  for (int i = 0; i < F::n_bytes; ++i) out[i] = le[F::n_bytes - 1 - i];
  return out;
}

// Reads exactly F::n_bytes little-endian bytes of a canonical integer < modulus.
template <class F>
result<F> from_bytes_le(std::span<const uint8_t> in) {
  if (status s = detail::check_length<F>(in.size()); !s.ok()) return s;
  uint64_t c[F::n64] = {};
  for (int i = 0; i < F::n_bytes; ++i) c[i / 8] |= static_cast<uint64_t>(in[i]) << (8 * (i % 8));
  return detail::from_canonical_limbs<F>(c, "little-endian bytes:");
}

// Reads exactly F::n_bytes big-endian bytes of a canonical integer < modulus.
template <class F>
result<F> from_bytes_be(std::span<const uint8_t> in) {
  if (status s = detail::check_length<F>(in.size()); !s.ok()) return s;
  uint64_t c[F::n64] = {};
  for (int i = 0; i < F::n_bytes; ++i) {
    const int k = F::n_bytes - 1 - i;  // weight of in[i] in bytes
    c[k / 8] |= static_cast<uint64_t>(in[i]) << (8 * (k % 8));
  }
  return detail::from_canonical_limbs<F>(c, "big-endian bytes:");
}

// ---- decimal -----------------------------------------------------------------------------------

// The canonical integer in decimal, no sign, no leading zeros ("0" for zero).
template <class F>
std::string to_decimal(const F& a) {
  uint64_t c[F::n64];
  a.to_canonical(c);
  // Peel base-10^19 digits off the bottom; each is printed as exactly 19 decimal digits except the top.
  uint64_t chunks[(F::n64 * 64) / 63 + 1];
  int n_chunks = 0;
  do {
    chunks[n_chunks++] = detail::div_small<F::n64>(c, detail::pow10_19);
  } while (!limbs::is_zero<F::n64>(c));
  std::string out = std::to_string(chunks[n_chunks - 1]);
  for (int i = n_chunks - 2; i >= 0; --i) {
    const std::string part = std::to_string(chunks[i]);
    out.append(19 - part.size(), '0');
    out += part;
  }
  return out;
}

// Parses an unsigned decimal integer < modulus: one or more ASCII digits, nothing else (no sign,
// no spaces). Leading zeros are accepted, since the value, not the spelling, is range-checked.
template <class F>
result<F> from_decimal(std::string_view s) {
  if (s.empty()) return invalid_argument(detail::field_error<F>("empty decimal string"));
  uint64_t c[F::n64] = {};
  bool overflow = false;
  std::size_t pos = 0;
  while (pos < s.size()) {
    // Fold up to 19 digits at a time: c = c * 10^k + chunk (one limb pass per chunk).
    uint64_t chunk = 0, scale = 1;
    for (int k = 0; k < 19 && pos < s.size(); ++k, ++pos) {
      const char ch = s[pos];
      if (ch < '0' || ch > '9') {
        return invalid_argument(detail::field_error<F>("invalid decimal character " + detail::describe_char(ch) +
                                                       " at position " + std::to_string(pos)));
      }
      chunk = chunk * 10 + static_cast<uint64_t>(ch - '0');
      scale *= 10;
    }
    // Once the value exceeds 2^(64*n64) it is >= modulus for good; keep scanning to validate characters.
    if (!overflow && detail::mul_add_small<F::n64>(c, scale, chunk) != 0) overflow = true;
  }
  if (overflow) return invalid_argument(detail::field_error<F>("decimal value >= modulus"));
  return detail::from_canonical_limbs<F>(c, "decimal");
}

// ---- hex ---------------------------------------------------------------------------------------

// The canonical integer as "0x" and lowercase hex digits without leading zeros ("0x0" for zero).
template <class F>
std::string to_hex(const F& a) {
  uint64_t c[F::n64];
  a.to_canonical(c);
  static constexpr char digits[] = "0123456789abcdef";
  std::string out = "0x";
  bool started = false;
  for (int i = F::n64 * 16 - 1; i >= 0; --i) {
    const unsigned d = static_cast<unsigned>(c[i / 16] >> (4 * (i % 16))) & 0xf;
    if (d == 0 && !started && i != 0) continue;
    started = true;
    out += digits[d];
  }
  return out;
}

// Parses hex digits (either case) < modulus with an optional "0x"/"0X" prefix; at least one digit,
// no sign, no spaces. Leading zeros are accepted.
template <class F>
result<F> from_hex(std::string_view s) {
  std::size_t pos = 0;
  if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) pos = 2;
  if (pos == s.size()) return invalid_argument(detail::field_error<F>("hex string has no digits"));
  uint64_t c[F::n64] = {};
  bool overflow = false;
  for (; pos < s.size(); ++pos) {
    const char ch = s[pos];
    uint64_t d;
    if (ch >= '0' && ch <= '9') {
      d = static_cast<uint64_t>(ch - '0');
    } else if (ch >= 'a' && ch <= 'f') {
      d = static_cast<uint64_t>(ch - 'a' + 10);
    } else if (ch >= 'A' && ch <= 'F') {
      d = static_cast<uint64_t>(ch - 'A' + 10);
    } else {
      return invalid_argument(detail::field_error<F>("invalid hex character " + detail::describe_char(ch) +
                                                     " at position " + std::to_string(pos)));
    }
    if (!overflow && detail::mul_add_small<F::n64>(c, 16, d) != 0) overflow = true;
  }
  if (overflow) return invalid_argument(detail::field_error<F>("hex value >= modulus"));
  return detail::from_canonical_limbs<F>(c, "hex");
}

}  // namespace pp::ff
