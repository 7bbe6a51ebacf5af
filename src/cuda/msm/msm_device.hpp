// GPU multi-scalar multiplication over G1 and G2 of BLS12-381 and BN254 (one instantiation .cu each)
// with points and scalars resident on the device: Pippenger with signed (Booth) windows, and the
// split MSM of witness-like scalars (zeros skipped, ones summed directly, Pippenger on the rest).
// Points may also stream from host memory, for one scalar vector or several at once (each chunk
// copied once for all). Results equal the host msm::pippenger / msm::split_msm as group elements.
// Plain C++ header.
//
// Use: msm_workspace_bytes<Curve>(n) -> caller allocates -> msm<Curve>(...) any number of times on
// any stream. Nothing allocates; only split_msm synchronizes (once, see there); the result lands in
// *h_result once the stream reaches the end of the call (the caller synchronizes). n < 2^32: more
// points than the chunk limit run as consecutive chunks on the one workspace (sized for one chunk,
// plus 8 bytes per point for the split MSM's index lists when it selects over all n: msm_plan.hpp,
// select_all), summed on the device.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>

#include "core/result.hpp"
#include "cuda/plan/msm_plan.hpp"
#include "cuda/plan/witness_layout.hpp"
#include "cuda/runtime/link_pacer.hpp"
#include "ec/affine.hpp"
#include "ec/xyzz.hpp"
#include "ff/fr.hpp"

namespace pp::cuda {

// The plan (sizes and workspace layout) for n points; plan.layout.total is the workspace size,
// plan.shape the per-chunk counts and the number of chunks. msm_config: msm_plan.hpp. The plan is the
// host's (msm_workspace.hpp, plan_gpu_msm): the same on every machine, with or without a device.
template <class Curve>
result<msm_plan> plan_msm(uint64_t n, bool split, const msm_config& config = {});

// Bytes of device workspace msm / split_msm need for n points (those of min(n, chunk limit) points).
template <class Curve>
result<uint64_t> msm_workspace_bytes(uint64_t n, const msm_config& config = {});
template <class Curve>
result<uint64_t> split_msm_workspace_bytes(uint64_t n, const msm_config& config = {});

// Sum of [d_scalars[i]] d_points[i] for i < n. d_scalars: the curve's Fr (Curve::scalar_field) in
// Montgomery form (any value < r).
// d_points: affine storage, infinity as (0, 0). d_workspace: >= msm_workspace_bytes(n), 256-byte
// aligned. The result, an XYZZ point, is copied to h_result (host memory; pinned keeps the copy
// asynchronous) and also left in the workspace (see result_in_workspace).
template <class Curve>
status msm(const ec::affine<Curve>* d_points, const typename Curve::scalar_field* d_scalars, uint64_t n,
           void* d_workspace, uint64_t workspace_bytes, ec::xyzz<Curve>* h_result, cudaStream_t stream,
           const msm_config& config = {});

// Same result; scalars equal to 0 are skipped, points with scalar 1 are summed by a gather-and-add
// tree, Pippenger runs on the other points (index lists compacted on the device). Workspace:
// split_msm_workspace_bytes(n). When n < 2^31 takes at most msm_tuning::split_select_all_max_chunks
// chunks, the lists cover all n points and the call waits for `stream` once (cudaStreamSynchronize,
// after the selection) to read how many points Pippenger gets, so that its passes cover only those;
// otherwise each chunk selects its own, without waiting.
template <class Curve>
status split_msm(const ec::affine<Curve>* d_points, const typename Curve::scalar_field* d_scalars, uint64_t n,
                 void* d_workspace, uint64_t workspace_bytes, ec::xyzz<Curve>* h_result, cudaStream_t stream,
                 const msm_config& config = {});

// Points streamed from host memory (pinned keeps the copies asynchronous): every chunk of an MSM is
// copied on `copy` into the next of `slots` device slots (msm_min_point_slots to msm_max_point_slots) and its kernels
// wait for that copy, so the copies of the next slots - 1 chunks overlap the kernels of the chunk
// before them (two slots: double buffering). loaded[i] / freed[i] (events, timing off) order slot i
// between the two streams; `turn` picks the next slot and carries over from one MSM to the next on
// the same slots. The caller orders the first copy after any earlier use of the slots' memory (the
// slots may alias buffers that are dead by then).
struct msm_point_stream {
  void* d_slot[msm_max_point_slots] = {};
  int slots = msm_min_point_slots;
  uint64_t slot_bytes = 0;  // each; at least one chunk of points
  cudaStream_t copy = nullptr;
  cudaEvent_t loaded[msm_max_point_slots] = {};
  cudaEvent_t freed[msm_max_point_slots] = {};
  uint64_t turn = 0;
  uint64_t h2d_bytes = 0;  // bytes copied so far
  link_pace pace;          // the copies' share of a paced link (link_pacer.hpp; unpaced by default)
  // Bucket reductions run so far: 1 a plain MSM; a split MSM 1 when its chunks carry their buckets
  // (msm_run.cuh, run_streamed_selected), else 1 a chunk.
  uint64_t bucket_reductions = 0;
  // Of those, the sets of several vectors' reductions run together (msm_run.cuh, reduce_together).
  uint64_t reductions_together = 0;
};

// msm / split_msm with the points in host memory (h_points), streamed through `points`' slots in
// chunks of the config's chunk limit (the workspace is sized by the same config; a split one's
// needs only msm_config::streamed's, index lists for one chunk). msm_streamed does
// not wait. split_msm_streamed selects over all its points as split_msm does, with the scalars that
// are on the device: it counts each chunk's points whose scalar is neither 0 nor 1 up front and
// waits for `stream` once to read those counts (the first chunks' copies, one a slot, queued
// before), so that each chunk's one Pippenger pass covers only those points, at one width for all
// chunks where their buckets fit the workspace (added into one set, reduced once), else at the
// width for each chunk's number (each chunk reduced); beyond 2^31 points (or more chunks than its
// sort keys' buffer holds counts) each chunk selects its own, without waiting. Its index lists use
// the first 8 bytes per chunk point of the workspace's.
template <class Curve>
status msm_streamed(const ec::affine<Curve>* h_points, const typename Curve::scalar_field* d_scalars, uint64_t n,
                    void* d_workspace, uint64_t workspace_bytes, ec::xyzz<Curve>* h_result, cudaStream_t stream,
                    msm_point_stream& points, const msm_config& config = {});
template <class Curve>
status split_msm_streamed(const ec::affine<Curve>* h_points, const typename Curve::scalar_field* d_scalars,
                          uint64_t n, void* d_workspace, uint64_t workspace_bytes, ec::xyzz<Curve>* h_result,
                          cudaStream_t stream, msm_point_stream& points, const msm_config& config = {});

// A table's scalars read from a witness packed on the device (witness_layout.hpp: the bitmap of its
// 0/1 values, the ascending positions of the others and their values): scalar t is variable
// d_gather[t] (a filtered query's points), or first + t without a list. Kept packed (PoRep's
// witnesses are ~90% 0/1: ~1/10 of the dense vector), a chunk's scalars are expanded into the
// vector's state right before its kernels, so that several partitions' witnesses fit beside one
// workspace. Gather indices past the witness read as 0.
struct packed_scalars {
  const void* d_packed = nullptr;  // layout.bytes, 256-byte aligned, values of the curve's Fr
  compact_witness_layout layout;
  const uint32_t* d_gather = nullptr;  // n indices, or null
  uint64_t first = 0;
};

// Several scalar vectors over one streamed table, as partitions of one key taken together use it
// (docs/perf/vram-budgets.md, "Partitions taken together through the backend"): every chunk of
// points is copied once and its kernels run for each vector in turn, each vector's state (its
// buckets carried across the chunks, its scalar-1 sum, its result: msm_vector_layout) in its own
// part of d_state, reduced once a vector where the buckets carry. The vectors are dense on the
// device (d_scalars) or packed (packed; one of the two is empty). h_results[i] is msm_streamed's
// (split: split_msm_streamed's) sum for vector i; the copies are one MSM's. A dense split MSM whose
// selection cannot be counted up front (2^31 points or more, or more chunks than the sort keys'
// buffer holds counts) runs split_msm_streamed once a vector instead (each copies the table);
// packed ones are refused there. One dense vector is msm_streamed / split_msm_streamed.
template <class Curve>
struct msm_vectors {
  std::span<const typename Curve::scalar_field* const> d_scalars;  // n scalars each, on the device
  std::span<const packed_scalars> packed;
  std::span<ec::xyzz<Curve>> h_results;  // one a vector (pinned keeps the copies asynchronous)
  void* d_state = nullptr;               // vectors x state_bytes, 256-byte aligned
  // Each vector's: msm_vector_state_bytes. A split MSM takes less, down to its buckets' offset
  // (msm_vector_layout): its chunks then carry their buckets at a width whose array fits what is
  // left, or each chunk reduces its own.
  uint64_t state_bytes = 0;
};
template <class Curve>
result<uint64_t> msm_vector_state_bytes(uint64_t n, bool split, bool packed, const msm_config& config = {});
template <class Curve>
status msm_streamed_vectors(const ec::affine<Curve>* h_points, uint64_t n, bool split, const msm_vectors<Curve>& v,
                            void* d_workspace, uint64_t workspace_bytes, cudaStream_t stream,
                            msm_point_stream& points, const msm_config& config = {});

// Where the device copy of the last result lives inside a workspace laid out by plan.
template <class Curve>
const ec::xyzz<Curve>* result_in_workspace(const msm_plan& plan, const void* d_workspace) {
  return reinterpret_cast<const ec::xyzz<Curve>*>(static_cast<const char*>(d_workspace) + plan.layout.result);
}

}  // namespace pp::cuda
