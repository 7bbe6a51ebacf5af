// Kernels of the GPU MSM (msm_device.hpp), templates over the curve; msm_run.cuh launches them.
// Pipeline: digits (scalar -> canonical -> W signed digits -> (bucket, point) keys) -> CUB radix
// sort by bucket -> segmented bucket sums (fixed entries per thread, carries for cut runs; a
// chunked MSM's later chunks merge theirs into the first's) -> running-sum bucket reduction per
// segment -> pairwise combine tree -> Horner over windows.
#pragma once
#include <cstdint>
#include <type_traits>

#include "ec/xyzz.hpp"

namespace pp::cuda::msm_detail {

inline constexpr uint32_t sign_bit = 0x80000000u;
inline constexpr uint32_t no_sentinel = 0xffffffffu;

template <class Curve>
using affine_t = ec::affine<Curve>;
template <class Curve>
using xyzz_t = ec::xyzz<Curve>;
template <class Curve>
using scalar_t = typename Curve::scalar_field;

__device__ __forceinline__ uint64_t global_thread() { return uint64_t(blockIdx.x) * blockDim.x + threadIdx.x; }

// len (<= 63) bits of k from bit pos; bits at 256 and beyond read as zero. Mirrors
// msm::scalar_bits_at (msm/booth.hpp), which is host-only. Both curves' scalars are 4 limbs (255 and
// 254 bits): digits above the top bit are zero.
__device__ __forceinline__ uint64_t scalar_bits_at(const uint64_t (&k)[4], int pos, int len) {
  if (pos >= 256) return 0;
  const int li = pos >> 6, sh = pos & 63;
  uint64_t v = k[li] >> sh;
  if (sh + len > 64 && li + 1 < 4) v |= k[li + 1] << (64 - sh);
  return v & ((uint64_t{1} << len) - 1);
}

// The signed digit of window w, width c: the rule of msm::booth_digit, in [-2^(c-1), 2^(c-1)].
__device__ __forceinline__ int32_t booth_digit(const uint64_t (&k)[4], int w, int c) {
  const uint64_t v = w == 0 ? scalar_bits_at(k, 0, c) << 1 : scalar_bits_at(k, c * w - 1, c + 1);
  const int64_t top = int64_t((v >> c) & 1);
  return int32_t(int64_t(v >> 1) + int64_t(v & 1) - (top << c));
}

// Entry e = v * n + i for digit v < digits: key = bucket id w * 2^(c-1) + |d| - 1 (or the sentinel
// windows * 2^(c-1) for d = 0, sorted past every bucket), value = point index | sign bit for d < 0.
// Without precomputed copies (windows = digits) w = v and the point is p; with them (windows =
// group_windows, msm_plan.hpp) w = v mod windows and the point is p's copy v / windows, at
// (v / windows) * stride + p. With idx, slot i reads scalar and point idx[i] and slots i >= *d_count
// are empty (sentinel).
template <class Curve>
__global__ void digits_kernel(const scalar_t<Curve>* __restrict__ scalars, const uint32_t* __restrict__ idx,
                              const uint32_t* __restrict__ d_count, uint32_t n, int c, int digits, int windows,
                              uint32_t stride, uint32_t* __restrict__ keys, uint32_t* __restrict__ vals) {
  const uint64_t i = global_thread();
  if (i >= n) return;
  const uint32_t sentinel = uint32_t(windows) << (c - 1);
  const uint32_t count = d_count != nullptr ? *d_count : n;
  if (i >= count) {
    for (int v = 0; v < digits; ++v) {
      keys[uint64_t(v) * n + i] = sentinel;
      vals[uint64_t(v) * n + i] = 0;
    }
    return;
  }
  const uint32_t p = idx != nullptr ? idx[i] : uint32_t(i);
  static_assert(scalar_t<Curve>::n64 == 4, "scalar_bits_at reads 4 limbs");
  uint64_t k[4];
  scalars[p].to_canonical(k);
  int w = 0;
  uint32_t point = p;
  for (int v = 0; v < digits; ++v) {
    const int32_t d = booth_digit(k, v, c);
    const uint32_t mag = uint32_t(d < 0 ? -d : d);
    keys[uint64_t(v) * n + i] = d == 0 ? sentinel : (uint32_t(w) << (c - 1)) + mag - 1;
    vals[uint64_t(v) * n + i] = point | (d < 0 ? sign_bit : 0u);
    if (++w == windows) {
      w = 0;
      point += stride;
    }
  }
}

// 16-byte asynchronous copies global -> shared (cp.async, sm_80+), completed in commit groups.
__device__ __forceinline__ void cp_async16(void* smem, const void* gmem) {
  const auto s = static_cast<uint32_t>(__cvta_generic_to_shared(smem));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16;" ::"r"(s), "l"(gmem) : "memory");
}
__device__ __forceinline__ void cp_async_commit() { asm volatile("cp.async.commit_group;" ::: "memory"); }
template <int Pending>
__device__ __forceinline__ void cp_async_wait() {
  asm volatile("cp.async.wait_group %0;" ::"n"(Pending) : "memory");
}

// Entry i adds +-points[vals[i] & ~sign_bit] (mixed addition, madd-2008-s). The point is fetched
// one entry ahead: a random gather from HBM, whose latency otherwise stalls the warp at the start
// of every addition with only two warps per scheduler to cover it (H200: G1 2^24 119.0 -> 114.6 ms,
// docs/perf/msm-h200.md, "Point gathers fetched ahead"). It is copied into this thread's slot of a double buffer in
// shared memory while the current one is added, so it holds no registers across the addition (held
// in registers it cost G2's kernel ~150 bytes more stack and made it slower). Slots are laid out
// [buffer][16-byte piece][thread], so a warp's reads of one piece are consecutive (no bank
// conflicts). start(lo) fetches the first entry's point; take(a, i, hi) hands entry i's over and
// fetches entry i + 1's (entries below hi are readable, sentinels too); finish(a) before the thread
// exits. For blocks of Threads threads.
template <class Curve, int Threads>
struct point_source {
  // Blocks of Threads an SM holds while it accumulates: three for G1, whose kernel fits 168
  // registers, so 12 warps an SM cover the carry chains' latency (docs/perf/msm-h200.md, "Point gathers
  // fetched ahead", "Fp2 products in one pass, the Fp square"); G2's needs 255, holds two whatever the bound.
  static constexpr int min_blocks = std::is_same_v<typename Curve::field, typename Curve::family::fp> ? 3 : 1;
  static constexpr int pieces = int(sizeof(affine_t<Curve>) / 16);
  static_assert(sizeof(affine_t<Curve>) % 16 == 0);
  const affine_t<Curve>* __restrict__ points;
  const uint32_t* __restrict__ vals;
  struct operand {
    affine_t<Curve> p;
    uint32_t v;
  };
  struct ahead {
    uint4* slots;  // this block's [2][pieces][Threads]
    uint32_t next_v;
    int buf;
  };
  __device__ __forceinline__ void fetch(const ahead& a, int buf, uint32_t v) const {
    const auto* src = reinterpret_cast<const uint4*>(points + (v & ~sign_bit));
    uint4* dst = a.slots + uint64_t(buf) * pieces * Threads + threadIdx.x;
PP_UNROLL
    for (int k = 0; k < pieces; ++k) cp_async16(dst + k * Threads, src + k);
  }
  __device__ __forceinline__ ahead start(uint64_t lo) const {
    __shared__ uint4 slots[2 * pieces * Threads];
    ahead a{slots, vals[lo], 0};
    fetch(a, 0, a.next_v);
    cp_async_commit();
    return a;
  }
  __device__ __forceinline__ operand take(ahead& a, uint64_t i, uint64_t hi) const {
    const uint32_t v = a.next_v;
    if (i + 1 < hi) {
      a.next_v = vals[i + 1];
      fetch(a, a.buf ^ 1, a.next_v);
    }
    cp_async_commit();   // an empty group at the end keeps wait_group's count uniform
    cp_async_wait<1>();  // entry i's group is complete; i + 1's may still be in flight
    operand op;
    op.v = v;
    const uint4* src = a.slots + uint64_t(a.buf) * pieces * Threads + threadIdx.x;
    auto* dst = reinterpret_cast<uint4*>(&op.p);
PP_UNROLL
    for (int k = 0; k < pieces; ++k) dst[k] = src[k * Threads];
    a.buf ^= 1;
    return op;
  }
  // No copy may still be writing this thread's slots when it exits (a run ended at a sentinel).
  __device__ __forceinline__ void finish(const ahead&) const { cp_async_wait<0>(); }
  __device__ __forceinline__ xyzz_t<Curve> add_to(const xyzz_t<Curve>& acc, const operand& o) const {
    return ec::add(acc, (o.v & sign_bit) ? ec::neg(o.p) : o.p);
  }
};

// Entry i adds a partial XYZZ sum (add-2008-s), loaded where it is added: the carry passes are a
// few percent of the additions, and a sum held ahead costs twice the registers of a point. The
// operand take() hands over is the entry's index (point_source's interface, nothing fetched ahead).
template <class Curve>
struct partial_source {
  static constexpr int min_blocks = 1;
  const xyzz_t<Curve>* __restrict__ vals;
  struct ahead {};
  __device__ __forceinline__ ahead start(uint64_t) const { return {}; }
  __device__ __forceinline__ uint64_t take(ahead&, uint64_t i, uint64_t) const { return i; }
  __device__ __forceinline__ void finish(const ahead&) const {}
  __device__ __forceinline__ xyzz_t<Curve> add_to(const xyzz_t<Curve>& acc, uint64_t i) const {
    return ec::add(acc, vals[i]);
  }
};

// Segmented sum over entries sorted by key: thread t folds entries [t*chunk, (t+1)*chunk). A run of
// equal keys lying wholly inside the chunk is written to buckets[key]; a run cut by the chunk's
// front goes to carry slot 2t, one cut by its back to slot 2t+1 (flag 1). In slot order, the pieces
// of one key stay adjacent, so compacting the flagged slots gives a sorted list for the next pass.
// m = *d_m when given, else m_bound. Entries with key == sentinel end the list.
template <class Curve, class Source>
__global__ void __launch_bounds__(128, Source::min_blocks)
    segmented_sum_kernel(const uint32_t* __restrict__ keys, Source src, uint64_t m_bound,
                         const uint32_t* __restrict__ d_m, uint32_t sentinel, uint32_t chunk,
                         uint64_t threads, xyzz_t<Curve>* __restrict__ buckets,
                         uint32_t* __restrict__ slot_keys, uint8_t* __restrict__ slot_flags,
                         xyzz_t<Curve>* __restrict__ slot_vals) {
  const uint64_t t = global_thread();
  if (t >= threads) return;
  slot_flags[2 * t] = 0;
  slot_flags[2 * t + 1] = 0;
  const uint64_t m = d_m != nullptr ? *d_m : m_bound;
  const uint64_t lo = t * chunk;
  if (lo >= m) return;
  const uint64_t hi = lo + chunk < m ? lo + chunk : m;
  uint32_t cur = keys[lo];
  if (cur == sentinel) return;
  const bool open_front = lo > 0 && keys[lo - 1] == cur;
  auto flush = [&](uint32_t key, const xyzz_t<Curve>& acc, bool front, bool back) {
    if (!front && !back) {
      buckets[key] = acc;
      return;
    }
    const uint64_t slot = 2 * t + (front ? 0 : 1);
    slot_keys[slot] = key;
    slot_vals[slot] = acc;
    slot_flags[slot] = 1;
  };
  bool first = true;
  xyzz_t<Curve> acc = xyzz_t<Curve>::infinity();
  auto ahead = src.start(lo);
  uint64_t i = lo;
  for (; i < hi; ++i) {
    const uint32_t k = keys[i];
    if (k != cur) {
      flush(cur, acc, first && open_front, false);
      first = false;
      cur = k;
      if (k == sentinel) break;
      acc = xyzz_t<Curve>::infinity();
    }
    acc = src.add_to(acc, src.take(ahead, i, hi));
  }
  src.finish(ahead);
  if (cur != sentinel) {
    const bool open_back = i == hi && hi < m && keys[hi] == cur;
    flush(cur, acc, first && open_front, open_back);
  }
}

// One array a vector of the bucket reduction's kernels: vector j's at p + j * stride bytes (stride 0
// with one vector). Vectors reduced together share a shape, each vector's arrays one stride apart
// (msm_run.cuh, reduce_buckets).
template <class T>
struct strided {
  T* p = nullptr;
  uint64_t stride = 0;
  __host__ __device__ T* operator[](uint64_t j) const {
    using byte = std::conditional_t<std::is_const_v<T>, const char, char>;
    return reinterpret_cast<T*>(reinterpret_cast<byte*>(p) + j * stride);
  }
  // A template, so that strided<const T> declares no conversion to itself (nvcc warns of one).
  template <class U>
    requires(std::is_same_v<U, const T> && !std::is_const_v<T>)
  __host__ __device__ operator strided<U>() const {
    return {p, stride};
  }
};

// Thread (w, s) of vector blockIdx.y reduces buckets [s*L, (s+1)*L) of window w by running sums from
// the top: T = sum of the segment, S = sum over j of (j - s*L + 1) * bucket_j.
template <class Curve>
__global__ void __launch_bounds__(128) bucket_segments_kernel(strided<const xyzz_t<Curve>> buckets,
                                                              uint32_t buckets_per_window, uint32_t seg_len,
                                                              uint32_t segs, uint64_t threads,
                                                              strided<xyzz_t<Curve>> out_t,
                                                              strided<xyzz_t<Curve>> out_s) {
  const uint64_t t = global_thread();
  if (t >= threads) return;
  const uint64_t w = t / segs, s = t % segs;
  const xyzz_t<Curve>* b = buckets[blockIdx.y] + w * buckets_per_window + s * seg_len;
  xyzz_t<Curve> run = xyzz_t<Curve>::infinity(), sum = xyzz_t<Curve>::infinity();
  for (int j = int(seg_len) - 1; j >= 0; --j) {
    run = ec::add(run, b[j]);
    sum = ec::add(sum, run);
  }
  out_t[blockIdx.y][t] = run;
  out_s[blockIdx.y][t] = sum;
}

// One level of the combine tree, for vector blockIdx.y: segments a = 2j and b = 2j + 1 of equal
// length 2^log_len_a merge into (T_a + T_b, S_a + S_b + 2^log_len_a T_b); an unpaired last segment
// passes through.
template <class Curve>
__global__ void __launch_bounds__(128) segments_combine_kernel(strided<const xyzz_t<Curve>> in_t,
                                                               strided<const xyzz_t<Curve>> in_s,
                                                               uint32_t segs_in, uint32_t segs_out,
                                                               uint64_t threads, int log_len_a,
                                                               strided<xyzz_t<Curve>> out_t,
                                                               strided<xyzz_t<Curve>> out_s) {
  const uint64_t t = global_thread();
  if (t >= threads) return;
  const xyzz_t<Curve>* it = in_t[blockIdx.y];
  const xyzz_t<Curve>* is = in_s[blockIdx.y];
  xyzz_t<Curve>* ot = out_t[blockIdx.y];
  xyzz_t<Curve>* os = out_s[blockIdx.y];
  const uint64_t w = t / segs_out, j = t % segs_out;
  const uint64_t a = w * segs_in + 2 * j;
  if (2 * j + 1 >= segs_in) {
    ot[t] = it[a];
    os[t] = is[a];
    return;
  }
  const xyzz_t<Curve> tb = it[a + 1];
  xyzz_t<Curve> shifted = tb;
  for (int k = 0; k < log_len_a; ++k) shifted = ec::dbl(shifted);
  ot[t] = ec::add(it[a], tb);
  os[t] = ec::add(ec::add(is[a], is[a + 1]), shifted);
}

// Thread v < vectors, for vector v: Horner over windows (top first), acc = 2^c acc + S_w, then
// + *extra[v] when extra is given.
template <class Curve>
__global__ void window_combine_kernel(strided<const xyzz_t<Curve>> window_sums, uint32_t stride, int windows,
                                      int c, strided<const xyzz_t<Curve>> extra, uint32_t vectors,
                                      strided<xyzz_t<Curve>> out) {
  const uint64_t v = global_thread();
  if (v >= vectors) return;
  const xyzz_t<Curve>* sums = window_sums[v];
  xyzz_t<Curve> acc = xyzz_t<Curve>::infinity();
  for (int w = windows - 1; w >= 0; --w) {
    for (int k = 0; k < c; ++k) acc = ec::dbl(acc);
    acc = ec::add(acc, sums[uint64_t(w) * stride]);
  }
  if (extra.p != nullptr) acc = ec::add(acc, *extra[v]);
  *out[v] = acc;
}

// buckets[i] += later[i] for i < count (add-2008-s; infinity on either side): a later chunk's
// bucket sums into the sums of the chunks before it. Kept out of segmented_sum_kernel: a full
// addition at its flush raised that kernel to 252 registers with a stack frame and made it ~2.9x
// slower (docs/perf/msm-h200.md, "Shared buckets (reverted)").
template <class Curve>
__global__ void __launch_bounds__(128) merge_buckets_kernel(xyzz_t<Curve>* __restrict__ buckets,
                                                            const xyzz_t<Curve>* __restrict__ later,
                                                            uint64_t count) {
  const uint64_t i = global_thread();
  if (i >= count) return;
  const xyzz_t<Curve> x = later[i];
  if (ec::is_infinity(x)) return;
  buckets[i] = ec::add(buckets[i], x);
}

// One thread: *acc = *acc + *x (add-2008-s; either may be infinity, and equal or opposite sums
// take the dbl / infinity branch of ec::add). Adds a chunk's sum into the MSM's result.
template <class Curve>
__global__ void accumulate_kernel(xyzz_t<Curve>* acc, const xyzz_t<Curve>* x) {
  if (global_thread() != 0) return;
  *acc = ec::add(*acc, *x);
}

// Split MSM, scalar-1 points: the *d_count of them (counted on the device) shared evenly by the
// threads, thread t summing points idx[t*chunk ..) (mixed additions) into out[t], fetched one ahead
// as the accumulation's are (src: a point_source over idx, whose sign bits are 0).
template <class Curve, class Source>
__global__ void __launch_bounds__(128) gather_sum_kernel(Source src, const uint32_t* __restrict__ d_count,
                                                         uint64_t threads, xyzz_t<Curve>* __restrict__ out) {
  const uint64_t t = global_thread();
  if (t >= threads) return;
  const uint64_t count = *d_count;
  const uint64_t chunk = (count + threads - 1) / threads;
  const uint64_t lo = t * chunk;
  const uint64_t hi = lo + chunk < count ? lo + chunk : count;
  xyzz_t<Curve> acc = xyzz_t<Curve>::infinity();
  if (lo < hi) {
    auto ahead = src.start(lo);
    for (uint64_t i = lo; i < hi; ++i) acc = src.add_to(acc, src.take(ahead, i, hi));
    src.finish(ahead);
  }
  out[t] = acc;
}

// out[i] = in[2i] + in[2i+1] (the last one alone when n_in is odd).
template <class Curve>
__global__ void __launch_bounds__(128) pair_sum_kernel(const xyzz_t<Curve>* __restrict__ in, uint64_t n_in,
                                                       xyzz_t<Curve>* __restrict__ out) {
  const uint64_t i = global_thread();
  if (2 * i >= n_in) return;
  out[i] = 2 * i + 1 < n_in ? ec::add(in[2 * i], in[2 * i + 1]) : in[2 * i];
}

// Split classification predicates over point indices (cub::DeviceSelect::If), Fr the curve's scalars.
template <class Fr>
struct scalar_is_one {
  const Fr* scalars;
  __device__ __forceinline__ bool operator()(uint32_t i) const { return scalars[i] == Fr::one(); }
};
template <class Fr>
struct scalar_is_other {
  const Fr* scalars;
  __device__ __forceinline__ bool operator()(uint32_t i) const {
    const Fr s = scalars[i];
    return !s.is_zero() && !(s == Fr::one());
  }
};

}  // namespace pp::cuda::msm_detail
