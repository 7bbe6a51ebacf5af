// cuda_backend (cuda_backend.hpp): the facade. The region policy (region_policy.hpp) plans and places
// the keys; every partition, from a circuit or from evaluations, goes one way (impl::on_lane): a
// lane, its key, its values packed, a workspace, the kernels' turn, the run (partition_launch.hpp).
// Assembly is groth16::assemble_proof, shared with cpu_backend, on the MSM sums the device returns:
//   pi_A = alpha + sum w_i A_i + r delta_1
//   pi_B = beta_2 + sum w_i B2_i + s delta_2,   B1 = beta_1 + sum w_i B1_i + s delta_1
//   pi_C = sum aux_i L_i + sum h_j H_j + s pi_A + r B1 - r s delta_1
#include "cuda/prover/cuda_backend.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "core/cuda_try.hpp"
#include "core/log.hpp"
#include "core/mutex.hpp"
#include "core/status_macros.hpp"
#include "cuda/key/key_loader.hpp"
#include "cuda/key/region_policy.hpp"
#include "cuda/plan/budget_plan.hpp"
#include "cuda/prover/kernel_warmup.hpp"
#include "cuda/prover/lane.hpp"
#include "cuda/prover/partition_launch.hpp"
#include "cuda/runtime/compute_turn.hpp"
#include "cuda/runtime/device_health.hpp"
#include "cuda/runtime/device_memory.hpp"
#include "cuda/runtime/interval_union.hpp"
#include "cuda/runtime/lane_pool.hpp"
#include "cuda/runtime/link_pacer.hpp"
#include "cuda/runtime/pinned_chunk_copier.hpp"
#include "groth16/proof_assembly.hpp"
#include "groth16/prover.hpp"
#include "r1cs/satisfaction.hpp"

namespace pp::cuda {

using groth16::pending_ptr;
using groth16::prove_output;
using groth16::prove_request;

namespace {

using clock = std::chrono::steady_clock;

template <class Family>
struct cuda_pending final : groth16::pending {
  const groth16::basic_proving_key<Family>* pk = nullptr;
  const r1cs::basic_constraint_system<typename Family::fr>* cs = nullptr;
  std::span<const typename Family::fr> witness;
  groth16::basic_blinding<Family> rs;
  groth16::prove_options options;
  groth16::prove_timings timings;
  groth16::basic_msm_sums<Family> sums;
};

// The key uploads' pinned chunks, 4 x 32 MiB: a chunk leaves in ~0.7 ms at 46 GB/s, and four in
// flight keep the DMA engine busy while the host fills the next; 128 MiB pinned per backend.
constexpr uint64_t key_upload_chunk_bytes = uint64_t{32} << 20;
constexpr uint32_t key_upload_chunks = 4;

// A proof from evaluations that placed its key is rare (once per key and GPU) and slow: its steps say
// where the time went.
void log_key_placed(int device, const key_entry& k, const groth16::prove_timings& t) {
  if (std::none_of(t.steps.begin(), t.steps.end(), [](const auto& st) { return st.name == "upload_key"; })) return;
  std::string steps;
  for (const auto& st : t.steps) {
    steps += (steps.empty() ? "" : ", ") + st.name + " " +
             std::to_string(std::chrono::duration<double>(st.elapsed).count()) + " s";
  }
  log::get("cuda")->info("GPU {}: an evaluation key placed ({}) with its first proof: {}", device,
                         k.plan.streams() ? "streamed" : "resident", steps);
}

}  // namespace

struct cuda_backend::impl {
  cuda_backend_config cfg;
  std::unique_ptr<device_memory> mem;
  uint64_t driver_bytes = 0;  // taken by the driver at create()'s kernel warm-up (kernel_warmup.hpp)
  std::vector<lane> lanes;
  cuda_event origin;  // completed at create(); gclock's host_origin is the host time just after
  gpu_clock gclock;
  device_health health;
  std::unique_ptr<lane_pool> free_lanes;  // which lanes are free; all of them for a re-plan
  std::unique_ptr<region_policy> keys;    // the keys in the region and its partition workspaces
  compute_turns turns;                    // the order of the partitions' kernels (compute_turn.hpp)
  std::atomic<uint64_t> h2d{0};

  mutable pp::mutex busy_mu;
  interval_union busy PP_GUARDED_BY(busy_mu);  // the lanes' compute intervals, ms since the origin event

  // Keys are uploaded into the region on lane 0's copy stream (setup work, waited for): lanes running
  // partitions of other keys go on meanwhile, their memory disjoint from it.
  [[nodiscard]] key_upload_target upload_target() const { return {cfg, mem->base(), lanes[0].copy}; }

  // A partition that failed after enqueuing work (say an MSM plan refused n) must not leave it
  // running on the staging buffer and workspace the lane's next partition reuses: drains both
  // streams, noting a CUDA error (the backend turns unhealthy). Returns st.
  status fail_partition(lane& ln, status st) {
    if (st.code() != status_code::internal) {
      const cudaError_t e1 = cudaStreamSynchronize(ln.copy), e2 = cudaStreamSynchronize(ln.compute);
      if (e1 != cudaSuccess || e2 != cudaSuccess) {
        (void)health.note(internal_error(std::string("CUDA error ") + cudaGetErrorName(e1 != cudaSuccess ? e1 : e2) +
                                         " while draining the streams after: " + st.message()));
      }
    }
    return health.note(std::move(st));
  }

  // A completed partition's copies and GPU interval.
  template <class Family>
  void account(const basic_partition_result<Family>& r) {
    h2d.fetch_add(r.h2d_bytes, std::memory_order_relaxed);
    pp::mutex_lock lock(busy_mu);
    busy.add(r.compute_begin_ms, r.compute_end_ms);
  }

  // One partition of src's key: a free lane (waits for one), the key placed (planned and placed
  // now when it is not; a key that does not fit the empty region even streamed fails the request,
  // the device stays in rotation), values packed into the lane's staging, a workspace (waits for
  // one), the kernels' turn, then run(k, workspace, lane, packed, turn). Packed before a workspace
  // is taken: with fewer workspaces than lanes, the packing runs while another lane's partition holds
  // the only one. The lane is held until its last event has completed (run waits for it) or, on a
  // failure, until its streams are drained.
  template <class Fr, class Run>
  auto on_lane(key_loader& src, std::span<const Fr> values, groth16::prove_timings& t, Run&& run)
      -> decltype(run(std::declval<const key_entry&>(), std::declval<const partition_workspace&>(),
                      std::declval<lane&>(), std::declval<const compact_witness_layout&>(),
                      std::declval<compute_turn&>())) {
    lane_hold held(*free_lanes);
    PP_CUDA_TRY(cudaSetDevice(cfg.device));  // per host thread
    PP_ASSIGN_OR_RETURN(key_entry* const k, keys->key_for(src, &held, &t));
    lane& ln = lanes[held.id()];
    PP_ASSIGN_OR_RETURN(const compact_witness_layout packed, pack_partition(values, ln, t));
    lane_hold ws(keys->workspaces());
    compute_turn turn(turns, ln.turn_end, ln.compute);
    auto r = run(*k, k->ws[ws.id()], ln, packed, turn);
    if (!r.ok()) return fail_partition(ln, r.error());
    account(*r);
    return r;
  }

  // A checked request's pending, before its partition runs (the satisfaction check when asked).
  template <class Family>
  static result<std::unique_ptr<cuda_pending<Family>>> make_pending(const groth16::basic_prove_request<Family>& req) {
    PP_RETURN_IF_ERROR(groth16::check_prove_request(req));
    auto p = std::make_unique<cuda_pending<Family>>();
    p->pk = req.pk;
    p->cs = req.cs;
    p->witness = req.witness;
    p->rs = req.rs ? *req.rs : groth16::random_blinding<Family>();
    p->options = req.options;
    if (req.options.check_satisfied) {
      const auto t0 = clock::now();
      PP_RETURN_IF_ERROR(r1cs::check_satisfied(*req.cs, req.witness));
      p->timings.add("satisfaction check", clock::now() - t0);
    }
    return p;
  }

  // start() of either curve: the circuit's partition on a lane, its sums in the pending.
  template <class Family>
  result<pending_ptr> start(const groth16::basic_prove_request<Family>& req) {
    PP_ASSIGN_OR_RETURN(std::unique_ptr<cuda_pending<Family>> p, make_pending(req));
    const auto& cs = *req.cs;
    basic_circuit_key_loader<Family> src(*req.pk, cs, nullptr, upload_target());
    PP_ASSIGN_OR_RETURN(const basic_partition_result<Family> r,
                        on_lane(src, req.witness, p->timings,
                                [&](const key_entry& k, const partition_workspace& pw, lane& ln,
                                    const compact_witness_layout& packed, compute_turn& turn) {
                                  return run_partition<Family>(k, pw, ln, cs, packed, turn, gclock, p->timings);
                                }));
    p->sums = r.sums;
    return pending_ptr(std::move(p));
  }

  // start_together() of either curve: the partitions of one key on one lane, the first witness packed,
  // a workspace, the kernels' turn once, run_partitions_together (which packs the others); as on_lane,
  // the lane is held until its last event has completed or its streams are drained. A refusal that
  // comes once fronts are enqueued (the packed witnesses' fit) drains them here too: the device is
  // as it was, as backend.hpp's start_together promises.
  template <class Family>
  result<std::vector<pending_ptr>> start_together(std::span<const groth16::basic_prove_request<Family>> reqs) {
    if (reqs.empty() || reqs.size() > max_partitions_together) {
      return invalid_argument("cuda_backend::start_together: " + std::to_string(reqs.size()) +
                              " requests, expected 1 to " + std::to_string(max_partitions_together));
    }
    std::vector<std::unique_ptr<cuda_pending<Family>>> ps;
    std::vector<groth16::prove_timings*> t;
    std::vector<std::span<const typename Family::fr>> values;
    for (const auto& req : reqs) {
      if (req.pk != reqs[0].pk || req.cs != reqs[0].cs) {
        return invalid_argument("cuda_backend::start_together: every request must name the first one's key and "
                                "circuit");
      }
      PP_ASSIGN_OR_RETURN(ps.emplace_back(), make_pending(req));
      t.push_back(&ps.back()->timings);
      values.push_back(req.witness);
    }
    const auto& cs = *reqs[0].cs;
    basic_circuit_key_loader<Family> src(*reqs[0].pk, cs, nullptr, upload_target());
    lane_hold held(*free_lanes);
    PP_CUDA_TRY(cudaSetDevice(cfg.device));  // per host thread
    PP_ASSIGN_OR_RETURN(key_entry* const k, keys->key_for(src, &held, t[0]));
    lane& ln = lanes[held.id()];
    PP_RETURN_IF_ERROR(check_shared_tables_streamed(*k));  // before the packing a refusal would waste
    PP_ASSIGN_OR_RETURN(auto packing, together_packing<typename Family::fr>::create(values, ln, t));
    PP_RETURN_IF_ERROR(packing.pack_next());  // the first, as on_lane's; the others under the GPU's work
    lane_hold ws(keys->workspaces());
    compute_turn turn(turns, ln.turn_end, ln.compute);
    auto r = run_partitions_together<Family>(*k, k->ws[ws.id()], ln, cs, packing, turn, gclock);
    if (!r.ok()) return fail_partition(ln, r.error());
    std::vector<pending_ptr> out;
    for (size_t i = 0; i < ps.size(); ++i) {
      account((*r)[i]);
      ps[i]->sums = (*r)[i].sums;
      out.emplace_back(std::move(ps[i]));
    }
    return out;
  }

  // finish() of either curve: only this backend's pendings of that curve.
  template <class Family>
  static result<groth16::basic_prove_output<Family>> finish(pending_ptr base, std::string_view name) {
    auto* p = dynamic_cast<cuda_pending<Family>*>(base.get());
    if (p == nullptr) {
      return invalid_argument("cuda_backend::finish: the pending proof was not started by this backend for " +
                              std::string(Family::name));
    }
    return groth16::assemble_proof(*p->pk, *p->cs, p->witness, p->sums, p->rs, p->options, std::move(p->timings), name);
  }
};

cuda_backend::cuda_backend(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
cuda_backend::~cuda_backend() = default;

result<std::unique_ptr<cuda_backend>> cuda_backend::create(const cuda_backend_config& cfg) {
  try {
    if (cfg.staging_bytes < 2 * sums_staging_bytes()) {
      return invalid_argument("cuda_backend: staging_bytes must be at least " +
                              std::to_string(2 * sums_staging_bytes()));
    }
    if (cfg.lanes == 0 || cfg.lanes > max_lanes) {
      return invalid_argument("cuda_backend: lanes must lie in [1, " + std::to_string(max_lanes) + "]");
    }
    auto p = std::make_unique<impl>();
    p->cfg = cfg;
    // What the driver takes at the kernels' first launches (kernel_warmup.hpp), taken now: inside
    // the budget, before the region is sized from what is left.
    PP_ASSIGN_OR_RETURN(p->driver_bytes, kernel_driver_bytes(cfg.device));
    if (p->driver_bytes != 0) {
      log::get("cuda")->info("GPU {}: the kernels hold {} bytes of device memory, taken at their first launches "
                             "in this process (driver_bytes, kept out of the region)",
                             cfg.device, p->driver_bytes);
    }
    const uint64_t reserve = pin_reserve_bytes(cfg) + p->driver_bytes;
    if (cfg.max_vram_bytes != 0 && reserve >= cfg.max_vram_bytes) {
      return invalid_argument("cuda_backend: a VRAM budget of " + std::to_string(cfg.max_vram_bytes) +
                              " bytes leaves nothing beside the " + std::to_string(pin_reserve_bytes(cfg)) +
                              " kept for the driver's mappings of max_pinned_bytes of pinned memory and the " +
                              std::to_string(p->driver_bytes) +
                              " the driver took for the kernels (code, local memory)");
    }
    device_memory_config mc;
    mc.device = cfg.device;
    mc.vram_share = cfg.vram_share;
    mc.max_bytes = cfg.max_vram_bytes == 0 ? 0 : cfg.max_vram_bytes - reserve;
    mc.staging_buffers = cfg.lanes;
    mc.staging_bytes = cfg.staging_bytes;
    const bool paced = cfg.h2d_cap_bytes_per_s > 0;
    if (cfg.h2d_cap_bytes_per_s < 0) return invalid_argument("cuda_backend: h2d_cap_bytes_per_s must not be negative");
    mc.tail_bytes = paced ? pad256(link_pacer_bytes(cfg.lanes)) : 0;
    PP_ASSIGN_OR_RETURN(p->mem, device_memory::create(mc));
    PP_CUDA_TRY(cudaSetDevice(cfg.device));
    PP_ASSIGN_OR_RETURN(pinned_chunk_copier staging,
                        pinned_chunk_copier::allocate(key_upload_chunk_bytes, key_upload_chunks));
    p->free_lanes = std::make_unique<lane_pool>(cfg.lanes);
    p->keys = std::make_unique<region_policy>(region_config{cfg, p->mem->capacity(), p->driver_bytes},
                                              *p->free_lanes, p->health, std::move(staging));
    for (uint32_t i = 0; i < cfg.lanes; ++i) {
      PP_ASSIGN_OR_RETURN(lane l, lane::create(i, p->mem->staging(i),
                                               link_pace_for(p->mem->tail(), i, cfg.h2d_cap_bytes_per_s)));
      p->lanes.push_back(std::move(l));
    }
    if (paced) {
      PP_RETURN_IF_ERROR(link_pacer_clear(p->mem->tail(), cfg.lanes, p->lanes[0].copy));
      PP_CUDA_TRY(cudaStreamSynchronize(p->lanes[0].copy));
    }
    PP_ASSIGN_OR_RETURN(p->origin, cuda_event::create(/*timing=*/true));
    PP_RETURN_IF_ERROR(p->origin.record(p->lanes[0].compute));
    PP_RETURN_IF_ERROR(p->origin.synchronize());
    p->gclock = {&p->origin, clock::now()};
    return std::unique_ptr<cuda_backend>(new cuda_backend(std::move(p)));
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::create: ") + e.what());
  }
}

template <class Family>
result<key_footprint> cuda_backend::footprint(const groth16::basic_proving_key<Family>& pk,
                                              const r1cs::basic_constraint_system<typename Family::fr>& cs,
                                              const cuda_backend_config& cfg) {
  try {
    PP_RETURN_IF_ERROR(groth16::check_key_matches_circuit(pk, cs));
    PP_ASSIGN_OR_RETURN(const compact_r1cs compact, make_compact_r1cs(cs));
    PP_ASSIGN_OR_RETURN(const key_shape shape, shape_key(pk, cs, compact, cfg.staging_bytes, matrix_rows_for(cfg),
                                                                     cfg.h_copies));
    PP_ASSIGN_OR_RETURN(const budget_plan plan, plan_for_budget(shape, cfg, 0));
    return footprint_of(shape, plan.plan);
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::footprint: ") + e.what());
  }
}

template <class Family>
status cuda_backend::prepare(const groth16::basic_proving_key<Family>& pk,
                             const r1cs::basic_constraint_system<typename Family::fr>& cs,
                             const compact_r1cs* compact) {
  try {
    PP_CUDA_TRY(cudaSetDevice(impl_->cfg.device));
    basic_circuit_key_loader<Family> src(pk, cs, compact, impl_->upload_target());
    auto r = impl_->keys->key_for(src, nullptr, nullptr);
    return r.ok() ? ok_status() : r.error();
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::prepare: ") + e.what());
  }
}

template <class Family>
result<key_footprint> cuda_backend::resident_footprint(
    const groth16::basic_proving_key<Family>& pk, const r1cs::basic_constraint_system<typename Family::fr>& cs) const {
  return impl_->keys->footprint(key_fingerprint::of(pk, cs));
}

#define PP_CUDA_BACKEND_INSTANTIATE(Family)                                                                       \
  template result<key_footprint> cuda_backend::footprint(const groth16::basic_proving_key<Family>&,              \
                                                         const r1cs::basic_constraint_system<Family::fr>&,       \
                                                         const cuda_backend_config&);                            \
  template status cuda_backend::prepare(const groth16::basic_proving_key<Family>&,                               \
                                        const r1cs::basic_constraint_system<Family::fr>&, const compact_r1cs*);  \
  template result<key_footprint> cuda_backend::resident_footprint(const groth16::basic_proving_key<Family>&,     \
                                                                  const r1cs::basic_constraint_system<Family::fr>&) \
      const;
PP_CUDA_BACKEND_INSTANTIATE(ec::bls12_381::family)
PP_CUDA_BACKEND_INSTANTIATE(ec::bn254::family)
#undef PP_CUDA_BACKEND_INSTANTIATE

void cuda_backend::clear_keys() { impl_->keys->clear(); }

void cuda_backend::forget_key_at(const void* pk) {
  // A key placed between the look and the eviction is placed from a live pk: forgetting it is harmless.
  if (impl_->keys->placed_from(pk)) impl_->keys->evict_all();
}

result<pending_ptr> cuda_backend::start(const prove_request& req) {
  try {
    return impl_->start(req);
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::start: ") + e.what());
  }
}

size_t cuda_backend::partitions_together() const { return max_partitions_together; }

result<std::vector<pending_ptr>> cuda_backend::start_together(std::span<const prove_request> reqs) {
  try {
    return impl_->start_together<ec::bls12_381::family>(reqs);
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::start_together: ") + e.what());
  }
}

result<pending_ptr> cuda_backend::start(const groth16::basic_prove_request<ec::bn254::family>& req) {
  try {
    return impl_->start(req);
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::start (BN254): ") + e.what());
  }
}

result<groth16::proof> cuda_backend::prove_evaluations(const groth16::evaluation_request& req) {
  try {
    PP_RETURN_IF_ERROR(groth16::check_evaluation_request(req));
    groth16::prove_timings t;
    evaluation_key_loader src(req, impl_->upload_target(), t);
    PP_ASSIGN_OR_RETURN(const partition_result r,
                        impl_->on_lane(src, req.aux, t,
                                       [&](const key_entry& k, const partition_workspace& pw, lane& ln,
                                           const compact_witness_layout& packed, compute_turn& turn) {
                                         auto out = run_evaluation_partition(k, pw, ln, req, packed, turn,
                                                                             impl_->gclock, t);
                                         if (out.ok()) log_key_placed(impl_->cfg.device, k, t);
                                         return out;
                                       }));
    // Assembled and verified on the host once the lane is free for the next circuit.
    return groth16::finish_from_sums(req, r.sums);
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::prove_evaluations: ") + e.what());
  }
}

result<prove_output> cuda_backend::finish(pending_ptr base) {
  try {
    return impl::finish<ec::bls12_381::family>(std::move(base), name());
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::finish: ") + e.what());
  }
}

result<groth16::basic_prove_output<ec::bn254::family>> cuda_backend::finish_bn254(pending_ptr base) {
  try {
    return impl::finish<ec::bn254::family>(std::move(base), name());
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::finish (BN254): ") + e.what());
  }
}

void cuda_backend::set_host_charge(host_charge_fn charge) { impl_->keys->set_host_charge(std::move(charge)); }

bool cuda_backend::healthy() const { return impl_->health.healthy(); }
std::string cuda_backend::last_error() const { return impl_->health.last_error(); }
int cuda_backend::device() const { return impl_->cfg.device; }
uint64_t cuda_backend::capacity_bytes() const { return impl_->mem->capacity(); }
uint64_t cuda_backend::driver_bytes() const { return impl_->driver_bytes; }
uint64_t cuda_backend::used_bytes() const { return impl_->keys->used_bytes(); }
uint64_t cuda_backend::replans() const { return impl_->keys->replans(); }
uint32_t cuda_backend::lanes() const { return static_cast<uint32_t>(impl_->lanes.size()); }
uint64_t cuda_backend::h2d_bytes() const { return impl_->h2d.load(std::memory_order_relaxed); }
uint64_t cuda_backend::pinned_bytes() const { return impl_->keys->pinned_bytes(); }

cuda_backend::activity cuda_backend::gpu_activity() const {
  pp::mutex_lock lock(impl_->busy_mu);
  const interval_union::totals t = impl_->busy.read();
  return {t.covered, t.span, t.count};
}
void cuda_backend::reset_activity() {
  pp::mutex_lock lock(impl_->busy_mu);
  impl_->busy = interval_union{};
}

}  // namespace pp::cuda
