// cuda_backend (cuda_backend.hpp): the facade. Keys are planned (key_layout) and placed
// (key_residency) in the region one after another; partitions run on lanes (partition_launch).
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
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/cuda_try.hpp"
#include "core/log.hpp"
#include "core/mutex.hpp"
#include "core/status_macros.hpp"
#include "cuda/plan/budget_plan.hpp"
#include "cuda/runtime/compute_turn.hpp"
#include "cuda/runtime/device_memory.hpp"
#include "cuda/runtime/interval_union.hpp"
#include "cuda/prover/kernel_warmup.hpp"
#include "cuda/runtime/link_pacer.hpp"
#include "cuda/key/key_residency.hpp"
#include "cuda/runtime/lane_pool.hpp"
#include "cuda/prover/partition_launch.hpp"
#include "cuda/runtime/pinned_chunk_copier.hpp"
#include "cuda/runtime/pinned_host.hpp"
#include "groth16/proof_assembly.hpp"
#include "groth16/prover.hpp"
#include "r1cs/satisfaction.hpp"

namespace pp::cuda {

using groth16::pending_ptr;
using groth16::prove_output;
using groth16::prove_request;
using groth16::proving_key;

namespace {

using clock = std::chrono::steady_clock;

struct cuda_pending final : groth16::pending {
  const proving_key* pk = nullptr;
  const r1cs::constraint_system* cs = nullptr;
  std::span<const ff::fr> witness;
  groth16::blinding rs;
  groth16::prove_options options;
  groth16::prove_timings timings;
  groth16::msm_sums sums;
};

// The key uploads' pinned chunks, 4 x 32 MiB: a chunk leaves in ~0.7 ms at 46 GB/s, and four in
// flight keep the DMA engine busy while the host fills the next; 128 MiB pinned per backend.
constexpr uint64_t key_upload_chunk_bytes = uint64_t{32} << 20;
constexpr uint32_t key_upload_chunks = 4;

}  // namespace

struct cuda_backend::impl {
  cuda_backend_config cfg;
  std::unique_ptr<device_memory> mem;
  uint64_t driver_bytes = 0;  // taken by the driver at create()'s kernel warm-up (kernel_warmup.hpp)
  std::vector<lane> lanes;
  cuda_event origin;  // completed at create(); host_origin is the host time just after
  gpu_clock gclock;

  // A key of the region's plan (placed or not): what re-planning needs, no pointer into the key.
  struct planned_key {
    key_fingerprint id;
    key_shape shape;
    std::vector<msm_chunking> options;
    uint64_t last_use = 0;
  };

  mutable pp::mutex mu;  // the region's plan, the placed keys, the workspace pool, health
  std::vector<planned_key> planned PP_GUARDED_BY(mu);  // in the order of region.keys
  region_plan region PP_GUARDED_BY(mu);
  std::vector<std::unique_ptr<key_entry>> keys PP_GUARDED_BY(mu);  // the placed ones
  // Which of the region's workspaces are free; replaced only by a re-plan, which holds every lane.
  std::unique_ptr<lane_pool> free_ws PP_GUARDED_BY(mu);
  pinned_chunk_copier upload_staging PP_GUARDED_BY(mu);  // the key uploads' pinned chunks
  uint64_t uses PP_GUARDED_BY(mu) = 0;
  uint64_t replans PP_GUARDED_BY(mu) = 0;
  bool healthy PP_GUARDED_BY(mu) = true;
  cuda_backend::host_charge_fn host_charge PP_GUARDED_BY(mu);  // the owner of the host budget's, or empty
  std::string last_error PP_GUARDED_BY(mu);

  std::unique_ptr<lane_pool> free_lanes;  // which lanes are free; all of them for a re-plan
  compute_turns turns;                    // the order of the partitions' kernels (compute_turn.hpp)
  std::atomic<uint64_t> h2d{0};

  mutable pp::mutex busy_mu;
  interval_union busy PP_GUARDED_BY(busy_mu);  // the lanes' compute intervals, ms since the origin event

  ~impl() {
    for (lane& l : lanes) {
      if (l.copy != nullptr) cudaStreamDestroy(l.copy);
      if (l.compute != nullptr) cudaStreamDestroy(l.compute);
    }
  }

  // A failed CUDA call leaves the device unusable for us: later calls fail fast.
  status note(status st) PP_REQUIRES(mu) {
    if (!st.ok() && st.code() == status_code::internal) {
      healthy = false;
      last_error = st.message();
    }
    return st;
  }
  status note_locked(status st) {
    pp::mutex_lock lock(mu);
    return note(std::move(st));
  }

  key_entry* find_locked(const key_fingerprint& id) PP_REQUIRES(mu) {
    for (auto& k : keys) {
      if (k->id == id) return k.get();
    }
    return nullptr;
  }
  uint64_t pinned_locked() PP_REQUIRES(mu) {
    uint64_t b = 0;
    for (const auto& k : keys) b += k->pinned_bytes;
    return b;
  }
  int planned_index_locked(const key_fingerprint& id) PP_REQUIRES(mu) {
    for (size_t i = 0; i < planned.size(); ++i) {
      if (planned[i].id == id) return int(i);
    }
    return -1;
  }

  // The plan's view of (pk, cs); compact: the caller's, else built once into `built`.
  result<planned_key> shape_of(const proving_key& pk, const r1cs::constraint_system& cs,
                               std::optional<compact_r1cs>& built, const compact_r1cs*& given) {
    if (given == nullptr) {
      if (!built) {
        PP_ASSIGN_OR_RETURN(compact_r1cs c, make_compact_r1cs(cs));
        built.emplace(std::move(c));
      }
      given = &*built;
    }
    PP_RETURN_IF_ERROR(groth16::check_key_matches_circuit(pk, cs));
    planned_key pl;
    pl.id = key_fingerprint::of(pk, cs);
    PP_ASSIGN_OR_RETURN(pl.shape, shape_key(pk, cs, *given, cfg.staging_bytes, matrix_chunk_bytes(cfg), cfg.h_copies));
    PP_ASSIGN_OR_RETURN(pl.options, options_for(pl.shape, cfg));
    return pl;
  }

  // What planning and placing need of a key: its fingerprint, its plan view (made on demand) and
  // the upload of its tables at the offsets the plan gives (upload_key). A circuit's (key_for_circuit)
  // or an evaluation request's (prove_evaluations: no matrices, gather lists from its densities).
  struct key_source {
    key_fingerprint id;
    std::function<result<planned_key>()> shape;
    std::function<status(key_entry&, const workspace_span&, uint64_t pin_budget, pinned_chunk_copier&)> upload;
  };

  // Places the region plan's key i (uploads and pins it at its planned offset). Lanes running
  // partitions of other keys go on meanwhile: their memory is disjoint from it. Setup work,
  // synchronized, on lane 0's copy stream while mu keeps other key uploads out.
  result<key_entry*> place_locked(size_t i, const key_source& src) PP_REQUIRES(mu) {
    auto k = std::make_unique<key_entry>();
    k->id = planned[i].id;
    k->shape = planned[i].shape;
    k->plan = region.keys[i];
    k->base = region.base[i];
    const workspace_span ws{region.lanes_offset, region.lane_bytes, region.lanes};
    uint64_t pin_budget = 0;
    if (cfg.pin_streamed) {
      pin_budget = cfg.max_pinned_bytes == 0 ? ~uint64_t{0}
                                             : cfg.max_pinned_bytes - std::min(cfg.max_pinned_bytes, pinned_locked());
    }
    // The streamed matrices' image is a second host copy of the key's rows: charged to the host
    // budget before upload_key makes it, held as long as the entry.
    const uint64_t image = k->plan.matrices_resident ? 0 : k->shape.matrix_image_bytes;
    if (image != 0 && host_charge) {
      auto charged = host_charge(image);
      if (!charged.ok()) {
        return failed_precondition("cuda_backend: the host memory budget cannot hold the " + std::to_string(image) +
                                   " bytes of the pinned image this plan streams the matrices from (" +
                                   charged.error().message() +
                                   "); give the prover more host memory or the GPU a larger VRAM budget");
      }
      k->host_charge = std::move(charged).value();
    }
    if (status st = src.upload(*k, ws, pin_budget, upload_staging); !st.ok()) return note(std::move(st));
    keys.push_back(std::move(k));
    return keys.back().get();
  }

  // The placed entry of src's key, placing it when its plan allows without disturbing the placed
  // keys: planned already, the first key, or one more guest at the region's end. nullptr (and
  // `replan` set to its shape) when the region must be planned again for it; failed_precondition
  // when it does not fit even alone.
  result<key_entry*> find_or_place_locked(const key_source& src, std::optional<planned_key>& replan)
      PP_REQUIRES(mu) {
    const key_fingerprint& id = src.id;
    if (key_entry* k = find_locked(id); k != nullptr) {
      planned[size_t(planned_index_locked(id))].last_use = ++uses;
      return k;
    }
    if (const int i = planned_index_locked(id); i >= 0) {
      planned[size_t(i)].last_use = ++uses;
      return place_locked(size_t(i), src);
    }
    PP_ASSIGN_OR_RETURN(planned_key pl, src.shape());
    pl.last_use = ++uses;
    const uint64_t capacity = mem->capacity();
    if (planned.empty()) {
      auto r = plan_region(std::span<const key_shape>(&pl.shape, 1), std::span(&pl.options, 1), capacity, cfg.lanes);
      if (!r.ok()) {
        return failed_precondition(least_budget_message(pl.shape, pl.options, cfg, driver_bytes,
                                                        r.error().message()) +
                                   ": the key does not fit this GPU even alone");
      }
      region = std::move(r).value();
      planned.push_back(std::move(pl));
      free_ws = std::make_unique<lane_pool>(region.lanes);
      return place_locked(0, src);
    }
    region_plan more = region;
    if (add_guest(more, pl.shape, pl.options, capacity).ok()) {
      region = std::move(more);
      planned.push_back(std::move(pl));
      return place_locked(planned.size() - 1, src);
    }
    if (auto alone = plan_key(pl.shape, pl.options, capacity, cfg.lanes); !alone.ok()) {
      return failed_precondition(least_budget_message(pl.shape, pl.options, cfg, driver_bytes,
                                                      alone.error().message()) +
                                 ": the key does not fit this GPU even alone");
    }
    replan.emplace(std::move(pl));
    return nullptr;
  }

  // Plans the region again for `fresh` and the most recently used planned keys that fit with it,
  // evicting every placed key (they are placed again when next used). Waits for every lane: the
  // caller holds none.
  status replan_for(planned_key fresh) {
    free_lanes->acquire_all();
    status st = ok_status();
    {
      pp::mutex_lock lock(mu);
      std::vector<planned_key> set;
      for (const planned_key& p : planned) {
        if (!(p.id == fresh.id)) set.push_back(p);
      }
      std::sort(set.begin(), set.end(),
                [](const planned_key& a, const planned_key& b) { return a.last_use > b.last_use; });
      set.insert(set.begin(), std::move(fresh));
      for (;;) {
        std::vector<key_shape> shapes;
        std::vector<std::vector<msm_chunking>> options;
        for (const planned_key& p : set) {
          shapes.push_back(p.shape);
          options.push_back(p.options);
        }
        auto r = plan_region(shapes, options, mem->capacity(), cfg.lanes);
        if (r.ok()) {
          keys.clear();
          planned = std::move(set);
          region = std::move(r).value();
          free_ws = std::make_unique<lane_pool>(region.lanes);
          ++replans;
          break;
        }
        if (set.size() == 1) {
          st = failed_precondition("cuda_backend: " + r.error().message() +
                                   ": the key does not fit this GPU even alone");
          break;
        }
        set.pop_back();  // the least recently used
      }
    }
    free_lanes->release_all();
    return st;
  }

  // The placed entry of src's key for a caller holding lane hl (start, prove_evaluations) or none
  // (prepare), planning the region again when needed (hl handed back meanwhile). Eviction waits for
  // every lane, so the entry lives while the caller holds its lane.
  result<key_entry*> key_for(const key_source& src, lane_hold* hl, groth16::prove_timings* t) {
    for (int round = 0;; ++round) {
      std::optional<planned_key> replan;
      {
        pp::mutex_lock lock(mu);
        if (!healthy) return unavailable("cuda_backend: device unhealthy after " + last_error);
        const auto t0 = clock::now();
        const size_t placed = keys.size();
        PP_ASSIGN_OR_RETURN(key_entry* k, find_or_place_locked(src, replan));
        if (k != nullptr) {
          if (t != nullptr && keys.size() != placed) t->add("key upload", clock::now() - t0);
          return k;
        }
        if (round == 3) {
          return failed_precondition("cuda_backend: the keys in use made the region be planned again 3 times for one "
                                     "partition; they do not fit this GPU together (serve fewer keys per GPU or give "
                                     "it more memory)");
        }
      }
      const auto t0 = clock::now();
      if (hl != nullptr) hl->hand_back();
      const status st = replan_for(std::move(*replan));
      if (hl != nullptr) hl->take_again();
      PP_RETURN_IF_ERROR(st);
      if (t != nullptr) t->add("key eviction (region planned again)", clock::now() - t0);
    }
  }

  // key_for with (pk, cs): cs's compact matrices are the caller's (given) or built here once.
  result<key_entry*> key_for_circuit(const proving_key& pk, const r1cs::constraint_system& cs,
                                     const compact_r1cs* given, lane_hold* hl, groth16::prove_timings* t) {
    std::optional<compact_r1cs> built;
    key_source src;
    src.id = key_fingerprint::of(pk, cs);
    src.shape = [&]() { return shape_of(pk, cs, built, given); };
    src.upload = [&](key_entry& k, const workspace_span& ws, uint64_t pin_budget,
                     pinned_chunk_copier& staging) -> status {
      if (given == nullptr) {  // planned before, by another call: its matrices are built here
        PP_ASSIGN_OR_RETURN(const planned_key pl, shape_of(pk, cs, built, given));
        (void)pl;
      }
      return upload_key(k, pk, given, gather_lists::of(pk), mem->base(), lanes[0].copy, staging,
                        matrix_chunk_bytes(cfg), ws, pin_budget);
    };
    return key_for(src, hl, t);
  }

  // Every key forgotten once every lane is idle (the region is planned afresh on the next proof).
  void forget_all() {
    free_lanes->acquire_all();
    {
      pp::mutex_lock lock(mu);
      keys.clear();
      planned.clear();
      region = {};
      free_ws.reset();
    }
    free_lanes->release_all();
  }

  // A partition that failed after enqueuing work (say an MSM plan refused n) must not leave it
  // running on the staging buffer and workspace the lane's next partition reuses: drains both
  // streams, noting a CUDA error (the backend turns unhealthy). Returns st.
  status fail_partition(lane& ln, status st) {
    if (st.code() != status_code::internal) {
      const cudaError_t e1 = cudaStreamSynchronize(ln.copy), e2 = cudaStreamSynchronize(ln.compute);
      if (e1 != cudaSuccess || e2 != cudaSuccess) {
        (void)note_locked(internal_error(std::string("CUDA error ") + cudaGetErrorName(e1 != cudaSuccess ? e1 : e2) +
                                         " while draining the streams after: " + st.message()));
      }
    }
    return note_locked(std::move(st));
  }

  // A completed partition's copies and GPU interval.
  void account(const partition_result& r) {
    h2d.fetch_add(r.h2d_bytes, std::memory_order_relaxed);
    pp::mutex_lock lock(busy_mu);
    busy.add(r.compute_begin_ms, r.compute_end_ms);
  }

  // One of the region's workspaces for a caller holding a lane: a re-plan (which replaces the pool)
  // waits for that lane.
  lane_pool& workspace_pool() {
    pp::mutex_lock lock(mu);
    return *free_ws;
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
    if (cfg.lanes == 0 || cfg.lanes > 16) return invalid_argument("cuda_backend: lanes must lie in [1, 16]");
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
    {
      PP_ASSIGN_OR_RETURN(pinned_chunk_copier staging,
                          pinned_chunk_copier::allocate(key_upload_chunk_bytes, key_upload_chunks));
      pp::mutex_lock lock(p->mu);
      p->upload_staging = std::move(staging);
    }
    p->lanes.resize(cfg.lanes);
    p->free_lanes = std::make_unique<lane_pool>(cfg.lanes);
    for (uint32_t i = 0; i < cfg.lanes; ++i) {
      lane& l = p->lanes[i];
      l.id = i;
      l.staging = p->mem->staging(i);
      l.copy_track = "lane" + std::to_string(i) + "/copy";
      l.compute_track = "lane" + std::to_string(i) + "/compute";
      // Paced, the copy stream carries the pacer's one-thread kernels: the highest priority lets
      // them take the next free SM slot instead of queueing behind an MSM's blocks.
      int least = 0, greatest = 0;
      PP_CUDA_TRY(cudaDeviceGetStreamPriorityRange(&least, &greatest));
      PP_CUDA_TRY(cudaStreamCreateWithPriority(&l.copy, cudaStreamNonBlocking, paced ? greatest : 0));
      l.pace = link_pace_for(p->mem->tail(), i, cfg.h2d_cap_bytes_per_s);
      PP_CUDA_TRY(cudaStreamCreateWithFlags(&l.compute, cudaStreamNonBlocking));
      for (cuda_event& e : l.events) {
        PP_ASSIGN_OR_RETURN(e, cuda_event::create(/*timing=*/true));
      }
      PP_ASSIGN_OR_RETURN(l.stream_begin, cuda_event::create(/*timing=*/true));
      PP_ASSIGN_OR_RETURN(l.stream_end, cuda_event::create(/*timing=*/true));
      PP_ASSIGN_OR_RETURN(l.turn_end, cuda_event::create());
      for (size_t s = 0; s < l.slot_loaded.size(); ++s) {
        PP_ASSIGN_OR_RETURN(l.slot_loaded[s], cuda_event::create());
        PP_ASSIGN_OR_RETURN(l.slot_freed[s], cuda_event::create());
      }
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

result<key_footprint> cuda_backend::footprint(const proving_key& pk, const r1cs::constraint_system& cs,
                                              const cuda_backend_config& cfg) {
  try {
    PP_RETURN_IF_ERROR(groth16::check_key_matches_circuit(pk, cs));
    PP_ASSIGN_OR_RETURN(const compact_r1cs compact, make_compact_r1cs(cs));
    PP_ASSIGN_OR_RETURN(const key_shape shape, shape_key(pk, cs, compact, cfg.staging_bytes, matrix_chunk_bytes(cfg),
                                                                     cfg.h_copies));
    PP_ASSIGN_OR_RETURN(const budget_plan plan, plan_for_budget(shape, cfg, 0));
    return footprint_of(shape, plan.plan);
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::footprint: ") + e.what());
  }
}

status cuda_backend::prepare(const proving_key& pk, const r1cs::constraint_system& cs, const compact_r1cs* compact) {
  try {
    PP_CUDA_TRY(cudaSetDevice(impl_->cfg.device));
    auto r = impl_->key_for_circuit(pk, cs, compact, nullptr, nullptr);
    return r.ok() ? ok_status() : r.error();
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::prepare: ") + e.what());
  }
}

result<key_footprint> cuda_backend::resident_footprint(const proving_key& pk,
                                                       const r1cs::constraint_system& cs) const {
  pp::mutex_lock lock(impl_->mu);
  const key_entry* k = impl_->find_locked(key_fingerprint::of(pk, cs));
  if (k == nullptr) return not_found("cuda_backend: the key is not resident");
  return footprint_of(k->shape, k->plan);
}

void cuda_backend::clear_keys() {
  pp::mutex_lock lock(impl_->mu);
  impl_->keys.clear();
  impl_->planned.clear();
  impl_->region = {};
  impl_->free_ws.reset();
}

result<pending_ptr> cuda_backend::start(const prove_request& req) {
  try {
    PP_RETURN_IF_ERROR(groth16::check_prove_request(req));
    const proving_key& pk = *req.pk;
    const r1cs::constraint_system& cs = *req.cs;

    auto p = std::make_unique<cuda_pending>();
    p->pk = &pk;
    p->cs = &cs;
    p->witness = req.witness;
    p->rs = req.rs ? *req.rs : groth16::random_blinding();
    p->options = req.options;
    if (req.options.check_satisfied) {
      const auto t0 = clock::now();
      PP_RETURN_IF_ERROR(r1cs::check_satisfied(cs, req.witness));
      p->timings.add("satisfaction check", clock::now() - t0);
    }

    // The lane is held until its last event has completed (run_partition waits for it) or, on a
    // failure, until its streams are drained.
    lane_hold hl(*impl_->free_lanes);
    PP_CUDA_TRY(cudaSetDevice(impl_->cfg.device));  // per host thread
    // The key, placed or planned (and placed) now; a key that does not fit the empty region even
    // streamed fails the request, the device itself stays in rotation.
    PP_ASSIGN_OR_RETURN(key_entry* const k, impl_->key_for_circuit(pk, cs, nullptr, &hl, &p->timings));
    lane& ln = impl_->lanes[hl.id()];
    // Packed before a workspace is taken: with fewer workspaces than lanes, the packing runs while
    // another lane's partition holds the only one.
    PP_ASSIGN_OR_RETURN(const compact_witness_layout packed, pack_partition(req.witness, ln, p->timings));
    lane_hold hw(impl_->workspace_pool());
    compute_turn turn(impl_->turns, ln.turn_end, ln.compute);
    auto r = run_partition(*k, k->ws[hw.id()], ln, cs, packed, turn, impl_->gclock, p->timings);
    if (!r.ok()) return impl_->fail_partition(ln, r.error());
    p->sums = r->sums;
    impl_->account(*r);
    return pending_ptr(std::move(p));
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::start: ") + e.what());
  }
}

result<groth16::proof> cuda_backend::prove_evaluations(const groth16::evaluation_request& req) {
  try {
    PP_RETURN_IF_ERROR(groth16::check_evaluation_request(req));
    PP_ASSIGN_OR_RETURN(const groth16::msm_sums sums, evaluation_sums(req));
    // Assembled and verified on the host once the lane is free for the next circuit.
    return groth16::finish_from_sums(req, sums);
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::prove_evaluations: ") + e.what());
  }
}

result<groth16::msm_sums> cuda_backend::evaluation_sums(const groth16::evaluation_request& req) {
  try {
    groth16::prove_timings timings;
    lane_hold hl(*impl_->free_lanes);
    PP_CUDA_TRY(cudaSetDevice(impl_->cfg.device));  // per host thread
    impl::key_source src;
    src.id = key_fingerprint::of_evaluations(req);
    src.shape = [&, id = src.id]() -> result<impl::planned_key> {
      impl::planned_key pl;
      pl.id = id;
      PP_ASSIGN_OR_RETURN(pl.shape, shape_evaluation_key(req, impl_->cfg.staging_bytes, impl_->cfg.h_copies));
      PP_ASSIGN_OR_RETURN(pl.options, options_for(pl.shape, impl_->cfg));
      return pl;
    };
    src.upload = [&](key_entry& k, const workspace_span& ws, uint64_t pin_budget, pinned_chunk_copier& staging) {
      const auto t0 = clock::now();
      const gather_lists lists = gather_lists::of(req);
      timings.add("gather lists (host)", clock::now() - t0);
      const auto t1 = clock::now();
      status st = upload_key(k, *req.pk, nullptr, lists, impl_->mem->base(), impl_->lanes[0].copy, staging,
                             matrix_chunk_bytes(impl_->cfg), ws, pin_budget);
      timings.add("upload_key", clock::now() - t1);
      return st;
    };
    PP_ASSIGN_OR_RETURN(key_entry* const k, impl_->key_for(src, &hl, &timings));
    lane& ln = impl_->lanes[hl.id()];
    PP_ASSIGN_OR_RETURN(const compact_witness_layout packed, pack_partition(req.aux, ln, timings));
    lane_hold hw(impl_->workspace_pool());
    compute_turn turn(impl_->turns, ln.turn_end, ln.compute);
    auto r = run_evaluation_partition(*k, k->ws[hw.id()], ln, req, packed, turn, impl_->gclock, timings);
    if (!r.ok()) return impl_->fail_partition(ln, r.error());
    impl_->account(*r);
    // A proof that placed its key is rare (once per key and GPU) and slow: its steps say where.
    if (std::any_of(timings.steps.begin(), timings.steps.end(), [](const auto& st) { return st.name == "upload_key"; })) {
      std::string steps;
      for (const auto& st : timings.steps) {
        steps += (steps.empty() ? "" : ", ") + st.name + " " +
                 std::to_string(std::chrono::duration<double>(st.elapsed).count()) + " s";
      }
      log::get("cuda")->info("GPU {}: an evaluation key placed ({}) with its first proof: {}", impl_->cfg.device,
                             k->plan.streams() ? "streamed" : "resident", steps);
    }
    return r->sums;
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::evaluation_sums: ") + e.what());
  }
}

void cuda_backend::forget_key(const proving_key& pk) {
  bool placed = false;
  {
    pp::mutex_lock lock(impl_->mu);
    for (const auto& k : impl_->keys) placed |= k->id.pk == &pk;
  }
  // A key placed between the look and the eviction is placed from a live pk: forgetting it is harmless.
  if (placed) impl_->forget_all();
}

result<prove_output> cuda_backend::finish(pending_ptr base) {
  try {
    auto* p = dynamic_cast<cuda_pending*>(base.get());
    if (p == nullptr) {
      return invalid_argument("cuda_backend::finish: the pending proof was not started by this backend");
    }
    return groth16::assemble_proof(*p->pk, *p->cs, p->witness, p->sums, p->rs, p->options, std::move(p->timings),
                                   name());
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::finish: ") + e.what());
  }
}

void cuda_backend::set_host_charge(host_charge_fn charge) {
  pp::mutex_lock lock(impl_->mu);
  impl_->host_charge = std::move(charge);
}

bool cuda_backend::healthy() const {
  pp::mutex_lock lock(impl_->mu);
  return impl_->healthy;
}
std::string cuda_backend::last_error() const {
  pp::mutex_lock lock(impl_->mu);
  return impl_->last_error;
}
int cuda_backend::device() const { return impl_->cfg.device; }
uint64_t cuda_backend::capacity_bytes() const { return impl_->mem->capacity(); }
uint64_t cuda_backend::driver_bytes() const { return impl_->driver_bytes; }
uint64_t cuda_backend::used_bytes() const {
  pp::mutex_lock lock(impl_->mu);
  return impl_->planned.empty() ? 0 : impl_->region.bytes;
}
uint64_t cuda_backend::replans() const {
  pp::mutex_lock lock(impl_->mu);
  return impl_->replans;
}
uint32_t cuda_backend::lanes() const { return static_cast<uint32_t>(impl_->lanes.size()); }
uint64_t cuda_backend::h2d_bytes() const { return impl_->h2d.load(std::memory_order_relaxed); }
uint64_t cuda_backend::pinned_bytes() const {
  pp::mutex_lock lock(impl_->mu);
  return impl_->pinned_locked();
}

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
