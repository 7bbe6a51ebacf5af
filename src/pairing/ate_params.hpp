// What an optimal ate pairing needs beyond the curves, per curve family: the Miller loop's scalar as
// signed digits, what follows the loop, and 3 b' on the twist. ate_params<Family> is specialized in
// pairing/bls12_381_ate.hpp and pairing/bn254_ate.hpp; the Miller loop (miller_loop_impl.hpp) and
// the line functions (line_functions.hpp) are written once over it.
#pragma once
#include <cstdint>

namespace pp::pairing {

// A loop scalar as digits in {-1, 0, 1}, most significant first; d[0] = 1. Room for the NAF of any
// 128-bit value (129 digits).
struct loop_digits {
  int8_t d[130];
  int n;
};

// The binary digits of v > 0.
constexpr loop_digits binary_digits(unsigned __int128 v) {
  loop_digits out{};
  int8_t rev[130] = {};
  while (v != 0) {
    rev[out.n++] = static_cast<int8_t>(v & 1);
    v >>= 1;
  }
  for (int i = 0; i < out.n; ++i) out.d[i] = rev[out.n - 1 - i];
  return out;
}

// The non-adjacent form of v > 0: no two adjacent nonzero digits, so fewer additions than binary.
constexpr loop_digits naf_digits(unsigned __int128 v) {
  loop_digits out{};
  int8_t rev[130] = {};
  while (v != 0) {
    int8_t z = 0;
    if (v & 1) {
      z = (v & 3) == 1 ? 1 : -1;
      v = z == 1 ? v - 1 : v + 1;
    }
    rev[out.n++] = z;
    v >>= 1;
  }
  for (int i = 0; i < out.n; ++i) out.d[i] = rev[out.n - 1 - i];
  return out;
}

// Specialized per family with:
//   static constexpr loop_digits loop;     the Miller loop's scalar
//   static constexpr bool conjugate;       f -> conj(f) after the loop (a negative loop scalar)
//   static constexpr bool frobenius_lines; two lines through psi(Q) and -psi^2(Q) after the loop (BN)
//   PP_HD static fp2 mul_by_3b(fp2);       3 b' a, b' the twist's coefficient
template <class Family>
struct ate_params;

}  // namespace pp::pairing
