// partition_launch: one Groth16 partition on a lane of the CUDA backend (cuda_backend.hpp). A lane
// is a copy stream, a compute stream, timing events and a pinned staging buffer; the partition runs
// on one of the region's workspaces, laid out for its key (key_residency.hpp): witness upload (copy
// stream) -> SpMV -> H scalars -> the five MSMs (compute stream), the streamed tables' chunks copied
// on the copy stream into the workspace's point slots while the chunks before run; streamed matrices'
// row chunks go the same way through the workspace's two matrix slots during the SpMV. From QAP
// evaluations (run_evaluation_partition) the SpMV gives way to copies of the caller's a, b, c.
// Internal to the cuda layer.
#pragma once
#include <cuda_runtime_api.h>

#include <array>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>

#include "core/result.hpp"
#include "cuda/key/key_residency.hpp"
#include "cuda/runtime/compute_turn.hpp"
#include "cuda/runtime/cuda_event.hpp"
#include "cuda/runtime/link_pacer.hpp"
#include "cuda/spmv/witness_upload.hpp"
#include "ec/xyzz.hpp"
#include "groth16/backend.hpp"
#include "groth16/evaluation_prover.hpp"
#include "groth16/proof_assembly.hpp"

namespace pp::cuda {

// Timing events of one partition, in the order they are recorded: ev_start and ev_uploaded on the
// copy stream, the rest on the compute stream (ev_compute_begin: its wait for the upload is over).
// The gathers of the filtered A / B scalars count in the A / B_G1 MSM steps.
enum partition_event : int {
  ev_start, ev_uploaded, ev_compute_begin, ev_spmv, ev_h, ev_msm_l, ev_msm_h, ev_msm_a, ev_msm_b1, ev_msm_b2,
  ev_count
};

struct lane {
  uint32_t id = 0;
  cudaStream_t copy = nullptr, compute = nullptr;
  std::array<cuda_event, ev_count> events;
  // The streamed chunks' copies on the copy stream: first and last (timing), and the slot events.
  cuda_event stream_begin, stream_end;
  std::array<cuda_event, msm_max_point_slots> slot_loaded, slot_freed;  // point slots; [0], [1] matrix rows too
  cuda_event turn_end;  // behind the lane's last kernel of its latest turn (compute_turn.hpp)
  link_pace pace;       // the copy stream's share of a paced link (unpaced by default)
  std::span<std::byte> staging;
  std::string copy_track, compute_track;
};

// The lane's GPU time origin: an event completed at create(), and the host time just after.
struct gpu_clock {
  const cuda_event* origin = nullptr;
  std::chrono::steady_clock::time_point host_origin;
};

struct partition_result {
  groth16::msm_sums sums;
  uint64_t h2d_bytes = 0;  // witness and streamed points copied to the device
  float compute_begin_ms = 0, compute_end_ms = 0;  // since the origin, for the busy union
};

// Packs values (a witness, or an evaluation request's aux values) into the lane's staging, the MSM
// sums' tail left free: host work that needs no workspace, so a lane does it while another lane's
// partition holds the workspace and the GPU. Timed as "pack witness (host)".
result<compact_witness_layout> pack_partition(std::span<const ff::fr> values, lane& ln, groth16::prove_timings& t);

// Runs one partition of key k on lane ln and workspace pw, its witness packed in the lane's staging
// (`packed`, from pack_partition), and returns when the lane's device work has completed (a
// per-event wait, never a device synchronization). The upload starts at once; the kernels take
// their turn (turn.begin() before the first, turn.end() after the last). Timings and spans go to t.
result<partition_result> run_partition(const key_entry& k, const partition_workspace& pw, lane& ln,
                                       const r1cs::constraint_system& cs, const compact_witness_layout& packed,
                                       compute_turn& turn, const gpu_clock& clock, groth16::prove_timings& t);

// The same from a checked evaluation request (groth16::check_evaluation_request) on an evaluation key
// (shape_evaluation_key), req.aux packed by pack_partition: the aux values uploaded behind the
// inputs, then a, b, c copied from req's memory (zero-padded to the domain) through the rest of the
// staging on the copy stream, each transformed as soon as it has arrived (b and c in turns when the
// plan says so), then the same MSMs. "gpu witness upload" is the copy stream's whole upload, which
// overlaps the H transforms.
result<partition_result> run_evaluation_partition(const key_entry& k, const partition_workspace& pw, lane& ln,
                                                  const groth16::evaluation_request& req,
                                                  const compact_witness_layout& packed, compute_turn& turn,
                                                  const gpu_clock& clock, groth16::prove_timings& t);

// Bytes of a lane's staging tail that hold the MSM sums (the rest takes the packed witness).
uint64_t sums_staging_bytes();

}  // namespace pp::cuda
