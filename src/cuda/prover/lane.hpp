// lane: one of the CUDA backend's partitions in flight (cuda_backend.hpp, "Lanes"): its copy and
// compute streams, the events that order and time its steps, its share of a paced link and its pinned
// staging. Made once at create(); a partition runs on it (partition_launch.hpp) while the caller
// holds it in the backend's lane pool. Internal to the cuda layer.
#pragma once
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "core/result.hpp"
#include "cuda/plan/msm_plan.hpp"
#include "cuda/runtime/cuda_event.hpp"
#include "cuda/runtime/cuda_stream.hpp"
#include "cuda/runtime/link_pacer.hpp"

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
  cuda_stream copy, compute;
  std::array<cuda_event, ev_count> events;
  // The streamed chunks' copies on the copy stream: first and last (timing), and the slot events.
  cuda_event stream_begin, stream_end;
  // Partitions taken together: their packed witnesses' second upload, for the shared MSMs, on the copy
  // stream under the last partition's H MSM (partition_launch.cpp; timing).
  cuda_event again_begin, again_end;
  std::array<cuda_event, msm_max_point_slots> slot_loaded, slot_freed;  // point slots; [0], [1] matrix rows too
  cuda_event turn_end;  // behind the lane's last kernel of its latest turn (compute_turn.hpp)
  link_pace pace;       // the copy stream's share of a paced link (unpaced by default)
  std::span<std::byte> staging;
  std::string copy_track, compute_track;  // the trace's tracks: "laneN/copy", "laneN/compute"

  // Lane `id` on the current device, with its pinned staging and its pace (link_pace_for).
  static result<lane> create(uint32_t id, std::span<std::byte> staging, const link_pace& pace);
};

// The lanes' GPU time origin: an event completed at create(), and the host time just after.
struct gpu_clock {
  const cuda_event* origin = nullptr;
  std::chrono::steady_clock::time_point host_origin;
};

}  // namespace pp::cuda
