// Loads and stores of one scalar-field element (either curve's Fr: 32 bytes, one sector) in global
// memory as two 16-byte vector accesses (nvcc only). The kernels of the NTT, SpMV, Groth16 QAP steps and witness upload
// share them.
#pragma once
#include <cuda_runtime.h>

#include "ff/fr.hpp"

namespace pp::cuda {

template <class Fr>
__device__ __forceinline__ Fr load_fr(const Fr* p) {
  static_assert(sizeof(Fr) == 32);
  const ulonglong2* q = reinterpret_cast<const ulonglong2*>(p);
  const ulonglong2 a = q[0], b = q[1];
  return Fr{{a.x, a.y, b.x, b.y}};
}
// Through the read-only data cache: for data no kernel in flight writes.
template <class Fr>
__device__ __forceinline__ Fr ldg_fr(const Fr* p) {
  static_assert(sizeof(Fr) == 32);
  const ulonglong2* q = reinterpret_cast<const ulonglong2*>(p);
  const ulonglong2 a = __ldg(q), b = __ldg(q + 1);
  return Fr{{a.x, a.y, b.x, b.y}};
}
template <class Fr>
__device__ __forceinline__ void store_fr(Fr* p, const Fr& v) {
  static_assert(sizeof(Fr) == 32);
  ulonglong2* q = reinterpret_cast<ulonglong2*>(p);
  q[0] = make_ulonglong2(v.l[0], v.l[1]);
  q[1] = make_ulonglong2(v.l[2], v.l[3]);
}

}  // namespace pp::cuda
