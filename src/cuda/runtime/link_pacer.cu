// link_pacer (link_pacer.hpp): the reservation and hold kernels, one thread each.
#include "cuda/runtime/link_pacer.hpp"

#include "core/cuda_try.hpp"

namespace pp::cuda {
namespace {

__device__ unsigned long long global_ns() {
  unsigned long long t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}

// [start, start + ns) with start = max(now, the link's last end); the end into *slot.
__global__ void reserve_kernel(unsigned long long* clock, unsigned long long* slot, unsigned long long ns) {
  const unsigned long long now = global_ns();
  unsigned long long seen = *reinterpret_cast<volatile unsigned long long*>(clock);
  for (;;) {
    const unsigned long long end = (now > seen ? now : seen) + ns;
    const unsigned long long was = atomicCAS(clock, seen, end);
    if (was == seen) {
      *slot = end;
      return;
    }
    seen = was;
  }
}

__global__ void hold_kernel(const unsigned long long* slot) {
  const unsigned long long end = *reinterpret_cast<const volatile unsigned long long*>(slot);
  while (global_ns() < end) __nanosleep(2000);
}

}  // namespace

link_pace link_pace_for(void* d_state, uint32_t index, double bytes_per_s) {
  link_pace p;
  if (bytes_per_s <= 0 || d_state == nullptr) return p;
  auto* words = static_cast<unsigned long long*>(d_state);
  p.d_clock = words;
  p.d_slot = words + 1 + index;
  p.ns_per_byte = 1e9 / bytes_per_s;
  return p;
}

status link_pacer_clear(void* d_state, uint32_t streams, cudaStream_t stream) {
  PP_CUDA_TRY(cudaMemsetAsync(d_state, 0, link_pacer_bytes(streams), stream));
  return ok_status();
}

status link_pace_begin(const link_pace& p, uint64_t bytes, cudaStream_t stream) {
  if (!p.paced()) return ok_status();
  reserve_kernel<<<1, 1, 0, stream>>>(p.d_clock, p.d_slot, static_cast<unsigned long long>(double(bytes) * p.ns_per_byte));
  PP_CUDA_TRY(cudaGetLastError());
  return ok_status();
}

status link_pace_end(const link_pace& p, cudaStream_t stream) {
  if (!p.paced()) return ok_status();
  hold_kernel<<<1, 1, 0, stream>>>(p.d_slot);
  PP_CUDA_TRY(cudaGetLastError());
  return ok_status();
}

}  // namespace pp::cuda
