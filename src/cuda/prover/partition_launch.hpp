// partition_launch: one Groth16 partition on a lane of the CUDA backend (lane.hpp: a copy stream, a
// compute stream, timing events and pinned staging), on one of the region's workspaces laid out for
// its key (key_residency.hpp): witness upload (copy stream) -> SpMV -> H scalars -> the five MSMs
// (compute stream), the streamed tables' chunks copied on the copy stream into the workspace's point
// slots while the chunks before run; streamed matrices' row chunks go the same way through the
// workspace's two matrix slots during the SpMV. From QAP evaluations (run_evaluation_partition) the
// SpMV gives way to copies of the caller's a, b, c. A circuit's partition is either curve's (the key's:
// instantiated in partition_launch.cpp); evaluations are BLS12-381's. Internal to the cuda layer.
#pragma once
#include <cuda_runtime_api.h>

#include <cstdint>
#include <span>
#include <vector>

#include "core/result.hpp"
#include "cuda/key/key_residency.hpp"
#include "cuda/plan/together_plan.hpp"
#include "cuda/prover/lane.hpp"
#include "cuda/runtime/compute_turn.hpp"
#include "cuda/spmv/witness_upload.hpp"
#include "ec/xyzz.hpp"
#include "groth16/backend.hpp"
#include "groth16/evaluation_prover.hpp"
#include "groth16/proof_assembly.hpp"

namespace pp::cuda {

template <class Family>
struct basic_partition_result {
  groth16::basic_msm_sums<Family> sums;
  uint64_t h2d_bytes = 0;  // witness and streamed points copied to the device
  float compute_begin_ms = 0, compute_end_ms = 0;  // since the origin, for the busy union
};
using partition_result = basic_partition_result<ec::bls12_381::family>;

// Packs values (a witness, or an evaluation request's aux values) into the lane's staging, the MSM
// sums' tail left free: host work that needs no workspace, so a lane does it while another lane's
// partition holds the workspace and the GPU. Timed as "pack witness (host)".
template <class Fr>
result<compact_witness_layout> pack_partition(std::span<const Fr> values, lane& ln, groth16::prove_timings& t);

// Runs one partition of key k on lane ln and workspace pw, its witness packed in the lane's staging
// (`packed`, from pack_partition), and returns when the lane's device work has completed (a
// per-event wait, never a device synchronization). The upload starts at once; the kernels take
// their turn (turn.begin() before the first, turn.end() after the last). Timings and spans go to t.
template <class Family>
result<basic_partition_result<Family>> run_partition(const key_entry& k, const partition_workspace& pw, lane& ln,
                                                     const r1cs::basic_constraint_system<typename Family::fr>& cs,
                                                     const compact_witness_layout& packed, compute_turn& turn,
                                                     const gpu_clock& clock, groth16::prove_timings& t);

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

// failed_precondition when key k's plan keeps one of L, A, B_G1 and B_G2 resident: no streamed copy
// to share, its partitions go one at a time.
status check_shared_tables_streamed(const key_entry& k);

// A partition's witness packed in the lane's staging, `offset` bytes in.
struct packed_partition {
  compact_witness_layout layout;
  uint64_t offset = 0;
};

// The witnesses of partitions taken together, packed one at a time, one after the other, into a
// lane's staging (the sums of partitions together at its tail). The caller packs the first before it
// takes a workspace, as on a lane alone; run_partitions_together packs each next one while the GPU
// runs the one before, so a group's GPU work starts behind one packing, not all of them. Timed into
// timings()[i] as "pack witness (host)".
template <class Fr>
class together_packing {
 public:
  // invalid_argument: not 1 to max_partitions_together values, or a timing each; resource_exhausted:
  // the staging does not hold the sums.
  static result<together_packing> create(std::span<const std::span<const Fr>> values, lane& ln,
                                         std::span<groth16::prove_timings* const> t);
  // Packs the next partition behind the ones before; resource_exhausted when the staging does not
  // hold it, naming how many did.
  [[nodiscard]] status pack_next();
  [[nodiscard]] size_t count() const { return values_.size(); }
  [[nodiscard]] std::span<const packed_partition> packed() const { return packed_; }
  [[nodiscard]] std::span<groth16::prove_timings* const> timings() const { return t_; }
  // The staging the packed witnesses take, each padded to 256 bytes: the same bytes in the
  // workspace when they are uploaded again.
  [[nodiscard]] uint64_t packed_bytes() const { return at_; }

 private:
  together_packing(std::span<const std::span<const Fr>> values, lane& ln, std::span<groth16::prove_timings* const> t);
  std::span<const std::span<const Fr>> values_;
  lane* ln_;
  std::span<groth16::prove_timings* const> t_;
  std::vector<packed_partition> packed_;
  uint64_t at_ = 0;
};

// Runs the partitions of key k together on lane ln and workspace pw, their witnesses packed by
// `packing` (the first by the caller, else here; each next one here, under the GPU work of the one
// before), and returns when the lane's device work has completed: each partition's front and H's
// MSM as run_partition's (the host waits for each), then L, A, B_G1 and B_G2 once for all of them
// (msm_streamed_vectors: every streamed chunk copied once, each partition's witness read packed
// from the workspace's witness and scalar buffers, uploaded again), so a partition copies H, its
// witness twice and its matrix rows, and 1/count of the other four tables. The caller has checked
// check_shared_tables_streamed. resource_exhausted (fewer may fit) when the staging does not hold
// every packed witness, or the workspace's witness and scalar buffers do not hold them and their
// least MSM vector states: both are known only once the last is packed, with the fronts before it
// enqueued, which the caller drains (cuda_backend: fail_partition) and drops.
// Timings: each partition's own steps, and a share (1/count) of the shared ones.
template <class Family>
result<std::vector<basic_partition_result<Family>>> run_partitions_together(
    const key_entry& k, const partition_workspace& pw, lane& ln,
    const r1cs::basic_constraint_system<typename Family::fr>& cs, together_packing<typename Family::fr>& packing,
    compute_turn& turn, const gpu_clock& gclock);

}  // namespace pp::cuda
