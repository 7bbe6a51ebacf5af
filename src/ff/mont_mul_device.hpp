// Device path of the Montgomery fields: 32-bit limbs with PTX carry chains.
// Only compiled in nvcc's device pass (PP_DEVICE_PASS). Placeholder: the portable 64-bit path.
#pragma once
#include <cstdint>

#include "ff/hd.hpp"
#include "ff/limbs.hpp"
#include "ff/mont_mul_host.hpp"

#if PP_DEVICE_PASS
namespace pp::ff::device_path {

template <class P>
__device__ __forceinline__ void mont_mul(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  host_path::mont_mul<P>(out, a, b);
}

template <class P>
__device__ __forceinline__ void mod_add(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  constexpr int N = P::n64;
  uint64_t s[N], r[N];
  limbs::add<N>(s, a, b);
  const uint64_t borrow = limbs::sub<N>(r, s, P::modulus);
  for (int i = 0; i < N; ++i) out[i] = borrow ? s[i] : r[i];
}

template <class P>
__device__ __forceinline__ void mod_sub(uint64_t* out, const uint64_t* a, const uint64_t* b) {
  constexpr int N = P::n64;
  uint64_t d[N], r[N];
  const uint64_t borrow = limbs::sub<N>(d, a, b);
  limbs::add<N>(r, d, P::modulus);
  for (int i = 0; i < N; ++i) out[i] = borrow ? r[i] : d[i];
}

}  // namespace pp::ff::device_path
#endif
