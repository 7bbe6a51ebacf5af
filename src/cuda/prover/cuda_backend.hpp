// cuda_backend: groth16::backend on one GPU (docs/engine.md). Per partition the host packs the
// witness, the device does upload, SpMV, the H scalars (both bases) and the five MSMs, and the host
// assembles and self-verifies exactly as cpu_backend does (same group elements).
// Device memory (docs/engine.md, "Who owns VRAM"): one region taken at create(), the budget
// (vram_share of the free memory, capped at max_vram_bytes less the pinned mappings' reserve and
// what the driver holds for the kernels, taken at their first launches in the process: create()'s
// warm-up or an earlier backend's, kernel_warmup.hpp); nothing else is
// allocated afterwards.
// The keys it serves are planned together inside the region before anything of a key is placed
// (key_layout.hpp, plan_region): each key's tables resident when they fit, else streamed from
// pinned host memory through two to four chunk slots per lane; the partition workspaces (as many as fit, at
// least one, at most one per lane) are the largest key's and every key lays its partitions out
// inside them. A new key is added beside the planned ones when it fits there; otherwise, once
// every lane is idle, the region is planned again for it and the most recently used keys that fit
// with it (the others are evicted; those of the new plan are placed again when next used), so
// alternating keys that fit together cost one re-plan, not one per switch. A key whose streaming
// plan does not fit the empty region is refused, naming the least region it needs. That policy is
// region_policy.hpp's; key_residency.hpp places one key, partition_launch.hpp runs a partition.
//
// Lanes (docs/engine.md, "GPU lanes"): `lanes` partitions may be in start() at once, each on its
// own copy and compute streams and pinned staging, on one of the region's workspaces, so one
// partition's host packing and upload overlap another's kernels; their kernels take turns in the
// order they took workspaces (compute_turn.hpp). A lane is reserved for the whole
// start() and released when its compute stream's last event has completed: nothing device-global
// (no cudaMalloc, cudaFree or device synchronization) happens after create().
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "cuda/plan/backend_config.hpp"
#include "groth16/backend.hpp"
#include "groth16/evaluation_prover.hpp"

namespace pp::cuda {

struct compact_r1cs;

class cuda_backend final : public groth16::backend {
 public:
  // Selects the device, takes the device region and the staging buffer, creates the copy and
  // compute streams and the events. The only place this backend allocates device memory.
  static result<std::unique_ptr<cuda_backend>> create(const cuda_backend_config& cfg);
  ~cuda_backend() override;
  cuda_backend(const cuda_backend&) = delete;
  cuda_backend& operator=(const cuda_backend&) = delete;

  [[nodiscard]] std::string_view name() const override { return "cuda"; }
  // The witness (32 B per variable) and the host assembly's few points: packing goes into the lane's
  // pinned staging and everything else into the VRAM region, both taken once at creation.
  [[nodiscard]] uint64_t host_bytes_per_partition(uint64_t num_variables, uint64_t) const override {
    return (32 * num_variables + (uint64_t{1} << 20) + 4095) / 4096 * 4096;
  }

  // What prepare() would take for (pk, cs) in an empty region of cfg.max_vram_bytes (0: unlimited)
  // with cfg's lanes and staging size; invalid_argument when they do not match, resource_exhausted
  // (naming the least budget) when the key does not fit even streamed. footprint, prepare and
  // resident_footprint take either curve's key (instantiated in cuda_backend.cpp).
  template <class Family>
  static result<key_footprint> footprint(const groth16::basic_proving_key<Family>& pk,
                                         const r1cs::basic_constraint_system<typename Family::fr>& cs,
                                         const cuda_backend_config& cfg = {});

  // Plans the key with the ones already planned (beside them, else a new plan of the region: see
  // above), uploads its resident tables and pins its streamed ones (once per (pk, cs); start()
  // calls it when needed, so the first proof with a key pays the upload). Keys are cached by
  // address plus a fingerprint (sizes, first points, delta); a key changed in place needs
  // clear_keys(), and a streamed key's tables are read from pk in every partition (pk must live as
  // long as it is prepared).
  // failed_precondition when the key does not fit the region even alone (names the least budget).
  // Waits for every lane to be idle when the region is planned again. compact: cs's compact matrices
  // when the caller has them (make_compact_r1cs takes seconds at 2^27), else built here.
  template <class Family>
  status prepare(const groth16::basic_proving_key<Family>& pk,
                 const r1cs::basic_constraint_system<typename Family::fr>& cs, const compact_r1cs* compact = nullptr);
  // What prepare() carved for (pk, cs); not_found when that key is not resident. Cheap (footprint()
  // compacts the matrices again to size them).
  template <class Family>
  [[nodiscard]] result<key_footprint> resident_footprint(
      const groth16::basic_proving_key<Family>& pk, const r1cs::basic_constraint_system<typename Family::fr>& cs) const;
  // Forgets every resident key (the region is reused from its start). Not while a start() runs.
  void clear_keys();
  // The caller is about to free pk: when a resident key was placed from it, every key is evicted
  // once every lane is idle (the region starts over; other keys are placed again on their next
  // proof). Safe while proofs run (they finish first); the caller must hold no lane.
  template <class Family>
  void forget_key(const groth16::basic_proving_key<Family>& pk) {
    forget_key_at(&pk);
  }

  // start(): validates like cpu_backend, takes a free lane (waits for one), packs the witness into
  // the lane's staging, takes a workspace (waits for one), enqueues upload (copy stream) -> SpMV ->
  // H scalars -> MSMs (compute stream, ordered by an event, behind the previous partition's kernels)
  // and waits for the compute stream's last event: it returns when the
  // lane's device work is done and the five MSM sums are on the host. A key that is not planned is
  // planned as prepare() does; one that does not fit an empty region fails with
  // failed_precondition (the device stays healthy). Up to `lanes` calls run at
  // once; the pending's timings carry the lane's GPU intervals as spans (tracks "laneN/copy",
  // "laneN/compute").
  // A CUDA error fails the partition with status internal (the CUDA error text) and marks the
  // backend unhealthy: later calls fail with unavailable.
  result<groth16::pending_ptr> start(const groth16::prove_request& req) override;
  // Several partitions of one key (every request names the same pk and cs; 1 to 8) at once on one
  // lane, sharing the streamed copies of L, A, B_G1 and B_G2 (docs/perf/vram-budgets.md, "One copy of
  // a chunk for several partitions"): each partition's front and H's MSM in turn, then those four
  // MSMs once for all, each chunk of points copied once; their witnesses packed in the lane's staging
  // together (gpu staging must hold them). Returns a pending each, in order, as start() would give:
  // the same proofs. failed_precondition (the backend healthy) when the key's plan keeps one of those
  // four tables resident or when the packed witnesses and the MSMs' states do not fit the lane's
  // witness and scalar buffers; resource_exhausted when the staging does not hold the packed
  // witnesses. BLS12-381's circuits (the engine takes them together: engine_config::partitions_together).
  result<std::vector<groth16::pending_ptr>> start_together(std::span<const groth16::prove_request> reqs) override;
  // max_partitions_together (cuda/plan/together_plan.hpp).
  [[nodiscard]] size_t partitions_together() const override;
  // BN254 (circom's bn128) the same way on the same region and lanes, its key placed beside
  // BLS12-381's as any key is: the kernels over BN254's fields, the sums assembled by finish_bn254.
  // cuda_bn254_backend.hpp is this backend's groth16::basic_backend face for BN254.
  result<groth16::pending_ptr> start(const groth16::basic_prove_request<ec::bn254::family>& req);
  // A proof from QAP evaluations (supraseal-c2's ABI, src/c2): checked as prove_from_evaluations
  // does, then on a free lane (waits for one) as start() runs a partition, with the SpMV replaced by
  // copies of req's a, b, c (partition_launch.hpp, run_evaluation_partition); finished and verified
  // by groth16::finish_from_sums, so the bytes equal prove_from_evaluations'. The key is placed (and
  // evicted, streamed) as start()'s are, once per (pk, densities): no matrices, the gather lists
  // from req's densities. Up to `lanes` calls (and start()s) run at once. a, b, c travel through
  // the lane's pinned staging and are checked on the way: a value not below r is invalid_argument
  // naming it ("b[7] ..."). The lane is free again before the proof is assembled and verified.
  result<groth16::proof> prove_evaluations(const groth16::evaluation_request& req);

  // Host assembly with (r, s) exactly as cpu_backend::finish, then the optional self-verification.
  // Touches no device state (runs on any thread, concurrently with start()).
  result<groth16::prove_output> finish(groth16::pending_ptr p) override;
  result<groth16::basic_prove_output<ec::bn254::family>> finish_bn254(groth16::pending_ptr p);

  // Host memory the backend takes for a key beyond the key's own vectors (which it pins in place):
  // the image of the streamed matrices' rows (~4.5 GiB at 2^27, made when a plan streams them) is
  // charged through charge(bytes) before it is made, and the token it returns is held while the key
  // is placed. A refused charge fails that key's proofs with failed_precondition (the device stays
  // healthy). Unset: nothing is charged. Whoever owns the host budget sets it (the engine, through
  // devices::device::set_host_charge), before the first proof.
  using host_charge_fn = cuda::host_charge_fn;  // backend_config.hpp
  void set_host_charge(host_charge_fn charge);

  [[nodiscard]] bool healthy() const;
  [[nodiscard]] std::string last_error() const;  // the CUDA error that made it unhealthy
  [[nodiscard]] int device() const;
  [[nodiscard]] uint64_t capacity_bytes() const;  // the device region
  // Device memory the driver took for the kernels (their code and local memory) at their first
  // launches in this process (create()'s warm-up, or an earlier backend's): counted in max_vram_bytes
  // (0 only when the process had run them before any backend measured it).
  [[nodiscard]] uint64_t driver_bytes() const;
  [[nodiscard]] uint64_t used_bytes() const;      // by the planned keys and the partition workspaces
  // Times the region was planned again for a key that did not fit beside the planned ones (each
  // evicts the keys placed until then) since create().
  [[nodiscard]] uint64_t replans() const;
  [[nodiscard]] uint32_t lanes() const;
  // Bytes copied host to device by partitions (witnesses and streamed points) since create().
  [[nodiscard]] uint64_t h2d_bytes() const;
  // Host bytes the placed keys hold page-locked (at most cfg.max_pinned_bytes).
  [[nodiscard]] uint64_t pinned_bytes() const;

  // GPU activity measured with CUDA events: the union of every lane's compute-stream intervals
  // (first kernel after the upload to the last MSM) since create() or reset_activity().
  struct activity {
    double busy_ms = 0;   // union of the compute intervals
    double span_ms = 0;   // first interval's begin to the last one's end
    uint64_t partitions = 0;
    [[nodiscard]] double busy_fraction() const { return span_ms > 0 ? busy_ms / span_ms : 0; }
  };
  [[nodiscard]] activity gpu_activity() const;
  void reset_activity();

  struct impl;

 private:
  explicit cuda_backend(std::unique_ptr<impl> p);
  void forget_key_at(const void* pk);
  std::unique_ptr<impl> impl_;
};

}  // namespace pp::cuda
