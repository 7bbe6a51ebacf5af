// Host side of the GPU MSM (msm_device.hpp): the plan (the host's, msm_workspace.hpp) checked against
// CUB's temp-size queries, and the stream-ordered launch sequence. Included once per curve by
// msm_g1.cu, msm_g2.cu, msm_bn254_g1.cu and msm_bn254_g2.cu, which instantiate it.
#pragma once
#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_select.cuh>
#include <thrust/iterator/counting_iterator.h>

#include <algorithm>
#include <atomic>
#include <optional>
#include <string>
#include <type_traits>
#include <vector>

#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"
#include "cuda/msm/msm_device.hpp"
#include "cuda/msm/msm_kernels.cuh"
#include "cuda/msm/msm_packed_kernels.cuh"
#include "cuda/plan/msm_workspace.hpp"
#include "ec/bls12_381_curves.hpp"
#include "ec/bn254_curves.hpp"

namespace pp::cuda {
namespace msm_detail {

inline uint64_t blocks_for(uint64_t threads, int block) { return (threads + block - 1) / block; }

// Threads of Kernel (blocks of `block`, the same at every call) the current device runs at once:
// its SMs x the blocks an SM keeps resident (registers, shared memory), asked once per kernel and
// device; 0 when CUDA cannot say (the tuning's work a thread is kept then: accumulate_chunk_for,
// ones_threads_for).
template <auto Kernel>
uint64_t wave_threads(int block) {
  constexpr int max_devices = 64;
  static std::atomic<uint64_t> known[max_devices];
  int dev = 0;
  if (cudaGetDevice(&dev) != cudaSuccess || dev < 0 || dev >= max_devices) {
    (void)cudaGetLastError();
    return 0;
  }
  if (const uint64_t w = known[dev].load(std::memory_order_relaxed); w != 0) return w;
  int sms = 0, blocks = 0;
  if (cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) != cudaSuccess ||
      cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, Kernel, block, 0) != cudaSuccess) {
    (void)cudaGetLastError();
    return 0;
  }
  const uint64_t w = uint64_t(sms) * uint64_t(blocks) * uint64_t(block);
  known[dev].store(w, std::memory_order_relaxed);
  return w;
}

// point_source (msm_kernels.cuh) stages points in 16-byte pieces (cp.async), laid out for
// msm_tuning_sm90's blocks.
inline status check_staging(int block, const void* d_points) {
  if (block != msm_tuning_sm90.block_threads) {
    return internal_error("GPU MSM: the point staging is built for blocks of " +
                          std::to_string(msm_tuning_sm90.block_threads) + " threads, not " + std::to_string(block));
  }
  if (reinterpret_cast<uintptr_t>(d_points) % 16 != 0) return invalid_argument("GPU MSM: points not 16-byte aligned");
  return ok_status();
}

template <class T>
T* at(void* base, uint64_t offset) {
  return reinterpret_cast<T*>(static_cast<char*>(base) + offset);
}

// The group of Curve's points, as the host plan (msm_workspace.hpp) knows it.
template <class Curve>
constexpr msm_group group_of() {
  constexpr msm_group g = msm_group_of<Curve>();
  static_assert(sizeof(affine_t<Curve>) == g.point_bytes && sizeof(xyzz_t<Curve>) == g.bucket_bytes,
                "the host plan's point and bucket sizes are the kernels'");
  return g;
}

// CUB's temp-storage sizes for one pass of shape s, asked of the device (size queries only: no
// device work); msm_cub_temp_bytes models the same queries on the host.
template <class Curve>
result<cub_temp_bytes> query_cub_temp(const msm_shape& s) {
  using bucket = xyzz_t<Curve>;
  size_t sort_bytes = 0, sel_keys = 0, sel_vals = 0, sel_idx = 0;
  cub::DoubleBuffer<uint32_t> kb(nullptr, nullptr), vb(nullptr, nullptr);
  PP_CUDA_TRY(cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, kb, vb, int(std::max<uint64_t>(s.entries, 1)), 0,
                                              s.key_bits));
  const int slots = int(s.slots);
  PP_CUDA_TRY(cub::DeviceSelect::Flagged(nullptr, sel_keys, static_cast<const uint32_t*>(nullptr),
                                         static_cast<const uint8_t*>(nullptr), static_cast<uint32_t*>(nullptr),
                                         static_cast<uint32_t*>(nullptr), slots));
  PP_CUDA_TRY(cub::DeviceSelect::Flagged(nullptr, sel_vals, static_cast<const bucket*>(nullptr),
                                         static_cast<const uint8_t*>(nullptr), static_cast<bucket*>(nullptr),
                                         static_cast<uint32_t*>(nullptr), slots));
  if (s.split) {
    PP_CUDA_TRY(cub::DeviceSelect::If(nullptr, sel_idx, thrust::counting_iterator<uint32_t>(0),
                                      static_cast<uint32_t*>(nullptr), static_cast<uint32_t*>(nullptr),
                                      int(std::max<uint64_t>(s.select_n, 1)),
                                      scalar_is_one<scalar_t<Curve>>{nullptr}));
  }
  return cub_temp_bytes{sort_bytes, std::max({sel_keys, sel_vals, sel_idx})};
}

// The plan of an MSM (plan_gpu_msm: the host's, with CUB's temp sizes modelled), refused with an
// error when this device's CUB asks more for a full or the last chunk than the plan gives: a CCCL or
// an architecture the model does not know (cub_temp_model.hpp), never a pass over too little memory.
template <class Curve>
result<msm_plan> make_plan(uint64_t n, bool split, const msm_config& config) {
  PP_ASSIGN_OR_RETURN(const msm_plan plan, plan_gpu_msm(n, split, config, group_of<Curve>()));
  const auto check = [&](const msm_shape& s) -> status {
    PP_ASSIGN_OR_RETURN(const cub_temp_bytes need, query_cub_temp<Curve>(s));
    if (need.sort <= plan.sort_temp_bytes && need.select <= plan.select_temp_bytes) return ok_status();
    return internal_error("GPU MSM: CUB asks " + std::to_string(need.sort) + " bytes of sort and " +
                          std::to_string(need.select) + " of selection temp storage for " + std::to_string(s.n) +
                          " points, the plan (cub_temp_model) gives " + std::to_string(plan.sort_temp_bytes) +
                          " and " + std::to_string(plan.select_temp_bytes));
  };
  PP_RETURN_IF_ERROR(check(plan.shape));
  if (plan.shape.last_n != plan.shape.n) PP_RETURN_IF_ERROR(check(make_msm_chunk_shape(plan.shape, plan.shape.last_n)));
  return plan;
}

// The plan of chunk k: plan itself, or for a shorter last chunk its counts on plan's layout.
inline msm_plan chunk_plan(const msm_plan& plan, uint64_t k) {
  const msm_shape& s = plan.shape;
  if (k + 1 < s.chunks || s.last_n == s.n) return plan;
  msm_plan p = plan;
  p.shape = make_msm_chunk_shape(s, s.last_n);
  return p;
}

// One scalar vector of a streamed MSM: its scalars (dense on the device, or packed with a chunk of
// them expanded at a time into chunk_scalars) and where its running sums live: its buckets, its
// scalar-1 sum and its result. A single MSM's are the workspace's (buckets, chunk_result, result);
// msm_streamed_vectors gives each vector its own (msm_vector_layout).
template <class Curve>
struct vector_state {
  const scalar_t<Curve>* d_scalars = nullptr;
  xyzz_t<Curve>* buckets = nullptr;
  xyzz_t<Curve>* ones = nullptr;
  xyzz_t<Curve>* result = nullptr;
  const packed_scalars* packed = nullptr;
  scalar_t<Curve>* chunk_scalars = nullptr;
  uint64_t bucket_capacity = UINT64_MAX;  // bytes at buckets (a vector's state may hold less than the plan's)
};

template <class Curve>
vector_state<Curve> workspace_state(const msm_plan& plan, void* ws, const scalar_t<Curve>* d_scalars) {
  const msm_layout& l = plan.layout;
  return {d_scalars, at<xyzz_t<Curve>>(ws, l.buckets), at<xyzz_t<Curve>>(ws, l.chunk_result),
          at<xyzz_t<Curve>>(ws, l.result)};
}

inline packed_view view_of(const packed_scalars& p) {
  const auto* base = static_cast<const char*>(p.d_packed);
  return {reinterpret_cast<const uint32_t*>(base), reinterpret_cast<const uint32_t*>(base + p.layout.positions_offset),
          base + p.layout.values_offset, p.layout.num_other, p.layout.num_variables, p.d_gather, p.first};
}

// The scalars of points [off, off + len) of vector v on the device, in stream order: dense ones in
// place, packed ones expanded into the vector's chunk of scalars.
template <class Curve>
result<const scalar_t<Curve>*> chunk_scalars(const vector_state<Curve>& v, uint64_t off, uint64_t len,
                                             cudaStream_t stream) {
  if (v.packed == nullptr) return v.d_scalars + off;
  if (len > 0) {
    constexpr int block = 256;
    expand_packed_kernel<scalar_t<Curve>><<<(len + block - 1) / block, block, 0, stream>>>(view_of(*v.packed), off,
                                                                                         len, v.chunk_scalars);
    PP_CUDA_TRY(cudaGetLastError());
  }
  return static_cast<const scalar_t<Curve>*>(v.chunk_scalars);
}

// Stages 1 and 2 of Pippenger over plan.shape.n slots: the bucket sums of those points. The first
// chunk (or a single pass) writes them to `buckets` (the workspace's or a vector's), zeroed first; a
// later chunk of a chunked plain MSM (same width) writes its own into the sort's unused key/value
// pair (the layout sizes it for that) and merges them into the buckets. With idx / d_count (split),
// slot i is point idx[i] and only the first *d_count slots are live.
template <class Curve>
status add_bucket_sums(const msm_plan& plan, const affine_t<Curve>* d_points, const scalar_t<Curve>* d_scalars,
                       const uint32_t* idx, const uint32_t* d_count, void* ws, xyzz_t<Curve>* buckets, bool first,
                       cudaStream_t stream, const msm_tuning& tuning = msm_tuning_sm90) {
  using bucket = xyzz_t<Curve>;
  const msm_shape& s = plan.shape;
  const msm_layout& l = plan.layout;
  const int block = tuning.block_threads;
  const int c = s.window_bits, windows = s.windows;
  const uint32_t n = uint32_t(s.n);
  const uint32_t sentinel = uint32_t(windows) << (c - 1);
  const uint64_t bucket_count = uint64_t(windows) * s.buckets_per_window;
  uint32_t* counts = at<uint32_t>(ws, l.counts);

  PP_RETURN_IF_ERROR(check_staging(block, d_points));
  if (first) PP_CUDA_TRY(cudaMemsetAsync(buckets, 0, sizeof(bucket) * bucket_count, stream));
  if (n == 0) return ok_status();
  // 1. Signed digits -> (bucket, point) pairs, sorted by bucket.
  digits_kernel<Curve><<<blocks_for(n, block), block, 0, stream>>>(
      d_scalars, idx, d_count, n, c, s.digits, windows, uint32_t(s.group_stride), at<uint32_t>(ws, l.keys),
      at<uint32_t>(ws, l.vals));
  PP_CUDA_TRY(cudaGetLastError());
  cub::DoubleBuffer<uint32_t> kb(at<uint32_t>(ws, l.keys), at<uint32_t>(ws, l.keys_alt));
  cub::DoubleBuffer<uint32_t> vb(at<uint32_t>(ws, l.vals), at<uint32_t>(ws, l.vals_alt));
  size_t sort_bytes = plan.sort_temp_bytes;
  PP_CUDA_TRY(cub::DeviceRadixSort::SortPairs(at<void>(ws, l.sort_temp), sort_bytes, kb, vb, int(s.entries), 0,
                                              s.key_bits, stream));
  bucket* sums = buckets;
  if (!first) {
    if (kb.selector != vb.selector || l.pair_bytes < sizeof(bucket) * bucket_count) {
      return internal_error("GPU MSM: no free sort pair of " + std::to_string(sizeof(bucket) * bucket_count) +
                            " bytes for a later chunk's buckets (pair of " + std::to_string(l.pair_bytes) + ")");
    }
    sums = at<bucket>(ws, kb.selector == 0 ? l.keys_alt : l.keys);
    PP_CUDA_TRY(cudaMemsetAsync(sums, 0, sizeof(bucket) * bucket_count, stream));
  }

  // 2. Bucket sums: fixed entries per thread; cut runs reduced in carry passes until none is cut.
  uint32_t* slot_keys = at<uint32_t>(ws, l.slot_keys);
  uint8_t* slot_flags = at<uint8_t>(ws, l.slot_flags);
  bucket* slot_vals = at<bucket>(ws, l.slot_vals);
  size_t sel_bytes = plan.select_temp_bytes;
  void* sel_temp = at<void>(ws, l.select_temp);
  using source = point_source<Curve, msm_tuning_sm90.block_threads>;
  const uint32_t chunk =
      accumulate_chunk_for(s.entries, wave_threads<segmented_sum_kernel<Curve, source>>(block), tuning);
  uint64_t threads = (s.entries + chunk - 1) / chunk;  // at most s.accumulate_threads: the slots hold them
  segmented_sum_kernel<Curve, source><<<blocks_for(threads, block), block, 0, stream>>>(
      kb.Current(), source{d_points, vb.Current()}, s.entries, nullptr, sentinel, chunk, threads, sums, slot_keys,
      slot_flags, slot_vals);
  PP_CUDA_TRY(cudaGetLastError());
  uint64_t bound = 2 * threads;  // live carries, an upper bound known on the host
  int cur = 0;
  while (threads > 1) {
    uint32_t* ck = at<uint32_t>(ws, l.carry_keys[cur]);
    bucket* cv = at<bucket>(ws, l.carry_vals[cur]);
    PP_CUDA_TRY(cub::DeviceSelect::Flagged(sel_temp, sel_bytes, slot_keys, slot_flags, ck, counts + cur, int(bound),
                                           stream));
    PP_CUDA_TRY(cub::DeviceSelect::Flagged(sel_temp, sel_bytes, slot_vals, slot_flags, cv, counts + cur, int(bound),
                                           stream));
    threads = (bound + tuning.carry_chunk - 1) / tuning.carry_chunk;
    segmented_sum_kernel<Curve, partial_source<Curve>><<<blocks_for(threads, block), block, 0, stream>>>(
        ck, partial_source<Curve>{cv}, bound, counts + cur, no_sentinel, tuning.carry_chunk, threads, sums, slot_keys,
        slot_flags, slot_vals);
    PP_CUDA_TRY(cudaGetLastError());
    bound = 2 * threads;
    cur ^= 1;
  }
  if (sums != buckets) {
    merge_buckets_kernel<Curve><<<blocks_for(bucket_count, block), block, 0, stream>>>(buckets, sums, bucket_count);
    PP_CUDA_TRY(cudaGetLastError());
  }
  return ok_status();
}

// Where a bucket reduction of `vectors` vectors of one shape reads and writes, vector j's at each
// array's j-th place: the buckets, the extra term (p null: none), the result, and two areas of
// running sums (T and S, windows x segments each) that the combine tree's levels alternate between.
template <class Curve>
struct reduction_arrays {
  strided<const xyzz_t<Curve>> buckets, extra;
  strided<xyzz_t<Curve>> out;
  strided<xyzz_t<Curve>> seg_t[2], seg_s[2];
  uint32_t vectors = 1;
};

// Stages 3 and 4 of Pippenger for every vector of r, one launch a kernel for all: the buckets
// reduced to one sum per window (running sums per segment, then the pairwise tree), the windows
// combined by Horner, + the extra term when given, written to the result (device).
template <class Curve>
status reduce_vectors(const msm_shape& s, const reduction_arrays<Curve>& r, cudaStream_t stream,
                      const msm_tuning& tuning) {
  const int block = tuning.block_threads;
  const int windows = s.windows;
  const auto grid = [&](uint64_t threads) { return dim3(unsigned(blocks_for(threads, block)), r.vectors); };
  uint32_t segs = s.segments_per_window;
  uint64_t threads = uint64_t(windows) * segs;
  int p = 0;
  bucket_segments_kernel<Curve><<<grid(threads), block, 0, stream>>>(r.buckets, s.buckets_per_window, s.segment_len,
                                                                     segs, threads, r.seg_t[p], r.seg_s[p]);
  PP_CUDA_TRY(cudaGetLastError());
  int log_len = 0;
  while ((uint32_t{1} << log_len) < s.segment_len) ++log_len;
  while (segs > 1) {
    const uint32_t half = (segs + 1) / 2;
    threads = uint64_t(windows) * half;
    segments_combine_kernel<Curve><<<grid(threads), block, 0, stream>>>(r.seg_t[p], r.seg_s[p], segs, half, threads,
                                                                        log_len, r.seg_t[p ^ 1], r.seg_s[p ^ 1]);
    PP_CUDA_TRY(cudaGetLastError());
    p ^= 1;
    segs = half;
    ++log_len;
  }
  window_combine_kernel<Curve><<<unsigned(blocks_for(r.vectors, 32)), 32, 0, stream>>>(
      r.seg_s[p], 1, windows, s.window_bits, r.extra, r.vectors, r.out);
  PP_CUDA_TRY(cudaGetLastError());
  return ok_status();
}

// One vector's reduction (reduce_vectors), its running sums in the workspace's areas; + *extra when
// given, written to *out (device).
template <class Curve>
status reduce_buckets(const msm_plan& plan, void* ws, const xyzz_t<Curve>* buckets, const xyzz_t<Curve>* extra,
                      xyzz_t<Curve>* out, cudaStream_t stream, const msm_tuning& tuning = msm_tuning_sm90) {
  using bucket = xyzz_t<Curve>;
  const msm_layout& l = plan.layout;
  reduction_arrays<Curve> r{.buckets = {buckets}, .extra = {extra}, .out = {out}};
  for (int i = 0; i < 2; ++i) {
    r.seg_t[i] = {at<bucket>(ws, l.seg_t[i])};
    r.seg_s[i] = {at<bucket>(ws, l.seg_s[i])};
  }
  return reduce_vectors<Curve>(plan.shape, r, stream, tuning);
}

// Bytes from vector 0's array to vector 1's where every vector's is that far from the one before
// (msm_streamed_vectors gives each vector its state at one stride), else nullopt.
template <class Curve, class T>
std::optional<uint64_t> uniform_stride(std::span<const vector_state<Curve>> vs, T* vector_state<Curve>::*array) {
  const auto address = [&](size_t j) { return reinterpret_cast<uintptr_t>(vs[j].*array); };
  if (vs.size() < 2 || address(1) <= address(0)) return std::nullopt;
  const uint64_t stride = address(1) - address(0);
  for (size_t j = 2; j < vs.size(); ++j) {
    if (address(j) != address(0) + j * stride) return std::nullopt;
  }
  return stride;
}

// The vectors' buckets (shape `reduce`, each vector's own) reduced together by reduce_vectors, + each
// vector's scalar-1 sum when with_ones: under one lane each reduction's low-occupancy kernels would
// otherwise leave the GPU mostly idle, vector after vector (docs/perf/vram-budgets.md). Each
// vector's running sums go to the workspace's bucket array (dead once every chunk has summed into
// the vectors' own buckets) and to its own buckets (dead once the first kernel has read them).
// Returns false, having queued nothing, where they do not qualify (reductions_fit_together, states
// one stride apart).
template <class Curve>
result<bool> reduce_together(const msm_plan& plan, const msm_shape& reduce, std::span<const vector_state<Curve>> vs,
                             bool with_ones, void* ws, cudaStream_t stream) {
  using bucket = xyzz_t<Curve>;
  uint64_t capacity = UINT64_MAX;
  for (const vector_state<Curve>& v : vs) capacity = std::min(capacity, v.bucket_capacity);
  const auto buckets = uniform_stride<Curve>(vs, &vector_state<Curve>::buckets);
  const auto ones = uniform_stride<Curve>(vs, &vector_state<Curve>::ones);
  const auto results = uniform_stride<Curve>(vs, &vector_state<Curve>::result);
  if (!buckets || !ones || !results || *buckets % alignof(bucket) != 0 ||
      !reductions_fit_together(plan, reduce, vs.size(), sizeof(bucket), capacity)) {
    return false;
  }
  const uint64_t area = running_sum_buckets(reduce);
  bucket* spare = at<bucket>(ws, plan.layout.buckets);
  reduction_arrays<Curve> r{.buckets = {vs[0].buckets, *buckets},
                            .extra = {with_ones ? vs[0].ones : nullptr, *ones},
                            .out = {vs[0].result, *results},
                            .seg_t = {{spare, 2 * area * sizeof(bucket)}, {vs[0].buckets, *buckets}},
                            .seg_s = {{spare + area, 2 * area * sizeof(bucket)}, {vs[0].buckets + area, *buckets}},
                            .vectors = uint32_t(vs.size())};
  PP_RETURN_IF_ERROR(reduce_vectors<Curve>(reduce, r, stream, msm_tuning_sm90));
  return true;
}

// Pippenger over plan.shape.n slots in one pass (idx / d_count as add_bucket_sums): the result
// (+ *extra) to *out.
template <class Curve>
status run_pippenger(const msm_plan& plan, const affine_t<Curve>* d_points, const scalar_t<Curve>* d_scalars,
                     const uint32_t* idx, const uint32_t* d_count, void* ws, const xyzz_t<Curve>* extra,
                     xyzz_t<Curve>* out, cudaStream_t stream, const msm_tuning& tuning = msm_tuning_sm90) {
  auto* buckets = at<xyzz_t<Curve>>(ws, plan.layout.buckets);
  PP_RETURN_IF_ERROR(
      add_bucket_sums<Curve>(plan, d_points, d_scalars, idx, d_count, ws, buckets, true, stream, tuning));
  return reduce_buckets<Curve>(plan, ws, buckets, extra, out, stream, tuning);
}

template <class Curve>
status check_args(const msm_plan& plan, const void* d_points, const void* d_scalars, const void* ws,
                  uint64_t ws_bytes, const void* h_result) {
  if (h_result == nullptr) return invalid_argument("GPU MSM: h_result is null");
  if (plan.shape.total > 0 && (d_points == nullptr || d_scalars == nullptr)) {
    return invalid_argument("GPU MSM: null points or scalars for n = " + std::to_string(plan.shape.total));
  }
  if (ws == nullptr || ws_bytes < plan.layout.total) {
    return invalid_argument("GPU MSM: expected a workspace of " + std::to_string(plan.layout.total) +
                            " bytes, got " + std::to_string(ws == nullptr ? 0 : ws_bytes));
  }
  if (reinterpret_cast<uintptr_t>(ws) % 256 != 0) return invalid_argument("GPU MSM: workspace not 256-byte aligned");
  return ok_status();
}

// Index lists (relative to d_points / d_scalars) of the scalar-1 and the other non-zero points among
// the first n, into the workspace's idx_ones / idx_others with their counts at counts[2] / counts[3],
// and the scalar-1 sum (gather chunks of mixed additions, then a pairwise tree). Returns where that
// sum lies in the workspace, or nullptr when n = 0 (nothing is written then).
template <class Curve>
result<const xyzz_t<Curve>*> select_and_sum_ones(const msm_plan& plan, uint64_t n, const affine_t<Curve>* d_points,
                                                 const scalar_t<Curve>* d_scalars, void* ws, cudaStream_t stream,
                                                 const msm_tuning& tuning) {
  using bucket = xyzz_t<Curve>;
  if (n == 0) return static_cast<const bucket*>(nullptr);
  const msm_layout& l = plan.layout;
  const int block = tuning.block_threads;
  PP_RETURN_IF_ERROR(check_staging(block, d_points));
  uint32_t* counts = at<uint32_t>(ws, l.counts);
  uint32_t* idx_ones = at<uint32_t>(ws, l.idx_ones);
  size_t sel_bytes = plan.select_temp_bytes;
  void* sel_temp = at<void>(ws, l.select_temp);
  PP_CUDA_TRY(cub::DeviceSelect::If(sel_temp, sel_bytes, thrust::counting_iterator<uint32_t>(0), idx_ones, counts + 2,
                                    int(n), scalar_is_one<scalar_t<Curve>>{d_scalars}, stream));
  PP_CUDA_TRY(cub::DeviceSelect::If(sel_temp, sel_bytes, thrust::counting_iterator<uint32_t>(0),
                                    at<uint32_t>(ws, l.idx_others), counts + 3, int(n),
                                    scalar_is_other<scalar_t<Curve>>{d_scalars}, stream));
  using source = point_source<Curve, msm_tuning_sm90.block_threads>;
  // At most the layout's partial sums.
  uint64_t parts = ones_threads_for(n, wave_threads<gather_sum_kernel<Curve, source>>(block), tuning);
  int p = 0;
  gather_sum_kernel<Curve, source><<<blocks_for(parts, block), block, 0, stream>>>(
      source{d_points, idx_ones}, counts + 2, parts, at<bucket>(ws, l.ones_partials[p]));
  PP_CUDA_TRY(cudaGetLastError());
  while (parts > 1) {
    const uint64_t half = (parts + 1) / 2;
    pair_sum_kernel<Curve><<<blocks_for(half, block), block, 0, stream>>>(at<bucket>(ws, l.ones_partials[p]), parts,
                                                                          at<bucket>(ws, l.ones_partials[p ^ 1]));
    PP_CUDA_TRY(cudaGetLastError());
    p ^= 1;
    parts = half;
  }
  return static_cast<const bucket*>(at<bucket>(ws, l.ones_partials[p]));
}

// One split pass over the plan's n points, for split MSMs whose chunks select their own points
// (streamed points, or a shape without select_all): the index lists and the scalar-1 sum, then
// Pippenger on the others (sized by the host's upper bound n, live count read on the device) plus
// that sum, written to *out.
template <class Curve>
status run_split_pass(const msm_plan& plan, const affine_t<Curve>* d_points, const scalar_t<Curve>* d_scalars,
                      void* ws, xyzz_t<Curve>* out, cudaStream_t stream, const msm_tuning& tuning = msm_tuning_sm90) {
  const msm_layout& l = plan.layout;
  const uint64_t n = plan.shape.n;
  PP_ASSIGN_OR_RETURN(const xyzz_t<Curve>* ones_sum,
                      select_and_sum_ones<Curve>(plan, n, d_points, d_scalars, ws, stream, tuning));
  uint32_t* counts = at<uint32_t>(ws, l.counts);
  return run_pippenger<Curve>(plan, d_points, d_scalars, n > 0 ? at<uint32_t>(ws, l.idx_others) : nullptr,
                              n > 0 ? counts + 3 : nullptr, ws, ones_sum, out, stream, tuning);
}

// The split MSM over all the plan's points at once (plan.shape.select_all, resident points): index
// lists over all n and the scalar-1 sum, then the count of the other points is read back (the call's
// one host synchronization) so that digits, sort and bucket reductions cover those points only, not
// the ~90% of a witness that are 0 or 1: Pippenger over them in passes of at most shape.n points,
// each at the table's width for its length where that fits the layout (make_msm_selected_pass), the
// pass sums added on the device into the result slot.
template <class Curve>
status run_split_selected(const msm_plan& plan, const affine_t<Curve>* d_points, const scalar_t<Curve>* d_scalars,
                          void* ws, cudaStream_t stream, const msm_tuning& tuning = msm_tuning_sm90) {
  using bucket = xyzz_t<Curve>;
  const msm_shape& s = plan.shape;
  const msm_layout& l = plan.layout;
  PP_ASSIGN_OR_RETURN(const bucket* ones_sum,
                      select_and_sum_ones<Curve>(plan, s.select_n, d_points, d_scalars, ws, stream, tuning));
  uint32_t others = 0;
  if (s.select_n > 0) {
    PP_CUDA_TRY(cudaMemcpyAsync(&others, at<uint32_t>(ws, l.counts) + 3, sizeof(others), cudaMemcpyDeviceToHost,
                                stream));
    PP_CUDA_TRY(cudaStreamSynchronize(stream));
  }
  if (others > s.select_n) {
    return internal_error("GPU split MSM: " + std::to_string(others) + " selected of " + std::to_string(s.select_n));
  }
  const uint32_t* idx_others = at<uint32_t>(ws, l.idx_others);
  bucket* result = at<bucket>(ws, l.result);
  bucket* pass_result = at<bucket>(ws, l.chunk_result);
  const uint64_t per = s.n > 0 ? s.n : 1;
  const uint64_t passes = others == 0 ? 1 : (others + per - 1) / per;
  for (uint64_t k = 0; k < passes; ++k) {
    const uint64_t lo = k * per;
    msm_plan pass = plan;
    pass.shape = make_msm_selected_pass(s, others - lo < per ? others - lo : per, tuning);
    PP_ASSIGN_OR_RETURN(const cub_temp_bytes temp, query_cub_temp<Curve>(pass.shape));
    if (temp.sort > plan.sort_temp_bytes || temp.select > plan.select_temp_bytes) {
      pass.shape = make_msm_chunk_shape(s, pass.shape.n, tuning);  // the plan's width: its temp sizes fit
      pass.shape.split = false;
    }
    PP_RETURN_IF_ERROR(run_pippenger<Curve>(pass, d_points, d_scalars, idx_others + lo, nullptr, ws,
                                            k == 0 ? ones_sum : nullptr, k == 0 ? result : pass_result, stream,
                                            tuning));
    if (k > 0) {
      accumulate_kernel<Curve><<<1, 32, 0, stream>>>(result, pass_result);
      PP_CUDA_TRY(cudaGetLastError());
    }
  }
  return ok_status();
}

// The split MSM's chunks that select their own points: pass(chunk_plan, first point, out) over the
// plan's chunks in stream order on one workspace:
// chunk 0 writes the result slot, each later chunk its own slot, then added into the result on the
// device (ec::add handles infinity on either side, equal and opposite sums).
template <class Curve, class Pass>
status run_chunks(const msm_plan& plan, void* ws, cudaStream_t stream, const Pass& pass) {
  using bucket = xyzz_t<Curve>;
  bucket* result = at<bucket>(ws, plan.layout.result);
  bucket* chunk_result = at<bucket>(ws, plan.layout.chunk_result);
  for (uint64_t k = 0; k < plan.shape.chunks; ++k) {
    PP_RETURN_IF_ERROR(pass(chunk_plan(plan, k), k * plan.shape.n, k == 0 ? result : chunk_result));
    if (k > 0) {
      accumulate_kernel<Curve><<<1, 32, 0, stream>>>(result, chunk_result);
      PP_CUDA_TRY(cudaGetLastError());
    }
  }
  return ok_status();
}

// The plain MSM's chunks: pass(chunk_plan, first point, first) adds each chunk's bucket sums into
// one set of buckets in stream order (every chunk has the plan's width and bucket layout:
// make_msm_chunk_shape), reduced once into the result slot, so a later chunk costs a bucket merge
// (one addition a bucket) instead of a reduction (two a bucket, the tree, Horner).
template <class Curve, class Pass>
status run_merged_chunks(const msm_plan& plan, void* ws, cudaStream_t stream, const Pass& pass) {
  for (uint64_t k = 0; k < plan.shape.chunks; ++k) {
    PP_RETURN_IF_ERROR(pass(chunk_plan(plan, k), k * plan.shape.n, k == 0));
  }
  const msm_layout& l = plan.layout;
  return reduce_buckets<Curve>(plan, ws, at<xyzz_t<Curve>>(ws, l.buckets), nullptr, at<xyzz_t<Curve>>(ws, l.result),
                               stream);
}

// The plan, the argument checks, body(plan) (which leaves the MSM's sum in the plan's result slot),
// then the result's copy to the host: the shared frame of msm, split_msm and the streamed ones.
template <class Curve, class Body>
status plan_and_run(uint64_t n, bool split, const msm_config& config, const void* d_points, const void* d_scalars,
                    void* ws, uint64_t ws_bytes, ec::xyzz<Curve>* h_result, cudaStream_t stream, const Body& body) {
  auto plan = make_plan<Curve>(n, split, config);
  if (!plan.ok()) return plan.error();
  PP_RETURN_IF_ERROR(check_args<Curve>(*plan, d_points, d_scalars, ws, ws_bytes, h_result));
  PP_RETURN_IF_ERROR(body(*plan));
  PP_CUDA_TRY(cudaMemcpyAsync(h_result, result_in_workspace<Curve>(*plan, ws), sizeof(ec::xyzz<Curve>),
                              cudaMemcpyDeviceToHost, stream));
  return ok_status();
}

// body for plan_and_run: pass(chunk plan, first point, first) over the plain MSM's chunks.
template <class Curve, class Pass>
auto merged_chunks(void* ws, cudaStream_t stream, const Pass& pass) {
  return [=](const msm_plan& plan) { return run_merged_chunks<Curve>(plan, ws, stream, pass); };
}

// The config of a streamed MSM: its split chunks select their own points (msm_config::streamed), so
// its plan and workspace hold index lists for one chunk.
inline msm_config streamed_config(msm_config config) {
  config.streamed = true;
  return config;
}

// Streamed points: copies len points into the stream's next slot on ps.copy, after the kernels that
// last read that slot (its freed event); returns the slot.
template <class Curve>
result<int> stream_copy(msm_point_stream& ps, const affine_t<Curve>* h_points, uint64_t len) {
  const uint64_t bytes = len * sizeof(affine_t<Curve>);
  if (ps.slots < msm_min_point_slots || ps.slots > msm_max_point_slots) {
    return invalid_argument("GPU MSM: " + std::to_string(ps.slots) + " point slots, expected " +
                            std::to_string(msm_min_point_slots) + " to " + std::to_string(msm_max_point_slots));
  }
  const bool placed = std::all_of(ps.d_slot, ps.d_slot + ps.slots, [](const void* p) { return p != nullptr; });
  if (bytes > ps.slot_bytes || !placed) {
    return invalid_argument("GPU MSM: a streamed chunk of " + std::to_string(bytes) + " bytes, slots of " +
                            std::to_string(ps.slot_bytes) + (placed ? "" : ", a slot without memory"));
  }
  const int s = int(ps.turn++ % uint64_t(ps.slots));
  PP_CUDA_TRY(cudaStreamWaitEvent(ps.copy, ps.freed[s], 0));
  PP_RETURN_IF_ERROR(link_pace_begin(ps.pace, bytes, ps.copy));
  PP_CUDA_TRY(cudaMemcpyAsync(ps.d_slot[s], h_points, bytes, cudaMemcpyHostToDevice, ps.copy));
  PP_RETURN_IF_ERROR(link_pace_end(ps.pace, ps.copy));
  PP_CUDA_TRY(cudaEventRecord(ps.loaded[s], ps.copy));
  ps.h2d_bytes += bytes;
  return s;
}

// run(slot's points) on stream once slot's copy has arrived, then the slot is marked free again.
template <class Curve, class Run>
status stream_run(msm_point_stream& ps, int slot, cudaStream_t stream, const Run& run) {
  PP_CUDA_TRY(cudaStreamWaitEvent(stream, ps.loaded[slot], 0));
  PP_RETURN_IF_ERROR(run(static_cast<const affine_t<Curve>*>(ps.d_slot[slot])));
  PP_CUDA_TRY(cudaEventRecord(ps.freed[slot], stream));
  return ok_status();
}

// One chunk of streamed points: its copy, then run on it.
template <class Curve, class Run>
status stream_chunk(msm_point_stream& ps, const affine_t<Curve>* h_points, uint64_t len, cudaStream_t stream,
                    const Run& run) {
  PP_ASSIGN_OR_RETURN(const int slot, stream_copy<Curve>(ps, h_points, len));
  return stream_run<Curve>(ps, slot, stream, run);
}

// True when split_msm_streamed can count every chunk's other points up front: CUB's int item count,
// and the per-chunk counts fit the sort keys' buffer (free until the chunks run).
inline bool streamed_select_fits(const msm_plan& plan) {
  const msm_shape& s = plan.shape;
  return s.split && s.total > 0 && s.total < (uint64_t{1} << 31) && s.chunks <= std::max<uint64_t>(s.entries, 1);
}

// The selection over all points of a streamed split MSM, whose points are not on the device but
// whose scalars are: the number of points of each chunk whose scalar is neither 0 nor 1 (one
// selection per chunk into the workspace's lists, the count into the sort keys' buffer), read back
// with the call's one host synchronization. The first chunks' copies (one a slot) are queued before
// it, so the copy stream is not held up while the host waits.
template <class Curve>
result<std::vector<uint32_t>> count_streamed_others(const msm_plan& plan, const scalar_t<Curve>* d_scalars, void* ws,
                                                    cudaStream_t stream) {
  const msm_shape& s = plan.shape;
  const msm_layout& l = plan.layout;
  uint32_t* d_counts = at<uint32_t>(ws, l.keys);
  size_t sel_bytes = plan.select_temp_bytes;
  for (uint64_t k = 0; k < s.chunks; ++k) {
    const uint64_t len = k + 1 < s.chunks ? s.n : s.last_n;
    PP_CUDA_TRY(cub::DeviceSelect::If(at<void>(ws, l.select_temp), sel_bytes, thrust::counting_iterator<uint32_t>(0),
                                      at<uint32_t>(ws, l.idx_others), d_counts + k, int(len),
                                      scalar_is_other<scalar_t<Curve>>{d_scalars + k * s.n}, stream));
  }
  std::vector<uint32_t> counts(s.chunks);
  PP_CUDA_TRY(cudaMemcpyAsync(counts.data(), d_counts, s.chunks * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
  PP_CUDA_TRY(cudaStreamSynchronize(stream));
  for (uint64_t k = 0; k < s.chunks; ++k) {
    if (counts[k] > (k + 1 < s.chunks ? s.n : s.last_n)) {
      return internal_error("GPU split MSM: " + std::to_string(counts[k]) + " selected in a chunk of " +
                            std::to_string(s.n));
    }
  }
  return counts;
}

// count_streamed_others for a packed vector: its scalars' others counted per chunk on the device from
// the packed witness (no expansion), read back with one host synchronization.
template <class Curve>
result<std::vector<uint32_t>> count_packed_others(const msm_plan& plan, const packed_scalars& p, void* ws,
                                                  cudaStream_t stream) {
  const msm_shape& s = plan.shape;
  uint32_t* d_counts = at<uint32_t>(ws, plan.layout.keys);
  PP_CUDA_TRY(cudaMemsetAsync(d_counts, 0, s.chunks * sizeof(uint32_t), stream));
  if (s.total > 0) {
    constexpr int block = 256;
    count_packed_others_kernel<scalar_t<Curve>><<<(s.total + block - 1) / block, block, 0, stream>>>(
        view_of(p), s.total, std::max<uint64_t>(s.n, 1), d_counts);
    PP_CUDA_TRY(cudaGetLastError());
  }
  std::vector<uint32_t> counts(s.chunks);
  PP_CUDA_TRY(cudaMemcpyAsync(counts.data(), d_counts, s.chunks * sizeof(uint32_t), cudaMemcpyDeviceToHost, stream));
  PP_CUDA_TRY(cudaStreamSynchronize(stream));
  return counts;
}

// One streamed chunk of the selected split MSM: len points (at most the plan's n), `others` of them
// counted up front. Its index lists and the scalar-1 sum, then one Pippenger pass over the others
// only, at the table's width for their number where that fits the layout (as run_split_selected's
// passes), plus that sum, written to *out.
template <class Curve>
status run_selected_chunk(const msm_plan& plan, uint64_t len, uint32_t others, const affine_t<Curve>* d_points,
                          const scalar_t<Curve>* d_scalars, void* ws, xyzz_t<Curve>* out, cudaStream_t stream,
                          const msm_tuning& tuning = msm_tuning_sm90) {
  PP_ASSIGN_OR_RETURN(const xyzz_t<Curve>* ones_sum,
                      select_and_sum_ones<Curve>(plan, len, d_points, d_scalars, ws, stream, tuning));
  msm_plan pass = plan;
  pass.shape = make_msm_selected_pass(plan.shape, others, tuning);
  PP_ASSIGN_OR_RETURN(const cub_temp_bytes temp, query_cub_temp<Curve>(pass.shape));
  if (temp.sort > plan.sort_temp_bytes || temp.select > plan.select_temp_bytes) {
    pass.shape = make_msm_chunk_shape(plan.shape, others, tuning);  // the plan's width: its temp sizes fit
    pass.shape.split = false;
  }
  return run_pippenger<Curve>(pass, d_points, d_scalars, at<uint32_t>(ws, plan.layout.idx_others), nullptr, ws,
                              ones_sum, out, stream, tuning);
}

// The pass plan of a streamed selected split MSM whose chunks carry their buckets, for these
// per-chunk counts of other points (make_msm_carried_pass), with CUB's temp sizes checked for every
// chunk's pass; nullopt when the chunks cannot carry (each then reduces its own).
template <class Curve>
result<std::optional<msm_plan>> carried_plan(const msm_plan& plan, const std::vector<uint32_t>& others,
                                             uint64_t bucket_capacity) {
  uint64_t total = 0, most = 0;
  for (const uint32_t o : others) {
    total += o;
    most = std::max<uint64_t>(most, o);
  }
  msm_plan carried = plan;
  carried.shape = make_msm_carried_pass(plan, sizeof(xyzz_t<Curve>), total, most, msm_tuning_sm90, bucket_capacity);
  if (carried.shape.window_bits == 0) return std::optional<msm_plan>{};
  for (const uint32_t o : others) {
    PP_ASSIGN_OR_RETURN(const cub_temp_bytes temp, query_cub_temp<Curve>(make_msm_chunk_shape(carried.shape, o)));
    if (temp.sort > plan.sort_temp_bytes || temp.select > plan.select_temp_bytes) return std::optional<msm_plan>{};
  }
  return std::optional<msm_plan>{carried};
}

// One streamed chunk of a selected split MSM whose chunks carry their buckets (carried:
// carried_plan's): its index lists and scalar-1 sum (on plan's layout), that sum added into *ones,
// then the bucket sums of its `others` selected points added into the buckets (the first chunk
// writes them).
template <class Curve>
status add_selected_chunk(const msm_plan& plan, const msm_plan& carried, uint64_t len, uint32_t others,
                          const affine_t<Curve>* d_points, const scalar_t<Curve>* d_scalars, void* ws,
                          xyzz_t<Curve>* buckets, bool first, xyzz_t<Curve>* ones, cudaStream_t stream,
                          const msm_tuning& tuning = msm_tuning_sm90) {
  PP_ASSIGN_OR_RETURN(const xyzz_t<Curve>* ones_sum,
                      select_and_sum_ones<Curve>(plan, len, d_points, d_scalars, ws, stream, tuning));
  if (ones_sum != nullptr) {
    accumulate_kernel<Curve><<<1, 32, 0, stream>>>(ones, ones_sum);
    PP_CUDA_TRY(cudaGetLastError());
  }
  msm_plan pass = carried;
  pass.shape = make_msm_chunk_shape(carried.shape, others, tuning);
  return add_bucket_sums<Curve>(pass, d_points, d_scalars, at<uint32_t>(ws, plan.layout.idx_others), nullptr, ws,
                                buckets, first, stream, tuning);
}

// The streamed split MSM with the selection over all points, for each vector of vs: its others counted
// per chunk up front (count_streamed_others), then each chunk as it arrives (the copies as many
// chunks ahead of the kernels as the stream has slots), its kernels run for every vector in turn.
// Where carried_plan fits a vector, its chunks' bucket sums go into the vector's one set of buckets,
// reduced once with its chunks' scalar-1 sums (summed in vs.ones) as the extra term: a later chunk
// costs a bucket merge instead of a reduction, which for G2 is most of a small chunk's time
// (docs/perf/vram-budgets.md, "Carried buckets and point slots"); where every vector carries its
// buckets alike, their reductions run together (reduce_together). Otherwise each chunk runs
// run_selected_chunk and the chunk sums are added into the vector's result on the device as
// run_chunks does (through the workspace's chunk-result slot).
template <class Curve>
status run_streamed_selected(const msm_plan& plan, msm_point_stream& ps, const affine_t<Curve>* h_points,
                             std::span<const vector_state<Curve>> vs, void* ws, cudaStream_t stream) {
  using bucket = xyzz_t<Curve>;
  const msm_shape& s = plan.shape;
  const auto len = [&](uint64_t k) { return k + 1 < s.chunks ? s.n : s.last_n; };
  std::vector<int> slot(s.chunks, 0);
  const uint64_t ahead = std::min<uint64_t>(uint64_t(std::max(ps.slots, 1)), s.chunks);
  for (uint64_t k = 0; k < ahead; ++k) {
    PP_ASSIGN_OR_RETURN(slot[k], stream_copy<Curve>(ps, h_points + k * s.n, len(k)));
  }
  std::vector<std::vector<uint32_t>> others;
  std::vector<std::optional<msm_plan>> carried;
  for (const vector_state<Curve>& v : vs) {
    PP_ASSIGN_OR_RETURN(others.emplace_back(), v.packed != nullptr
                                                   ? count_packed_others<Curve>(plan, *v.packed, ws, stream)
                                                   : count_streamed_others<Curve>(plan, v.d_scalars, ws, stream));
    PP_ASSIGN_OR_RETURN(carried.emplace_back(), carried_plan<Curve>(plan, others.back(), v.bucket_capacity));
    if (carried.back()) PP_CUDA_TRY(cudaMemsetAsync(v.ones, 0, sizeof(bucket), stream));
  }
  bucket* chunk_result = at<bucket>(ws, plan.layout.chunk_result);
  for (uint64_t k = 0; k < s.chunks; ++k) {
    PP_RETURN_IF_ERROR(stream_run<Curve>(ps, slot[k], stream, [&](const affine_t<Curve>* d_points) -> status {
      for (size_t i = 0; i < vs.size(); ++i) {
        const vector_state<Curve>& v = vs[i];
        PP_ASSIGN_OR_RETURN(const scalar_t<Curve>* sc, chunk_scalars<Curve>(v, k * s.n, len(k), stream));
        if (carried[i]) {
          PP_RETURN_IF_ERROR(add_selected_chunk<Curve>(plan, *carried[i], len(k), others[i][k], d_points, sc, ws,
                                                       v.buckets, k == 0, v.ones, stream));
          continue;
        }
        PP_RETURN_IF_ERROR(run_selected_chunk<Curve>(plan, len(k), others[i][k], d_points, sc, ws,
                                                     k == 0 ? v.result : chunk_result, stream));
        if (k > 0) {
          accumulate_kernel<Curve><<<1, 32, 0, stream>>>(v.result, chunk_result);
          PP_CUDA_TRY(cudaGetLastError());
        }
      }
      return ok_status();
    }));
    if (k + ahead < s.chunks) {
      PP_ASSIGN_OR_RETURN(slot[k + ahead], stream_copy<Curve>(ps, h_points + (k + ahead) * s.n, len(k + ahead)));
    }
  }
  bool together = vs.size() > 1 && std::all_of(carried.begin(), carried.end(), [&](const std::optional<msm_plan>& c) {
    return c && same_reduction(c->shape, carried[0]->shape);
  });
  if (together) {
    PP_ASSIGN_OR_RETURN(together, reduce_together<Curve>(plan, carried[0]->shape, vs, true, ws, stream));
  }
  for (size_t i = 0; i < vs.size(); ++i) {
    if (carried[i] && !together) {
      PP_RETURN_IF_ERROR(reduce_buckets<Curve>(*carried[i], ws, vs[i].buckets, vs[i].ones, vs[i].result, stream));
    }
    ps.bucket_reductions += carried[i] ? 1 : s.chunks;
  }
  ps.reductions_together += together ? 1 : 0;
  return ok_status();
}

// The plain streamed MSM for each vector of vs: every chunk copied once, its bucket sums added into
// each vector's buckets in turn (the first chunk writes them), each vector's reduced once (all
// together where they qualify, reduce_together).
template <class Curve>
status run_streamed_merged(const msm_plan& plan, msm_point_stream& ps, const affine_t<Curve>* h_points,
                           std::span<const vector_state<Curve>> vs, void* ws, cudaStream_t stream) {
  for (uint64_t k = 0; k < plan.shape.chunks; ++k) {
    const msm_plan cp = chunk_plan(plan, k);
    const uint64_t off = k * plan.shape.n;
    const auto run = [&](const affine_t<Curve>* d_points) -> status {
      for (const vector_state<Curve>& v : vs) {
        PP_ASSIGN_OR_RETURN(const scalar_t<Curve>* sc, chunk_scalars<Curve>(v, off, cp.shape.n, stream));
        PP_RETURN_IF_ERROR(add_bucket_sums<Curve>(cp, d_points, sc, nullptr, nullptr, ws, v.buckets, k == 0, stream));
      }
      return ok_status();
    };
    PP_RETURN_IF_ERROR(stream_chunk<Curve>(ps, h_points + off, cp.shape.n, stream, run));
  }
  PP_ASSIGN_OR_RETURN(const bool together, reduce_together<Curve>(plan, plan.shape, vs, false, ws, stream));
  for (const vector_state<Curve>& v : vs) {
    if (!together) PP_RETURN_IF_ERROR(reduce_buckets<Curve>(plan, ws, v.buckets, nullptr, v.result, stream));
    ++ps.bucket_reductions;
  }
  ps.reductions_together += together ? 1 : 0;
  return ok_status();
}

}  // namespace msm_detail

template <class Curve>
result<msm_plan> plan_msm(uint64_t n, bool split, const msm_config& config) {
  return plan_gpu_msm(n, split, config, msm_detail::group_of<Curve>());
}

template <class Curve>
result<uint64_t> msm_workspace_bytes(uint64_t n, const msm_config& config) {
  return gpu_msm_workspace_bytes(n, false, config, msm_detail::group_of<Curve>());
}

template <class Curve>
result<uint64_t> split_msm_workspace_bytes(uint64_t n, const msm_config& config) {
  return gpu_msm_workspace_bytes(n, true, config, msm_detail::group_of<Curve>());
}

template <class Curve>
status msm(const ec::affine<Curve>* d_points, const typename Curve::scalar_field* d_scalars, uint64_t n,
           void* d_workspace, uint64_t workspace_bytes, ec::xyzz<Curve>* h_result, cudaStream_t stream,
           const msm_config& config) {
  using namespace msm_detail;
  const auto pass = [&](const msm_plan& cp, uint64_t off, bool first) {
    return add_bucket_sums<Curve>(cp, d_points + off, d_scalars + off, nullptr, nullptr, d_workspace,
                                  at<xyzz_t<Curve>>(d_workspace, cp.layout.buckets), first, stream);
  };
  return plan_and_run<Curve>(n, false, config, d_points, d_scalars, d_workspace, workspace_bytes, h_result, stream,
                             merged_chunks<Curve>(d_workspace, stream, pass));
}

template <class Curve>
status split_msm(const ec::affine<Curve>* d_points, const typename Curve::scalar_field* d_scalars, uint64_t n,
                 void* d_workspace, uint64_t workspace_bytes, ec::xyzz<Curve>* h_result, cudaStream_t stream,
                 const msm_config& config) {
  using namespace msm_detail;
  const auto pass = [&](const msm_plan& cp, uint64_t off, xyzz_t<Curve>* out) {
    return run_split_pass<Curve>(cp, d_points + off, d_scalars + off, d_workspace, out, stream);
  };
  const auto body = [&](const msm_plan& plan) {
    return plan.shape.select_all ? run_split_selected<Curve>(plan, d_points, d_scalars, d_workspace, stream)
                                 : run_chunks<Curve>(plan, d_workspace, stream, pass);
  };
  return plan_and_run<Curve>(n, true, config, d_points, d_scalars, d_workspace, workspace_bytes, h_result, stream,
                             body);
}

template <class Curve>
status msm_streamed(const ec::affine<Curve>* h_points, const typename Curve::scalar_field* d_scalars, uint64_t n,
                    void* d_workspace, uint64_t workspace_bytes, ec::xyzz<Curve>* h_result, cudaStream_t stream,
                    msm_point_stream& points, const msm_config& config) {
  using namespace msm_detail;
  if (config.precomputed.groups > 1) {
    return invalid_argument("GPU MSM: precomputed bases are resident; the streamed MSM takes the points alone");
  }
  const auto body = [&](const msm_plan& plan) {
    const vector_state<Curve> v = workspace_state<Curve>(plan, d_workspace, d_scalars);
    return run_streamed_merged<Curve>(plan, points, h_points, std::span(&v, 1), d_workspace, stream);
  };
  return plan_and_run<Curve>(n, false, streamed_config(config), h_points, d_scalars, d_workspace, workspace_bytes,
                             h_result, stream, body);
}

template <class Curve>
status split_msm_streamed(const ec::affine<Curve>* h_points, const typename Curve::scalar_field* d_scalars,
                          uint64_t n, void* d_workspace, uint64_t workspace_bytes, ec::xyzz<Curve>* h_result,
                          cudaStream_t stream, msm_point_stream& points, const msm_config& config) {
  using namespace msm_detail;
  const auto pass = [&](const msm_plan& cp, uint64_t off, xyzz_t<Curve>* out) {
    return stream_chunk<Curve>(points, h_points + off, cp.shape.n, stream, [&](const affine_t<Curve>* d_points) {
      return run_split_pass<Curve>(cp, d_points, d_scalars + off, d_workspace, out, stream);
    });
  };
  const auto body = [&](const msm_plan& plan) {
    if (streamed_select_fits(plan)) {
      const vector_state<Curve> v = workspace_state<Curve>(plan, d_workspace, d_scalars);
      return run_streamed_selected<Curve>(plan, points, h_points, std::span(&v, 1), d_workspace, stream);
    }
    PP_RETURN_IF_ERROR(run_chunks<Curve>(plan, d_workspace, stream, pass));
    points.bucket_reductions += plan.shape.chunks;
    return ok_status();
  };
  return plan_and_run<Curve>(n, true, streamed_config(config), h_points, d_scalars, d_workspace, workspace_bytes,
                             h_result, stream, body);
}

template <class Curve>
result<uint64_t> msm_vector_state_bytes(uint64_t n, bool split, bool packed, const msm_config& config) {
  PP_ASSIGN_OR_RETURN(const msm_plan plan, plan_msm<Curve>(n, split, msm_detail::streamed_config(config)));
  return make_msm_vector_layout(plan, sizeof(ec::xyzz<Curve>), packed ? sizeof(typename Curve::scalar_field) : 0)
      .total;
}

template <class Curve>
status msm_streamed_vectors(const ec::affine<Curve>* h_points, uint64_t n, bool split, const msm_vectors<Curve>& v,
                            void* d_workspace, uint64_t workspace_bytes, cudaStream_t stream,
                            msm_point_stream& points, const msm_config& config) {
  using namespace msm_detail;
  using bucket = xyzz_t<Curve>;
  using fr = typename Curve::scalar_field;
  const bool packed = !v.packed.empty();
  const size_t count = packed ? v.packed.size() : v.d_scalars.size();
  if (count == 0 || v.h_results.size() != count || (packed && !v.d_scalars.empty())) {
    return invalid_argument("GPU MSM: " + std::to_string(v.d_scalars.size()) + " dense and " +
                            std::to_string(v.packed.size()) + " packed scalar vectors, " +
                            std::to_string(v.h_results.size()) + " results (expected one kind, one result each)");
  }
  if (config.precomputed.groups > 1) {
    return invalid_argument("GPU MSM: precomputed bases are resident; the streamed MSM takes the points alone");
  }
  if (count == 1 && !packed) {
    return split ? split_msm_streamed<Curve>(h_points, v.d_scalars[0], n, d_workspace, workspace_bytes,
                                             &v.h_results[0], stream, points, config)
                 : msm_streamed<Curve>(h_points, v.d_scalars[0], n, d_workspace, workspace_bytes, &v.h_results[0],
                                       stream, points, config);
  }
  PP_ASSIGN_OR_RETURN(const msm_plan plan, make_plan<Curve>(n, split, streamed_config(config)));
  if (split && !streamed_select_fits(plan) && n > 0) {
    if (packed) {
      return invalid_argument("GPU MSM: packed scalar vectors need the selection counted up front (fewer than "
                              "2^31 points and chunks than the sort keys' buffer holds), got " +
                              std::to_string(n) + " points in " + std::to_string(plan.shape.chunks) + " chunks");
    }
    for (size_t i = 0; i < count; ++i) {
      PP_RETURN_IF_ERROR(split_msm_streamed<Curve>(h_points, v.d_scalars[i], n, d_workspace, workspace_bytes,
                                                   &v.h_results[i], stream, points, config));
    }
    return ok_status();
  }
  const msm_vector_layout vl = make_msm_vector_layout(plan, sizeof(bucket), packed ? sizeof(fr) : 0);
  const uint64_t least = split ? vl.buckets : vl.total;
  if (v.d_state == nullptr || v.state_bytes < least || v.state_bytes % 256 != 0 ||
      reinterpret_cast<uintptr_t>(v.d_state) % 256 != 0) {
    return invalid_argument("GPU MSM: expected vector states of at least " + std::to_string(least) +
                            " bytes (a multiple of 256, 256-byte aligned), got " + std::to_string(v.state_bytes));
  }
  std::vector<vector_state<Curve>> states(count);
  for (size_t i = 0; i < count; ++i) {
    void* base = static_cast<char*>(v.d_state) + i * v.state_bytes;
    vector_state<Curve>& st = states[i];
    st.buckets = at<bucket>(base, vl.buckets);
    st.ones = at<bucket>(base, vl.ones);
    st.result = at<bucket>(base, vl.result);
    st.bucket_capacity = v.state_bytes - vl.buckets;
    if (packed) {
      const packed_scalars& p = v.packed[i];
      const bool in_witness = p.d_gather != nullptr || p.first + n <= p.layout.num_variables;
      if (n > 0 && (p.d_packed == nullptr || reinterpret_cast<uintptr_t>(p.d_packed) % 256 != 0 || !in_witness)) {
        return invalid_argument("GPU MSM: packed vector " + std::to_string(i) +
                                (in_witness ? " not on the device, 256-byte aligned"
                                            : " reads variables " + std::to_string(p.first) + " to " +
                                                  std::to_string(p.first + n) + " of " +
                                                  std::to_string(p.layout.num_variables)));
      }
      st.packed = &p;
      st.chunk_scalars = at<fr>(base, vl.scalars);
    } else {
      st.d_scalars = v.d_scalars[i];
    }
    PP_RETURN_IF_ERROR(check_args<Curve>(plan, h_points, packed ? static_cast<const void*>(st.chunk_scalars)
                                                                 : static_cast<const void*>(st.d_scalars),
                                         d_workspace, workspace_bytes, &v.h_results[i]));
  }
  const std::span<const vector_state<Curve>> vs(states);
  PP_RETURN_IF_ERROR(split ? run_streamed_selected<Curve>(plan, points, h_points, vs, d_workspace, stream)
                           : run_streamed_merged<Curve>(plan, points, h_points, vs, d_workspace, stream));
  for (size_t i = 0; i < count; ++i) {
    PP_CUDA_TRY(cudaMemcpyAsync(&v.h_results[i], states[i].result, sizeof(ec::xyzz<Curve>), cudaMemcpyDeviceToHost,
                                stream));
  }
  return ok_status();
}

}  // namespace pp::cuda

#define PP_CUDA_INSTANTIATE_MSM(Curve)                                                                         \
  template result<msm_plan> plan_msm<Curve>(uint64_t, bool, const msm_config&);                                 \
  template result<uint64_t> msm_workspace_bytes<Curve>(uint64_t, const msm_config&);                            \
  template result<uint64_t> split_msm_workspace_bytes<Curve>(uint64_t, const msm_config&);                      \
  template status msm<Curve>(const ec::affine<Curve>*, const Curve::scalar_field*, uint64_t, void*, uint64_t,    \
                             ec::xyzz<Curve>*, cudaStream_t, const msm_config&);                                \
  template status split_msm<Curve>(const ec::affine<Curve>*, const Curve::scalar_field*, uint64_t, void*,        \
                                   uint64_t, ec::xyzz<Curve>*, cudaStream_t, const msm_config&);                \
  template status msm_streamed<Curve>(const ec::affine<Curve>*, const Curve::scalar_field*, uint64_t, void*,     \
                                      uint64_t, ec::xyzz<Curve>*, cudaStream_t, msm_point_stream&,              \
                                      const msm_config&);                                                       \
  template status split_msm_streamed<Curve>(const ec::affine<Curve>*, const Curve::scalar_field*, uint64_t,      \
                                            void*, uint64_t, ec::xyzz<Curve>*, cudaStream_t, msm_point_stream&, \
                                            const msm_config&);                                                 \
  template result<uint64_t> msm_vector_state_bytes<Curve>(uint64_t, bool, bool, const msm_config&);             \
  template status msm_streamed_vectors<Curve>(const ec::affine<Curve>*, uint64_t, bool,                         \
                                              const msm_vectors<Curve>&, void*, uint64_t, cudaStream_t,         \
                                              msm_point_stream&, const msm_config&);
