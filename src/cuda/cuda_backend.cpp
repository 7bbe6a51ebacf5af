// cuda_backend (cuda_backend.hpp): the facade. Keys are planned (key_layout) and placed
// (key_residency) in the region one after another; partitions run on lanes (partition_launch).
// Assembly is groth16::assemble_proof, shared with cpu_backend, on the MSM sums the device returns:
//   pi_A = alpha + sum w_i A_i + r delta_1
//   pi_B = beta_2 + sum w_i B2_i + s delta_2,   B1 = beta_1 + sum w_i B1_i + s delta_1
//   pi_C = sum aux_i L_i + sum h_j H_j + s pi_A + r B1 - r s delta_1
#include "cuda/cuda_backend.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <exception>
#include <functional>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

#include "core/cuda_try.hpp"
#include "core/mutex.hpp"
#include "core/status_macros.hpp"
#include "cuda/device_memory.hpp"
#include "cuda/interval_union.hpp"
#include "cuda/key_residency.hpp"
#include "cuda/lane_pool.hpp"
#include "cuda/partition_launch.hpp"
#include "cuda/spmv_tuning.hpp"
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

result<std::vector<msm_chunking>> options_for(const key_shape& s, const cuda_backend_config& cfg) {
  return chunking_options(s, cfg.max_chunk_points);
}

uint64_t matrix_chunk_bytes(const cuda_backend_config& cfg) {
  return cfg.max_matrix_chunk_bytes != 0 ? cfg.max_matrix_chunk_bytes : spmv_tuning_sm90.stream_chunk_bytes;
}

key_footprint footprint_of(const key_shape& s, const key_plan& p) {
  key_footprint f;
  for (int t = 0; t < key_table_count; ++t) {
    if (p.resident[t]) f.points_bytes += pad256(s.table_bytes(t));
  }
  f.streamed_bytes = p.streamed_bytes(s);
  f.matrices_bytes = pad256(p.matrices_resident ? s.matrices_bytes : s.matrix_tables_bytes);
  f.matrices_streamed = !p.matrices_resident;
  f.tables_bytes = pad256(s.qap_bytes) + pad256(s.a_index_bytes) + pad256(s.b_index_bytes);
  f.partition_bytes = p.lane.bytes;
  f.msm_workspace_bytes = p.msm.workspace_bytes;
  f.lanes = p.lanes;
  f.plan = p.to_string(s);
  return f;
}

// A lane held for one partition: released when this dies, unless an eviction gave it back (on false).
struct lane_hold {
  lane_pool& pool;
  uint32_t id;
  bool on = true;
  lane_hold(lane_pool& p, uint32_t i) : pool(p), id(i) {}
  ~lane_hold() {
    if (on) pool.release(id);
  }
  lane_hold(const lane_hold&) = delete;
  lane_hold& operator=(const lane_hold&) = delete;
};

// One of a key's partition workspaces, held likewise.
struct workspace_hold {
  lane_pool& pool;
  uint32_t id;
  explicit workspace_hold(lane_pool& p) : pool(p), id(p.acquire()) {}
  ~workspace_hold() { pool.release(id); }
  workspace_hold(const workspace_hold&) = delete;
  workspace_hold& operator=(const workspace_hold&) = delete;
};

}  // namespace

struct cuda_backend::impl {
  cuda_backend_config cfg;
  std::unique_ptr<device_memory> mem;
  std::vector<lane> lanes;
  cuda_event origin;  // completed at create(); host_origin is the host time just after
  gpu_clock gclock;

  mutable pp::mutex mu;  // key residency and health
  std::vector<std::unique_ptr<key_entry>> keys PP_GUARDED_BY(mu);
  uint64_t next PP_GUARDED_BY(mu) = 0;  // bump offset into the region
  bool healthy PP_GUARDED_BY(mu) = true;
  std::string last_error PP_GUARDED_BY(mu);

  std::unique_ptr<lane_pool> free_lanes;  // which lanes are free; all of them for a key eviction
  std::atomic<uint64_t> h2d{0};

  mutable pp::mutex busy_mu;
  interval_union busy PP_GUARDED_BY(busy_mu);  // the lanes' compute intervals, ms since the origin event

  ~impl() {
    for (lane& l : lanes) {
      if (l.copy != nullptr) cudaStreamDestroy(l.copy);
      if (l.compute != nullptr) cudaStreamDestroy(l.compute);
    }
  }

  // Forgets every resident key so that the region starts over: no partition runs meanwhile. The
  // caller holds no lane.
  void evict_all_keys() {
    free_lanes->acquire_all();
    {
      pp::mutex_lock lock(mu);
      keys.clear();
      next = 0;
    }
    free_lanes->release_all();
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

  // The key's plan in what the region has left (all_resident: only a plan that streams nothing and
  // has a workspace per lane, as a key beside others must), then its placement by `upload` (which
  // copies its tables to its base). resource_exhausted when it does not fit.
  result<key_entry*> place_shape_locked(const key_fingerprint& id, const key_shape& shape, bool all_resident,
                                        const std::function<status(key_entry&)>& upload) PP_REQUIRES(mu) {
    PP_ASSIGN_OR_RETURN(const std::vector<msm_chunking> opts, options_for(shape, cfg));
    const uint64_t left = mem->capacity() - next;
    auto plan = plan_key(shape, opts, left, cfg.lanes);
    if (!plan.ok()) return resource_exhausted("cuda_backend: " + plan.error().message());
    if (all_resident && (plan->streams() || plan->lanes < cfg.lanes)) {
      return resource_exhausted("cuda_backend: the key does not fit resident in the " + std::to_string(left) +
                                " bytes left (" + plan->to_string(shape) + ")");
    }
    auto k = std::make_unique<key_entry>();
    k->id = id;
    k->shape = shape;
    k->plan = *plan;
    k->base = next;
    // Setup work, synchronized: on lane 0's copy stream while mu keeps other key uploads out. Lanes
    // running partitions of other keys go on meanwhile (their memory lies below `next`).
    if (status st = upload(*k); !st.ok()) return note(std::move(st));
    next += k->plan.total_bytes();
    keys.push_back(std::move(k));
    return keys.back().get();
  }

  // A circuit's key. compact: cs's compact matrices, built on the first call and kept by the caller
  // across eviction retries (or given by the caller).
  result<key_entry*> place_locked(const proving_key& pk, const r1cs::constraint_system& cs,
                                  std::optional<compact_r1cs>& compact, const compact_r1cs* given,
                                  bool all_resident) PP_REQUIRES(mu) {
    if (given == nullptr && !compact) {
      PP_ASSIGN_OR_RETURN(compact_r1cs c, make_compact_r1cs(cs));
      compact.emplace(std::move(c));
    }
    const compact_r1cs& cm = given != nullptr ? *given : *compact;
    PP_RETURN_IF_ERROR(groth16::check_key_matches_circuit(pk, cs));
    PP_ASSIGN_OR_RETURN(const key_shape shape, shape_key(pk, cs, cm, cfg.staging_bytes, matrix_chunk_bytes(cfg)));
    return place_shape_locked(key_fingerprint::of(pk, cs), shape, all_resident, [&](key_entry& k) {
      return upload_key(k, pk, &cm, gather_lists::of(pk), mem->base(), lanes[0].copy, matrix_chunk_bytes(cfg));
    });
  }

  // The key `id` for a partition on the caller's lane hl: already placed, else placed resident beside
  // the others, else (all evicted, the region empty) placed by its plan for the whole region,
  // streamed if need be; place(all_resident) places it (called with mu held). A key that does not fit
  // the empty region even streamed fails the request; the device itself stays in rotation. While it
  // evicts, the caller's lane is given back and taken again.
  result<key_entry*> acquire_key(const key_fingerprint& id, const std::function<result<key_entry*>(bool)>& place,
                                 lane_hold& hl, groth16::prove_timings& t) {
    for (int evictions = 0;; ++evictions) {
      {
        pp::mutex_lock lock(mu);
        if (!healthy) return unavailable("cuda_backend: device unhealthy after " + last_error);
        if (key_entry* k = find_locked(id)) return k;
        const auto t0 = clock::now();
        auto r = place(/*all_resident=*/!keys.empty());
        if (r.ok()) {
          t.add("key upload", clock::now() - t0);
          return r;
        }
        if (r.error().code() != status_code::resource_exhausted) return r.error();
        if (keys.empty()) {
          return failed_precondition(r.error().message() + ": the key does not fit this GPU even alone");
        }
        if (evictions == 3) {
          return failed_precondition(r.error().message() + ": the keys in use evicted each other 3 times; they do "
                                     "not fit this GPU together (serve fewer keys per GPU or give it more memory)");
        }
      }
      const auto t0 = clock::now();
      hl.pool.release(hl.id);
      hl.on = false;
      evict_all_keys();
      hl.id = hl.pool.acquire();
      hl.on = true;
      t.add("key eviction", clock::now() - t0);
    }
  }

  // A partition that failed after enqueuing work (say an MSM plan refused n) must not leave it running
  // on the staging buffer and workspace the lane's next partition reuses: drains both streams. Notes
  // CUDA errors (the backend turns unhealthy); returns st.
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
    device_memory_config mc;
    mc.device = cfg.device;
    mc.vram_share = cfg.vram_share;
    mc.max_bytes = cfg.max_vram_bytes;
    mc.staging_buffers = cfg.lanes;
    mc.staging_bytes = cfg.staging_bytes;
    PP_ASSIGN_OR_RETURN(p->mem, device_memory::create(mc));
    PP_CUDA_TRY(cudaSetDevice(cfg.device));
    p->lanes.resize(cfg.lanes);
    p->free_lanes = std::make_unique<lane_pool>(cfg.lanes);
    for (uint32_t i = 0; i < cfg.lanes; ++i) {
      lane& l = p->lanes[i];
      l.id = i;
      l.staging = p->mem->staging(i);
      l.copy_track = "lane" + std::to_string(i) + "/copy";
      l.compute_track = "lane" + std::to_string(i) + "/compute";
      PP_CUDA_TRY(cudaStreamCreateWithFlags(&l.copy, cudaStreamNonBlocking));
      PP_CUDA_TRY(cudaStreamCreateWithFlags(&l.compute, cudaStreamNonBlocking));
      for (cuda_event& e : l.events) {
        PP_ASSIGN_OR_RETURN(e, cuda_event::create(/*timing=*/true));
      }
      PP_ASSIGN_OR_RETURN(l.stream_begin, cuda_event::create(/*timing=*/true));
      PP_ASSIGN_OR_RETURN(l.stream_end, cuda_event::create(/*timing=*/true));
      for (int s = 0; s < 2; ++s) {
        PP_ASSIGN_OR_RETURN(l.slot_loaded[s], cuda_event::create());
        PP_ASSIGN_OR_RETURN(l.slot_freed[s], cuda_event::create());
      }
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
    PP_ASSIGN_OR_RETURN(const key_shape shape, shape_key(pk, cs, compact, cfg.staging_bytes, matrix_chunk_bytes(cfg)));
    PP_ASSIGN_OR_RETURN(const std::vector<msm_chunking> opts, options_for(shape, cfg));
    const uint64_t budget = cfg.max_vram_bytes != 0 ? cfg.max_vram_bytes : std::numeric_limits<uint64_t>::max();
    PP_ASSIGN_OR_RETURN(const key_plan plan, plan_key(shape, opts, budget, cfg.lanes));
    return footprint_of(shape, plan);
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::footprint: ") + e.what());
  }
}

status cuda_backend::prepare(const proving_key& pk, const r1cs::constraint_system& cs, const compact_r1cs* compact) {
  try {
    pp::mutex_lock lock(impl_->mu);
    if (!impl_->healthy) return unavailable("cuda_backend: device unhealthy after " + impl_->last_error);
    PP_CUDA_TRY(cudaSetDevice(impl_->cfg.device));
    if (impl_->find_locked(key_fingerprint::of(pk, cs)) != nullptr) return ok_status();
    std::optional<compact_r1cs> built;
    auto r = impl_->place_locked(pk, cs, built, compact, /*all_resident=*/false);
    return r.ok() ? ok_status() : r.error();
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::prepare: ") + e.what());
  }
}

void cuda_backend::forget_key(const proving_key& pk) {
  bool placed = false;
  {
    pp::mutex_lock lock(impl_->mu);
    for (const auto& k : impl_->keys) placed |= k->id.pk == &pk;
  }
  // A key placed between the look and the eviction is placed from a live pk: evicting it is harmless.
  if (placed) impl_->evict_all_keys();
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
  impl_->next = 0;
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
    lane_hold hl(*impl_->free_lanes, impl_->free_lanes->acquire());
    PP_CUDA_TRY(cudaSetDevice(impl_->cfg.device));  // per host thread
    std::optional<compact_r1cs> compact;
    PP_ASSIGN_OR_RETURN(
        key_entry* const k,
        impl_->acquire_key(
            key_fingerprint::of(pk, cs),
            [&](bool all_resident) PP_REQUIRES(impl_->mu) {
              return impl_->place_locked(pk, cs, compact, nullptr, all_resident);
            },
            hl, p->timings));
    // One of the key's workspaces (a plan may have fewer than there are lanes). Eviction waits for
    // every lane, so k lives while this lane is held.
    workspace_hold hw(*k->free_ws);
    lane& ln = impl_->lanes[hl.id];
    auto r = run_partition(*k, k->ws[hw.id], ln, cs, req.witness, impl_->gclock, p->timings);
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
    groth16::prove_timings timings;
    lane_hold hl(*impl_->free_lanes, impl_->free_lanes->acquire());
    PP_CUDA_TRY(cudaSetDevice(impl_->cfg.device));  // per host thread
    PP_ASSIGN_OR_RETURN(
        key_entry* const k,
        impl_->acquire_key(
            key_fingerprint::of_evaluations(req),
            [&](bool all_resident) PP_REQUIRES(impl_->mu) -> result<key_entry*> {
              PP_ASSIGN_OR_RETURN(const key_shape shape, shape_evaluation_key(req, impl_->cfg.staging_bytes));
              const gather_lists gather = gather_lists::of(req);
              return impl_->place_shape_locked(key_fingerprint::of_evaluations(req), shape, all_resident,
                                               [&](key_entry& e) {
                                                 return upload_key(e, *req.pk, nullptr, gather, impl_->mem->base(),
                                                                   impl_->lanes[0].copy, matrix_chunk_bytes(impl_->cfg));
                                               });
            },
            hl, timings));
    workspace_hold hw(*k->free_ws);
    lane& ln = impl_->lanes[hl.id];
    auto r = run_evaluation_partition(*k, k->ws[hw.id], ln, req, impl_->gclock, timings);
    if (!r.ok()) return impl_->fail_partition(ln, r.error());
    impl_->account(*r);
    return groth16::finish_from_sums(req, r->sums);
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::prove_evaluations: ") + e.what());
  }
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
uint64_t cuda_backend::used_bytes() const {
  pp::mutex_lock lock(impl_->mu);
  return impl_->next;
}
uint32_t cuda_backend::lanes() const { return static_cast<uint32_t>(impl_->lanes.size()); }
uint64_t cuda_backend::h2d_bytes() const { return impl_->h2d.load(std::memory_order_relaxed); }

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
