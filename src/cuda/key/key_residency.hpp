// key_residency: one key on one CUDA backend (cuda_backend.hpp) as its plan placed it: the tables in
// the device region (resident) or pinned in host memory (streamed), and the lanes' partition
// workspaces. Sizing (shape_key, chunking_options) is key_sizing.hpp's, on the host alone; placing
// (upload_key) copies the resident tables once, at setup. A key proves either circuits (with cs's
// matrices for the SpMV) or QAP evaluations (no matrices; its density gather lists from the
// request: shape_evaluation_key). Either curve's circuit key (BLS12-381's or BN254's; evaluation keys are
// BLS12-381's): the templates are instantiated in key_residency.cpp. Internal to the cuda layer.
#pragma once
#include <cuda_runtime_api.h>

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <variant>
#include <vector>

#include "core/result.hpp"
#include "cuda/plan/key_layout.hpp"
#include "cuda/plan/key_sizing.hpp"
#include "cuda/qap/groth16_qap.hpp"
#include "cuda/runtime/pinned_chunk_copier.hpp"
#include "cuda/runtime/pinned_host.hpp"
#include "cuda/spmv/spmv_device.hpp"
#include "ec/affine.hpp"
#include "groth16/evaluation_prover.hpp"
#include "groth16/keys.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::cuda {

// What tells a cached key from a different one that reuses its address. An evaluation key has no
// cs; its densities' hash tells keys placed for different gather lists apart (a collision would give
// wrong sums, which the proof's verification turns into an error).
struct key_fingerprint {
  const void* pk = nullptr;  // a groth16::basic_proving_key of either curve
  const void* cs = nullptr;
  uint64_t n_vars = 0, domain = 0, nh = 0, nl = 0, constraints = 0;
  groth16::h_basis basis{};
  uint64_t points = 0;  // a hash of the curve's name, H's first point, L's last and delta_1
  uint64_t densities = 0;
  template <class Family>
  static key_fingerprint of(const groth16::basic_proving_key<Family>& pk,
                            const r1cs::basic_constraint_system<typename Family::fr>& cs);
  static key_fingerprint of_evaluations(const groth16::evaluation_request& req);
  bool operator==(const key_fingerprint& o) const = default;
};

// The variable indices (into the witness: inputs, then aux) of the filtered A and B queries, in their
// points' order; empty for an unfiltered query (its scalars are the witness itself).
struct gather_lists {
  std::vector<uint32_t> a, b;
  template <class Family>
  static gather_lists of(const groth16::basic_proving_key<Family>& pk);  // pk's density bitmaps
  // An evaluation request's densities: A = every input and the aux set in a_aux, B = the inputs set
  // in b_inputs and the aux set in b_aux (bellperson's order).
  static gather_lists of(const groth16::evaluation_request& req);
};

// The precomputed bases H's MSM runs over with `copies` copies of its n points (the points count as
// one) in m's workspace: make_msm_precomputation's width, else the widest narrower one down to the
// table's width for a chunk, whose workspace fits m.workspace_bytes (the table's width always does:
// no more digits, no more buckets than the plain MSM's). groups 1 when copies < 2.
template <class G1>
result<msm_precomputation> h_precomputation(uint64_t n, uint32_t copies, const msm_chunking& m);

// One partition workspace (device pointers into the region). The scalar vectors hold the key's
// curve's Fr (32 bytes either way): partition_launch.cpp reads them as that.
struct partition_workspace {
  void* d_w = nullptr;
  void* d_scalars = nullptr;  // a, then h, then the gathered A / B scalars
  void *d_b = nullptr, *d_c = nullptr;
  void* d_witness_ws = nullptr;
  void* d_msm_ws = nullptr;
  void* d_slot[msm_max_point_slots] = {};  // the lane layout's slots (point chunks)
  void* d_mslot[2] = {nullptr, nullptr};  // streamed matrix rows
};

struct key_entry {
  key_fingerprint id;
  key_shape shape;
  key_plan plan;
  uint64_t base = 0;  // offset of the key in the region
  std::variant<device_qap, basic_device_qap<ff::bn254::fr>> qap;  // the key's curve's
  device_r1cs matrices;  // streamed: only the tables are on the device
  // Streamed matrices: their row chunks, laid out in host memory as the slots receive them (the
  // key's own copy: the caller's compact matrices may die), pinned unless pinning failed.
  spmv_chunking matrix_chunks;
  std::unique_ptr<std::byte[]> matrix_image;
  pinned_range matrix_pin;
  std::shared_ptr<void> host_charge;  // the host budget's charge for matrix_image (cuda_backend::set_host_charge)
  // Each table's points: on the device (resident) or in host memory (streamed; pinned unless
  // pinning failed, see pinned).
  std::array<const void*, key_table_count> points{};
  std::array<pinned_range, key_table_count> pins;
  bool pinned = true;  // every streamed table (and the streamed matrices' image) is pinned
  uint64_t pinned_bytes = 0;  // held page-locked by this key
  const uint32_t *d_a_idx = nullptr, *d_b_idx = nullptr;
  msm_precomputation h_pre{};  // H's precomputed copies (plan.h_copies > 1), made by upload_key
  // The region's shared workspaces (one per lane of its plan) as this key lays them out; which are
  // free is the backend's to track (every key of the region uses the same ones).
  std::vector<partition_workspace> ws;
  [[nodiscard]] bool resident(int t) const { return plan.resident[t]; }
};

// Where the region's partition workspaces are: count of them, stride bytes apart from offset.
struct workspace_span {
  uint64_t offset = 0, stride = 0;
  uint32_t count = 0;
};

// Places k (its plan and base set) at d_region + k.base: copies the resident tables (through
// staging's pinned chunks), the matrices (or only their coefficient tables; none for an evaluation
// key: compact null), the NTT tables and the gather lists on `copy` and waits for it (setup); pins the streamed tables and
// makes and pins the streamed matrices' image (a warning and pageable streaming when pinning fails,
// or for what would take the key past pin_budget bytes pinned); points the workspaces of `lanes`
// (region offsets; each at least k.plan.lane.bytes) at its lane layout. The streamed matrices' row
// chunks are the plan's (key_plan::matrix_chunk_bytes).
template <class Family>
status upload_key(key_entry& k, const groth16::basic_proving_key<Family>& pk, const compact_r1cs* compact,
                  const gather_lists& gather, void* d_region, cudaStream_t copy, pinned_chunk_copier& staging,
                  const workspace_span& lanes, uint64_t pin_budget);

}  // namespace pp::cuda
