// cuda_backend (cuda_backend.hpp): key residency, the per-partition launch sequence and the host
// assembly. Assembly is groth16::assemble_proof, shared with cpu_backend, on the MSM sums that
// the device returns as XYZZ points:
//   pi_A = alpha + sum w_i A_i + r delta_1
//   pi_B = beta_2 + sum w_i B2_i + s delta_2,   B1 = beta_1 + sum w_i B1_i + s delta_1
//   pi_C = sum aux_i L_i + sum h_j H_j + s pi_A + r B1 - r s delta_1
#include "cuda/cuda_backend.hpp"

#include <cuda_runtime_api.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <exception>
#include <mutex>
#include <new>
#include <optional>
#include <utility>
#include <vector>

#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"
#include "cuda/cuda_event.hpp"
#include "cuda/device_memory.hpp"
#include "cuda/groth16_qap.hpp"
#include "cuda/interval_union.hpp"
#include "cuda/lane_pool.hpp"
#include "cuda/msm_device.hpp"
#include "groth16/proof_assembly.hpp"
#include "cuda/spmv_device.hpp"
#include "cuda/witness_upload.hpp"
#include "ec/jacobian.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/xyzz.hpp"
#include "groth16/prover.hpp"
#include "r1cs/satisfaction.hpp"
#include "r1cs/witness.hpp"

namespace pp::cuda {

using ff::fr;
using groth16::blinding;
using groth16::h_basis;
using groth16::pending_ptr;
using groth16::prove_output;
using groth16::prove_request;
using groth16::prove_timings;
using groth16::proving_key;

namespace {

using clock = std::chrono::steady_clock;

constexpr uint64_t pad256(uint64_t b) { return (b + 255) / 256 * 256; }

int log2_exact(uint64_t n) {
  int k = 0;
  while ((uint64_t{1} << k) < n) ++k;
  return (uint64_t{1} << k) == n ? k : -1;
}

// The five MSM sums as the device returns them; lives in pinned staging so the copies stay async.
struct msm_sums {
  ec::g1_xyzz h, l, a, b1;
  ec::g2_xyzz b2;
};
constexpr uint64_t sums_bytes = pad256(sizeof(msm_sums));

// Variable indices of the set bits of a density bitmap: the gather list of a filtered query.
std::vector<uint32_t> density_indices(const groth16::density_bitmap& d) {
  std::vector<uint32_t> idx;
  idx.reserve(d.count());
  for (uint64_t i = 0; i < d.size; ++i) {
    if (d.get(i)) idx.push_back(uint32_t(i));
  }
  return idx;
}

// Sizes of one (key, circuit): what footprint() reports and prepare() carves, in this order.
struct key_sizes {
  int log_n = 0;
  uint64_t n = 0, nh = 0, nl = 0, na = 0, nb = 0, nv = 0;
  bool a_filtered = false, b_filtered = false;
  uint64_t matrices = 0, qap = 0, witness_ws = 0, msm_ws = 0;
  key_footprint fp;
  // After compute_h_device only a/b/c[0] (h) is live: the filtered A / B scalars go to b and c when
  // they fit (PoRep: always), which saves two witness-sized buffers per lane.
  [[nodiscard]] bool a_sel_in_buf() const { return na <= n; }
  [[nodiscard]] bool b_sel_in_buf() const { return nb <= n; }
};

result<key_sizes> size_key(const proving_key& pk, const r1cs::constraint_system& cs, const compact_r1cs* compact,
                           const cuda_backend_config& cfg) {
  PP_RETURN_IF_ERROR(groth16::check_key_matches_circuit(pk, cs));
  key_sizes s;
  s.n = pk.domain_size;
  s.log_n = log2_exact(s.n);
  s.nh = pk.h.size();
  s.nl = pk.l.size();
  s.na = pk.a.size();
  s.nb = pk.b_g1.size();
  s.nv = cs.num_variables();
  s.a_filtered = pk.a_density.has_value();
  s.b_filtered = pk.b_density.has_value();
  if (compact != nullptr) {
    s.matrices = compact->device_bytes();
  } else {
    PP_ASSIGN_OR_RETURN(const compact_r1cs c, make_compact_r1cs(cs));
    s.matrices = c.device_bytes();
  }
  PP_ASSIGN_OR_RETURN(s.qap, device_qap::workspace_bytes(s.log_n, pk.basis));
  // The packed witness never exceeds the staging buffer it is copied from (pack_witness refuses).
  s.witness_ws = std::min(compact_witness_layout::make(s.nv, s.nv).bytes, cfg.staging_bytes);
  uint64_t ws = 0;
  PP_ASSIGN_OR_RETURN(const uint64_t wh, msm_workspace_bytes<ec::g1_curve>(s.nh));
  ws = std::max(ws, wh);
  for (uint64_t m : {s.nl, s.na, s.nb}) {
    if (m == 0) continue;
    PP_ASSIGN_OR_RETURN(const uint64_t w, split_msm_workspace_bytes<ec::g1_curve>(m));
    ws = std::max(ws, w);
  }
  if (s.nb != 0) {
    PP_ASSIGN_OR_RETURN(const uint64_t w, split_msm_workspace_bytes<ec::g2_curve>(s.nb));
    ws = std::max(ws, w);
  }
  s.msm_ws = pad256(ws);
  key_footprint& f = s.fp;
  f.points_bytes = pad256(s.nh * sizeof(ec::g1_affine)) + pad256(s.nl * sizeof(ec::g1_affine)) +
                   pad256(s.na * sizeof(ec::g1_affine)) + pad256(s.nb * sizeof(ec::g1_affine)) +
                   pad256(s.nb * sizeof(ec::g2_affine));
  f.matrices_bytes = pad256(s.matrices);
  f.tables_bytes = pad256(s.qap) + (s.a_filtered ? pad256(s.na * 4) : 0) + (s.b_filtered ? pad256(s.nb * 4) : 0);
  f.msm_workspace_bytes = s.msm_ws;
  f.lanes = std::max<uint32_t>(cfg.lanes, 1);
  f.partition_bytes = pad256(s.nv * sizeof(fr)) + pad256(s.witness_ws) + 3 * pad256(s.n * sizeof(fr)) +
                      (s.a_filtered && !s.a_sel_in_buf() ? pad256(s.na * sizeof(fr)) : 0) +
                      (s.b_filtered && !s.b_sel_in_buf() ? pad256(s.nb * sizeof(fr)) : 0) + s.msm_ws;
  return s;
}

// What tells a cached key from a different one that reuses its address.
struct key_fingerprint {
  const proving_key* pk = nullptr;
  const r1cs::constraint_system* cs = nullptr;
  uint64_t n_vars = 0, domain = 0, nh = 0, nl = 0, constraints = 0;
  h_basis basis{};
  ec::g1_affine h0{}, l0{}, delta{};
  static key_fingerprint of(const proving_key& pk, const r1cs::constraint_system& cs) {
    key_fingerprint f;
    f.pk = &pk;
    f.cs = &cs;
    f.n_vars = pk.n_vars;
    f.domain = pk.domain_size;
    f.nh = pk.h.size();
    f.nl = pk.l.size();
    f.constraints = cs.num_constraints();
    f.basis = pk.basis;
    if (!pk.h.empty()) f.h0 = pk.h.front();
    if (!pk.l.empty()) f.l0 = pk.l.back();
    f.delta = pk.vk.delta_g1;
    return f;
  }
  bool operator==(const key_fingerprint& o) const {
    return pk == o.pk && cs == o.cs && n_vars == o.n_vars && domain == o.domain && nh == o.nh && nl == o.nl &&
           constraints == o.constraints && basis == o.basis && h0 == o.h0 && l0 == o.l0 && delta == o.delta;
  }
};

// One lane's partition workspace for one key.
struct partition_workspace {
  fr* d_w = nullptr;
  void* d_witness_ws = nullptr;
  fr* d_buf[3] = {nullptr, nullptr, nullptr};
  fr *d_a_sel = nullptr, *d_b_sel = nullptr;
  void* d_msm_ws = nullptr;
};

struct key_entry {
  key_fingerprint id;
  key_sizes sizes;
  device_qap qap;
  device_r1cs matrices;
  const ec::g1_affine *d_h = nullptr, *d_l = nullptr, *d_a = nullptr, *d_b1 = nullptr;
  const ec::g2_affine* d_b2 = nullptr;
  const uint32_t *d_a_idx = nullptr, *d_b_idx = nullptr;
  std::vector<partition_workspace> ws;  // one per lane
};

struct cuda_pending final : groth16::pending {
  const proving_key* pk = nullptr;
  const r1cs::constraint_system* cs = nullptr;
  std::span<const fr> witness;
  blinding rs;
  groth16::prove_options options;
  prove_timings timings;
  groth16::msm_sums sums;
};

// Timing events of one partition, in the order they are recorded: ev_start and ev_uploaded on the
// copy stream, the rest on the compute stream (ev_compute_begin: its wait for the upload is over).
enum ev : int {
  ev_start, ev_uploaded, ev_compute_begin, ev_spmv, ev_h, ev_select,
  ev_msm_h, ev_msm_l, ev_msm_a, ev_msm_b1, ev_msm_b2, ev_count
};
constexpr const char* ev_names[ev_count] = {"",           "gpu witness upload", "",          "gpu spmv",
                                            "gpu ntt (h)", "gpu select",        "gpu msm H", "gpu msm L",
                                            "gpu msm A",  "gpu msm B_G1",       "gpu msm B_G2"};

// A lane: what one in-flight partition uses besides its per-key workspace.
struct lane {
  uint32_t id = 0;
  cudaStream_t copy = nullptr, compute = nullptr;
  std::array<cuda_event, ev_count> events;
  std::span<std::byte> staging;
  std::string copy_track, compute_track;
};

std::chrono::nanoseconds from_ms(float ms) { return std::chrono::nanoseconds(int64_t(double(ms) * 1e6)); }

}  // namespace

struct cuda_backend::impl {
  cuda_backend_config cfg;
  std::unique_ptr<device_memory> mem;
  std::vector<lane> lanes;
  // Time origin of the GPU intervals: an event completed at create(), and the host time just after.
  cuda_event origin;
  clock::time_point host_origin;

  mutable std::mutex mu;  // key residency and health; guards everything below
  std::vector<std::unique_ptr<key_entry>> keys;
  uint64_t next = 0;  // bump offset into the region
  bool healthy = true;
  std::string last_error;

  std::unique_ptr<lane_pool> free_lanes;  // which lanes are free; all of them for a key eviction

  mutable std::mutex busy_mu;
  interval_union busy;  // the lanes' compute intervals, ms since the origin event

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
      std::lock_guard lock(mu);
      keys.clear();
      next = 0;
    }
    free_lanes->release_all();
  }

  template <class T>
  result<T*> take(uint64_t bytes) {
    auto r = mem->region(next, std::max<uint64_t>(bytes, 1));
    if (!r.ok()) return std::move(r).take_status();
    next += pad256(bytes);
    return static_cast<T*>(*r);
  }

  // A failed CUDA call leaves the device unusable for us: later calls fail fast.
  status note(status st) {
    if (!st.ok() && st.code() == status_code::internal) {
      healthy = false;
      last_error = st.message();
    }
    return st;
  }

  status note_locked(status st) {
    std::lock_guard lock(mu);
    return note(std::move(st));
  }

  // compact: cs's device matrices, built on the first call and kept by the caller across
  // eviction retries (seconds of host work at 2^27).
  result<key_entry*> prepare_locked(const proving_key& pk, const r1cs::constraint_system& cs,
                                    std::optional<compact_r1cs>& compact);
  status upload_key(key_entry& k, const proving_key& pk, const compact_r1cs& compact);
  status run_partition(const key_entry& k, lane& ln, std::span<const fr> w, cuda_pending& p);
  // The lane's timings, spans and busy interval from its completed events.
  status record_times(const lane& ln, cuda_pending& p);
};

template <class T>
static status upload_vector(void* d, const std::vector<T>& v, cudaStream_t stream) {
  if (v.empty()) return ok_status();
  PP_CUDA_TRY(cudaMemcpyAsync(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
  return ok_status();
}

status cuda_backend::impl::upload_key(key_entry& k, const proving_key& pk, const compact_r1cs& compact) {
  const key_sizes& s = k.sizes;
  // Setup work, synchronized: on lane 0's copy stream while mu keeps other key uploads out. Lanes
  // running partitions of other keys go on meanwhile (their memory lies below `next`).
  cudaStream_t copy = lanes[0].copy;
  PP_ASSIGN_OR_RETURN(auto* d_h, take<ec::g1_affine>(s.nh * sizeof(ec::g1_affine)));
  PP_ASSIGN_OR_RETURN(auto* d_l, take<ec::g1_affine>(s.nl * sizeof(ec::g1_affine)));
  PP_ASSIGN_OR_RETURN(auto* d_a, take<ec::g1_affine>(s.na * sizeof(ec::g1_affine)));
  PP_ASSIGN_OR_RETURN(auto* d_b1, take<ec::g1_affine>(s.nb * sizeof(ec::g1_affine)));
  PP_ASSIGN_OR_RETURN(auto* d_b2, take<ec::g2_affine>(s.nb * sizeof(ec::g2_affine)));
  PP_RETURN_IF_ERROR(upload_vector(d_h, pk.h, copy));
  PP_RETURN_IF_ERROR(upload_vector(d_l, pk.l, copy));
  PP_RETURN_IF_ERROR(upload_vector(d_a, pk.a, copy));
  PP_RETURN_IF_ERROR(upload_vector(d_b1, pk.b_g1, copy));
  PP_RETURN_IF_ERROR(upload_vector(d_b2, pk.b_g2, copy));
  PP_CUDA_TRY(cudaStreamSynchronize(copy));  // pageable sources: setup only
  k.d_h = d_h, k.d_l = d_l, k.d_a = d_a, k.d_b1 = d_b1, k.d_b2 = d_b2;

  PP_ASSIGN_OR_RETURN(void* d_m, take<void>(s.matrices));
  PP_ASSIGN_OR_RETURN(k.matrices, upload_r1cs(compact, d_m, s.matrices, copy));
  PP_ASSIGN_OR_RETURN(void* d_q, take<void>(s.qap));
  PP_ASSIGN_OR_RETURN(k.qap, device_qap::create(s.log_n, pk.basis, d_q, s.qap, copy));
  // The variable indices of a filtered A / B query (bellperson's density bitmaps).
  const auto upload_density = [&](const auto& density, const uint32_t*& d_idx) -> status {
    const std::vector<uint32_t> idx = density_indices(density);
    PP_ASSIGN_OR_RETURN(auto* d, take<uint32_t>(idx.size() * 4));
    PP_RETURN_IF_ERROR(upload_vector(d, idx, copy));
    PP_CUDA_TRY(cudaStreamSynchronize(copy));  // idx dies here
    d_idx = d;
    return ok_status();
  };
  if (s.a_filtered) PP_RETURN_IF_ERROR(upload_density(*pk.a_density, k.d_a_idx));
  if (s.b_filtered) PP_RETURN_IF_ERROR(upload_density(*pk.b_density, k.d_b_idx));
  // Partition workspaces, one per lane.
  k.ws.resize(lanes.size());
  for (partition_workspace& pw : k.ws) {
    PP_ASSIGN_OR_RETURN(pw.d_w, take<fr>(s.nv * sizeof(fr)));
    PP_ASSIGN_OR_RETURN(pw.d_witness_ws, take<void>(s.witness_ws));
    for (fr*& b : pw.d_buf) {
      PP_ASSIGN_OR_RETURN(b, take<fr>(s.n * sizeof(fr)));
    }
    if (s.a_filtered) {
      if (s.a_sel_in_buf()) {
        pw.d_a_sel = pw.d_buf[1];
      } else {
        PP_ASSIGN_OR_RETURN(pw.d_a_sel, take<fr>(s.na * sizeof(fr)));
      }
    }
    if (s.b_filtered) {
      if (s.b_sel_in_buf()) {
        pw.d_b_sel = pw.d_buf[2];
      } else {
        PP_ASSIGN_OR_RETURN(pw.d_b_sel, take<fr>(s.nb * sizeof(fr)));
      }
    }
    PP_ASSIGN_OR_RETURN(pw.d_msm_ws, take<void>(s.msm_ws));
  }
  return ok_status();
}

result<key_entry*> cuda_backend::impl::prepare_locked(const proving_key& pk, const r1cs::constraint_system& cs,
                                                      std::optional<compact_r1cs>& compact) {
  const key_fingerprint id = key_fingerprint::of(pk, cs);
  for (auto& k : keys) {
    if (k->id == id) return k.get();
  }
  if (!compact) {
    PP_ASSIGN_OR_RETURN(compact_r1cs c, make_compact_r1cs(cs));
    compact.emplace(std::move(c));
  }
  PP_ASSIGN_OR_RETURN(const key_sizes sizes, size_key(pk, cs, &*compact, cfg));
  const uint64_t need = sizes.fp.total_bytes();
  if (next + need > mem->capacity()) {
    return resource_exhausted("cuda_backend: the key needs " + std::to_string(need) + " bytes of device memory (" +
                              std::to_string(sizes.fp.resident_bytes()) + " resident + " +
                              std::to_string(sizes.fp.partition_bytes) + " per partition x " +
                              std::to_string(sizes.fp.lanes) + " lanes), " +
                              std::to_string(mem->capacity() - next) + " of " + std::to_string(mem->capacity()) +
                              " are free");
  }
  auto k = std::make_unique<key_entry>();
  k->id = id;
  k->sizes = sizes;
  const uint64_t mark = next;
  if (status st = upload_key(*k, pk, *compact); !st.ok()) {
    next = mark;
    return note(std::move(st));
  }
  keys.push_back(std::move(k));
  return keys.back().get();
}

status cuda_backend::impl::run_partition(const key_entry& k, lane& ln, std::span<const fr> w, cuda_pending& p) {
  const key_sizes& s = k.sizes;
  const partition_workspace& pw = k.ws[ln.id];
  const r1cs::constraint_system& cs = *p.cs;
  prove_timings& t = p.timings;
  auto& events = ln.events;
  const cudaStream_t copy = ln.copy, compute = ln.compute;
  // Host: pack the witness into the lane's pinned staging (the MSM sums land in its tail).
  const std::span<std::byte> staging = ln.staging;
  auto* sums = reinterpret_cast<msm_sums*>(staging.data() + staging.size() - sums_bytes);
  const auto t0 = clock::now();
  PP_ASSIGN_OR_RETURN(const compact_witness_layout layout, pack_witness(w, staging.first(staging.size() - sums_bytes)));
  t.add("pack witness (host)", clock::now() - t0);

  // Copy stream: witness upload; the compute stream waits for it through an event.
  PP_RETURN_IF_ERROR(events[ev_start].record(copy));
  PP_RETURN_IF_ERROR(upload_witness(layout, staging.data(), pw.d_witness_ws, pw.d_w, copy));
  PP_RETURN_IF_ERROR(events[ev_uploaded].record(copy));
  PP_RETURN_IF_ERROR(events[ev_uploaded].wait_on(compute));
  PP_RETURN_IF_ERROR(events[ev_compute_begin].record(compute));

  fr* const a = pw.d_buf[0];
  PP_RETURN_IF_ERROR(spmv_abc(k.matrices, pw.d_w, pw.d_buf[0], pw.d_buf[1], pw.d_buf[2], s.n, compute));
  PP_RETURN_IF_ERROR(set_input_rows(a, pw.d_w, cs.num_constraints(), cs.num_public() + 1, compute));
  PP_RETURN_IF_ERROR(events[ev_spmv].record(compute));
  PP_RETURN_IF_ERROR(compute_h_device(k.qap, pw.d_buf[0], pw.d_buf[1], pw.d_buf[2], compute));
  PP_RETURN_IF_ERROR(events[ev_h].record(compute));
  // From here only d_buf[0] (h) is live; d_a_sel / d_b_sel may be d_buf[1] / d_buf[2].
  const fr* a_scalars = pw.d_w;
  const fr* b_scalars = pw.d_w;
  if (s.a_filtered) {
    PP_RETURN_IF_ERROR(gather_scalars(pw.d_a_sel, pw.d_w, k.d_a_idx, s.na, compute));
    a_scalars = pw.d_a_sel;
  }
  if (s.b_filtered) {
    PP_RETURN_IF_ERROR(gather_scalars(pw.d_b_sel, pw.d_w, k.d_b_idx, s.nb, compute));
    b_scalars = pw.d_b_sel;
  }
  PP_RETURN_IF_ERROR(events[ev_select].record(compute));

  // The five MSMs, one after another on the compute stream, sharing one workspace.
  void* ws = pw.d_msm_ws;
  const uint64_t wsb = s.msm_ws;
  PP_RETURN_IF_ERROR(msm<ec::g1_curve>(k.d_h, a, s.nh, ws, wsb, &sums->h, compute));
  PP_RETURN_IF_ERROR(events[ev_msm_h].record(compute));
  auto split_g1 = [&](const ec::g1_affine* pts, const fr* sc, uint64_t n, ec::g1_xyzz* out) -> status {
    if (n == 0) {
      *out = ec::g1_xyzz::infinity();
      return ok_status();
    }
    return split_msm<ec::g1_curve>(pts, sc, n, ws, wsb, out, compute);
  };
  PP_RETURN_IF_ERROR(split_g1(k.d_l, pw.d_w + 1 + cs.num_public(), s.nl, &sums->l));
  PP_RETURN_IF_ERROR(events[ev_msm_l].record(compute));
  PP_RETURN_IF_ERROR(split_g1(k.d_a, a_scalars, s.na, &sums->a));
  PP_RETURN_IF_ERROR(events[ev_msm_a].record(compute));
  PP_RETURN_IF_ERROR(split_g1(k.d_b1, b_scalars, s.nb, &sums->b1));
  PP_RETURN_IF_ERROR(events[ev_msm_b1].record(compute));
  if (s.nb == 0) {
    sums->b2 = ec::g2_xyzz::infinity();
  } else {
    PP_RETURN_IF_ERROR(split_msm<ec::g2_curve>(k.d_b2, b_scalars, s.nb, ws, wsb, &sums->b2, compute));
  }
  PP_RETURN_IF_ERROR(events[ev_msm_b2].record(compute));
  // Per-event wait (not the device): the sums are in pinned memory once the last event completes,
  // and the lane (its staging and workspaces) is free again.
  PP_RETURN_IF_ERROR(events[ev_msm_b2].synchronize());

  p.sums.h = ec::to_jacobian(sums->h);
  p.sums.l = ec::to_jacobian(sums->l);
  p.sums.a = ec::to_jacobian(sums->a);
  p.sums.b1 = ec::to_jacobian(sums->b1);
  p.sums.b2 = ec::to_jacobian(sums->b2);
  return record_times(ln, p);
}

status cuda_backend::impl::record_times(const lane& ln, cuda_pending& p) {
  const auto& events = ln.events;
  prove_timings& t = p.timings;
  std::array<float, ev_count> at{};  // ms since the origin event
  for (int e = 0; e < ev_count; ++e) {
    PP_ASSIGN_OR_RETURN(at[e], cuda_event::elapsed_ms(origin, events[e]));
  }
  auto host_at = [&](int e) {
    return host_origin + std::chrono::duration_cast<clock::duration>(std::chrono::duration<double, std::milli>(at[e]));
  };
  t.add(ev_names[ev_uploaded], from_ms(at[ev_uploaded] - at[ev_start]));
  t.spans.push_back({"upload", ln.copy_track, host_at(ev_start), host_at(ev_uploaded)});
  for (int e = ev_spmv; e < ev_count; ++e) {
    const int prev = e == ev_spmv ? ev_compute_begin : e - 1;
    t.add(ev_names[e], from_ms(at[e] - at[prev]));
    t.spans.push_back({std::string(ev_names[e] + 4), ln.compute_track, host_at(prev), host_at(e)});
  }
  std::lock_guard lock(busy_mu);
  busy.add(at[ev_compute_begin], at[ev_msm_b2]);
  return ok_status();
}

cuda_backend::cuda_backend(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
cuda_backend::~cuda_backend() = default;

result<std::unique_ptr<cuda_backend>> cuda_backend::create(const cuda_backend_config& cfg) {
  try {
    if (cfg.staging_bytes < 2 * sums_bytes) {
      return invalid_argument("cuda_backend: staging_bytes must be at least " + std::to_string(2 * sums_bytes));
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
    }
    PP_ASSIGN_OR_RETURN(p->origin, cuda_event::create(/*timing=*/true));
    PP_RETURN_IF_ERROR(p->origin.record(p->lanes[0].compute));
    PP_RETURN_IF_ERROR(p->origin.synchronize());
    p->host_origin = clock::now();
    return std::unique_ptr<cuda_backend>(new cuda_backend(std::move(p)));
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::create: ") + e.what());
  }
}

result<key_footprint> cuda_backend::footprint(const proving_key& pk, const r1cs::constraint_system& cs,
                                              const cuda_backend_config& cfg) {
  try {
    PP_ASSIGN_OR_RETURN(const key_sizes s, size_key(pk, cs, nullptr, cfg));
    return s.fp;
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::footprint: ") + e.what());
  }
}

status cuda_backend::prepare(const proving_key& pk, const r1cs::constraint_system& cs) {
  try {
    std::lock_guard lock(impl_->mu);
    if (!impl_->healthy) return unavailable("cuda_backend: device unhealthy after " + impl_->last_error);
    PP_CUDA_TRY(cudaSetDevice(impl_->cfg.device));
    std::optional<compact_r1cs> compact;
    auto r = impl_->prepare_locked(pk, cs, compact);
    return r.ok() ? ok_status() : r.error();
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::prepare: ") + e.what());
  }
}

result<key_footprint> cuda_backend::resident_footprint(const proving_key& pk,
                                                       const r1cs::constraint_system& cs) const {
  const key_fingerprint id = key_fingerprint::of(pk, cs);
  std::lock_guard lock(impl_->mu);
  for (const auto& k : impl_->keys) {
    if (k->id == id) return k->sizes.fp;
  }
  return not_found("cuda_backend: the key is not resident");
}

void cuda_backend::clear_keys() {
  std::lock_guard lock(impl_->mu);
  impl_->keys.clear();
  impl_->next = 0;
}

result<pending_ptr> cuda_backend::start(const prove_request& req) {
  try {
    PP_RETURN_IF_ERROR(groth16::check_prove_request(req));
    const proving_key& pk = *req.pk;
    const r1cs::constraint_system& cs = *req.cs;
    const std::span<const fr> w = req.witness;

    auto p = std::make_unique<cuda_pending>();
    p->pk = &pk;
    p->cs = &cs;
    p->witness = w;
    p->rs = req.rs ? *req.rs : groth16::random_blinding();
    p->options = req.options;
    if (req.options.check_satisfied) {
      const auto t0 = clock::now();
      PP_RETURN_IF_ERROR(r1cs::check_satisfied(cs, w));
      p->timings.add("satisfaction check", clock::now() - t0);
    }

    // The lane is held until its last event has completed (run_partition waits for it) or, on a
    // failure, until its streams are drained.
    struct held_lane {
      lane_pool& pool;
      uint32_t id;
      bool held = true;
      ~held_lane() {
        if (held) pool.release(id);
      }
    } hl{*impl_->free_lanes, impl_->free_lanes->acquire()};
    PP_CUDA_TRY(cudaSetDevice(impl_->cfg.device));  // per host thread
    // The key's resident tables. When the region is full of other keys they are all evicted (the
    // region is one bump allocation) and this key uploaded; a key that does not fit an empty region,
    // or keys that keep evicting each other, fail the request: the device itself stays in rotation.
    key_entry* k = nullptr;
    std::optional<compact_r1cs> compact;
    for (int evictions = 0;; ++evictions) {
      {
        std::lock_guard lock(impl_->mu);
        if (!impl_->healthy) return unavailable("cuda_backend: device unhealthy after " + impl_->last_error);
        const auto t0 = clock::now();
        auto r = impl_->prepare_locked(pk, cs, compact);
        if (r.ok()) {
          k = *r;
          if (const auto d = clock::now() - t0; d > std::chrono::milliseconds(1)) p->timings.add("key upload", d);
          break;
        }
        if (r.error().code() != status_code::resource_exhausted) return r.error();
        if (impl_->keys.empty()) {
          return failed_precondition(r.error().message() + ": the key does not fit this GPU even alone");
        }
        if (evictions == 3) {
          return failed_precondition(r.error().message() + ": the keys in use evicted each other 3 times; they do "
                                     "not fit this GPU together (serve fewer keys per GPU or give it more memory)");
        }
      }
      const auto t0 = clock::now();
      hl.pool.release(hl.id);
      hl.held = false;
      impl_->evict_all_keys();
      hl.id = hl.pool.acquire();
      hl.held = true;
      p->timings.add("key eviction", clock::now() - t0);
    }
    lane& ln = impl_->lanes[hl.id];
    if (status st = impl_->run_partition(*k, ln, w, *p); !st.ok()) {
      // A partition that failed after enqueuing work (say an MSM plan refused n) must not leave it
      // running on the staging buffer and workspace the lane's next partition reuses: drain both.
      if (st.code() != status_code::internal) {
        const cudaError_t e1 = cudaStreamSynchronize(ln.copy), e2 = cudaStreamSynchronize(ln.compute);
        if (e1 != cudaSuccess || e2 != cudaSuccess) {
          (void)impl_->note_locked(internal_error(std::string("CUDA error ") +
                                                  cudaGetErrorName(e1 != cudaSuccess ? e1 : e2) +
                                                  " while draining the streams after: " + st.message()));
        }
      }
      return impl_->note_locked(std::move(st));
    }
    return pending_ptr(std::move(p));
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::start: ") + e.what());
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
  std::lock_guard lock(impl_->mu);
  return impl_->healthy;
}
std::string cuda_backend::last_error() const {
  std::lock_guard lock(impl_->mu);
  return impl_->last_error;
}
int cuda_backend::device() const { return impl_->cfg.device; }
uint64_t cuda_backend::capacity_bytes() const { return impl_->mem->capacity(); }
uint64_t cuda_backend::used_bytes() const {
  std::lock_guard lock(impl_->mu);
  return impl_->next;
}
uint32_t cuda_backend::lanes() const { return static_cast<uint32_t>(impl_->lanes.size()); }

cuda_backend::activity cuda_backend::gpu_activity() const {
  std::lock_guard lock(impl_->busy_mu);
  const interval_union::totals t = impl_->busy.read();
  return {t.covered, t.span, t.count};
}
void cuda_backend::reset_activity() {
  std::lock_guard lock(impl_->busy_mu);
  impl_->busy = interval_union{};
}

}  // namespace pp::cuda
