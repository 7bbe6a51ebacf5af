// Montgomery multiplication with 64-bit limbs (host path; also the portable device fallback).
// CIOS with the "no-carry" shortcut (gnark-crypto, Montgomery multiplication notes): valid when the
// modulus' top limb is below 2^63 - 1, true for BLS12-381 p and r. Cost: 2N^2 + N 64x64 products.
#pragma once
#include <cstdint>

#include "ff/hd.hpp"
#include "ff/limbs.hpp"

namespace pp::ff::host_path {

using u128 = unsigned __int128;

template <class P>
PP_HD void mont_mul(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  constexpr int N = P::n64;
  static_assert(P::modulus[N - 1] < 0x7fffffffffffffffull, "no-carry CIOS needs a spare top bit");
  uint64_t t[N] = {};
PP_UNROLL
  for (int i = 0; i < N; ++i) {
    u128 acc = u128(a[0]) * b[i] + t[0];
    uint64_t A = uint64_t(acc >> 64);
    t[0] = uint64_t(acc);
    const uint64_t m = t[0] * P::inv;
    acc = u128(m) * P::modulus[0] + t[0];
    uint64_t C = uint64_t(acc >> 64);
PP_UNROLL
    for (int j = 1; j < N; ++j) {
      acc = u128(a[j]) * b[i] + t[j] + A;
      A = uint64_t(acc >> 64);
      t[j] = uint64_t(acc);
      acc = u128(m) * P::modulus[j] + t[j] + C;
      C = uint64_t(acc >> 64);
      t[j - 1] = uint64_t(acc);
    }
    t[N - 1] = C + A;
  }
  uint64_t r[N];
  const uint64_t borrow = limbs::sub<N>(r, t, P::modulus);
PP_UNROLL
  for (int i = 0; i < N; ++i) out[i] = borrow ? t[i] : r[i];
}

}  // namespace pp::ff::host_path
