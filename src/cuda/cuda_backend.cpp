// cuda_backend (cuda_backend.hpp): key residency, the per-partition launch sequence and the host
// assembly. Assembly is groth16::assemble_proof, shared with cpu_backend, on the MSM sums that
// the device returns as XYZZ points:
//   pi_A = alpha + sum w_i A_i + r delta_1
//   pi_B = beta_2 + sum w_i B2_i + s delta_2,   B1 = beta_1 + sum w_i B1_i + s delta_1
//   pi_C = sum aux_i L_i + sum h_j H_j + s pi_A + r B1 - r s delta_1
#include "cuda/cuda_backend.hpp"

#include <cuda_runtime_api.h>

#include <array>
#include <chrono>
#include <exception>
#include <mutex>
#include <new>
#include <vector>

#include "core/cuda_try.hpp"
#include "core/status_macros.hpp"
#include "cuda/cuda_event.hpp"
#include "cuda/device_memory.hpp"
#include "cuda/groth16_qap.hpp"
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
};

result<key_sizes> size_key(const proving_key& pk, const r1cs::constraint_system& cs, const compact_r1cs* compact) {
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
  s.witness_ws = compact_witness_layout::make(s.nv, s.nv).bytes;  // worst case: no 0/1 values
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
  f.partition_bytes = pad256(s.nv * sizeof(fr)) + pad256(s.witness_ws) + 3 * pad256(s.n * sizeof(fr)) +
                      (s.a_filtered ? pad256(s.na * sizeof(fr)) : 0) + (s.b_filtered ? pad256(s.nb * sizeof(fr)) : 0) +
                      s.msm_ws;
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

struct key_entry {
  key_fingerprint id;
  key_sizes sizes;
  device_qap qap;
  device_r1cs matrices;
  const ec::g1_affine *d_h = nullptr, *d_l = nullptr, *d_a = nullptr, *d_b1 = nullptr;
  const ec::g2_affine* d_b2 = nullptr;
  const uint32_t *d_a_idx = nullptr, *d_b_idx = nullptr;
  // Partition workspace.
  fr* d_w = nullptr;
  void* d_witness_ws = nullptr;
  fr* d_buf[3] = {nullptr, nullptr, nullptr};
  fr *d_a_sel = nullptr, *d_b_sel = nullptr;
  void* d_msm_ws = nullptr;
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

// Timing events of one partition, in the order they are recorded.
enum ev : int { ev_start, ev_uploaded, ev_spmv, ev_h, ev_select, ev_msm_h, ev_msm_l, ev_msm_a, ev_msm_b1, ev_msm_b2, ev_count };

std::chrono::nanoseconds from_ms(float ms) { return std::chrono::nanoseconds(int64_t(double(ms) * 1e6)); }

}  // namespace

struct cuda_backend::impl {
  cuda_backend_config cfg;
  std::unique_ptr<device_memory> mem;
  cudaStream_t copy = nullptr, compute = nullptr;
  std::array<cuda_event, ev_count> events;

  mutable std::mutex mu;  // one partition at a time; guards everything below
  std::vector<std::unique_ptr<key_entry>> keys;
  uint64_t next = 0;  // bump offset into the region
  bool healthy = true;
  std::string last_error;

  ~impl() {
    if (copy != nullptr) cudaStreamDestroy(copy);
    if (compute != nullptr) cudaStreamDestroy(compute);
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

  result<key_entry*> prepare_locked(const proving_key& pk, const r1cs::constraint_system& cs);
  status upload_key(key_entry& k, const proving_key& pk, const compact_r1cs& compact);
  status run_partition(key_entry& k, std::span<const fr> w, cuda_pending& p);
};

template <class T>
static status upload_vector(void* d, const std::vector<T>& v, cudaStream_t stream) {
  if (v.empty()) return ok_status();
  PP_CUDA_TRY(cudaMemcpyAsync(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
  return ok_status();
}

status cuda_backend::impl::upload_key(key_entry& k, const proving_key& pk, const compact_r1cs& compact) {
  const key_sizes& s = k.sizes;
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
  if (s.a_filtered) {
    const std::vector<uint32_t> idx = density_indices(*pk.a_density);
    PP_ASSIGN_OR_RETURN(auto* d, take<uint32_t>(idx.size() * 4));
    PP_RETURN_IF_ERROR(upload_vector(d, idx, copy));
    PP_CUDA_TRY(cudaStreamSynchronize(copy));
    k.d_a_idx = d;
  }
  if (s.b_filtered) {
    const std::vector<uint32_t> idx = density_indices(*pk.b_density);
    PP_ASSIGN_OR_RETURN(auto* d, take<uint32_t>(idx.size() * 4));
    PP_RETURN_IF_ERROR(upload_vector(d, idx, copy));
    PP_CUDA_TRY(cudaStreamSynchronize(copy));
    k.d_b_idx = d;
  }
  // Partition workspace.
  PP_ASSIGN_OR_RETURN(k.d_w, take<fr>(s.nv * sizeof(fr)));
  PP_ASSIGN_OR_RETURN(k.d_witness_ws, take<void>(s.witness_ws));
  for (fr*& b : k.d_buf) {
    PP_ASSIGN_OR_RETURN(b, take<fr>(s.n * sizeof(fr)));
  }
  if (s.a_filtered) {
    PP_ASSIGN_OR_RETURN(k.d_a_sel, take<fr>(s.na * sizeof(fr)));
  }
  if (s.b_filtered) {
    PP_ASSIGN_OR_RETURN(k.d_b_sel, take<fr>(s.nb * sizeof(fr)));
  }
  PP_ASSIGN_OR_RETURN(k.d_msm_ws, take<void>(s.msm_ws));
  return ok_status();
}

result<key_entry*> cuda_backend::impl::prepare_locked(const proving_key& pk, const r1cs::constraint_system& cs) {
  const key_fingerprint id = key_fingerprint::of(pk, cs);
  for (auto& k : keys) {
    if (k->id == id) return k.get();
  }
  PP_ASSIGN_OR_RETURN(const compact_r1cs compact, make_compact_r1cs(cs));
  PP_ASSIGN_OR_RETURN(const key_sizes sizes, size_key(pk, cs, &compact));
  const uint64_t need = sizes.fp.total_bytes();
  if (next + need > mem->capacity()) {
    return resource_exhausted("cuda_backend: the key needs " + std::to_string(need) + " bytes of device memory (" +
                              std::to_string(sizes.fp.resident_bytes()) + " resident + " +
                              std::to_string(sizes.fp.partition_bytes) + " per partition), " +
                              std::to_string(mem->capacity() - next) + " of " + std::to_string(mem->capacity()) +
                              " are free");
  }
  auto k = std::make_unique<key_entry>();
  k->id = id;
  k->sizes = sizes;
  const uint64_t mark = next;
  if (status st = upload_key(*k, pk, compact); !st.ok()) {
    next = mark;
    return note(std::move(st));
  }
  keys.push_back(std::move(k));
  return keys.back().get();
}

status cuda_backend::impl::run_partition(key_entry& k, std::span<const fr> w, cuda_pending& p) {
  const key_sizes& s = k.sizes;
  const r1cs::constraint_system& cs = *p.cs;
  prove_timings& t = p.timings;
  // Host: pack the witness into pinned staging (the MSM sums land in its tail).
  const std::span<std::byte> staging = mem->staging(0);
  auto* sums = reinterpret_cast<msm_sums*>(staging.data() + staging.size() - sums_bytes);
  const auto t0 = clock::now();
  PP_ASSIGN_OR_RETURN(const compact_witness_layout layout, pack_witness(w, staging.first(staging.size() - sums_bytes)));
  t.add("pack witness (host)", clock::now() - t0);

  // Copy stream: witness upload; the compute stream waits for it through an event.
  PP_RETURN_IF_ERROR(events[ev_start].record(copy));
  PP_RETURN_IF_ERROR(upload_witness(layout, staging.data(), k.d_witness_ws, k.d_w, copy));
  PP_RETURN_IF_ERROR(events[ev_uploaded].record(copy));
  PP_RETURN_IF_ERROR(events[ev_uploaded].wait_on(compute));

  fr* const a = k.d_buf[0];
  PP_RETURN_IF_ERROR(spmv_abc(k.matrices, k.d_w, k.d_buf[0], k.d_buf[1], k.d_buf[2], s.n, compute));
  PP_RETURN_IF_ERROR(set_input_rows(a, k.d_w, cs.num_constraints(), cs.num_public() + 1, compute));
  PP_RETURN_IF_ERROR(events[ev_spmv].record(compute));
  PP_RETURN_IF_ERROR(compute_h_device(k.qap, k.d_buf[0], k.d_buf[1], k.d_buf[2], compute));
  PP_RETURN_IF_ERROR(events[ev_h].record(compute));
  const fr* a_scalars = k.d_w;
  const fr* b_scalars = k.d_w;
  if (s.a_filtered) {
    PP_RETURN_IF_ERROR(gather_scalars(k.d_a_sel, k.d_w, k.d_a_idx, s.na, compute));
    a_scalars = k.d_a_sel;
  }
  if (s.b_filtered) {
    PP_RETURN_IF_ERROR(gather_scalars(k.d_b_sel, k.d_w, k.d_b_idx, s.nb, compute));
    b_scalars = k.d_b_sel;
  }
  PP_RETURN_IF_ERROR(events[ev_select].record(compute));

  // The five MSMs, one after another on the compute stream, sharing one workspace.
  void* ws = k.d_msm_ws;
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
  PP_RETURN_IF_ERROR(split_g1(k.d_l, k.d_w + 1 + cs.num_public(), s.nl, &sums->l));
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
  // Per-event wait (not the device): the sums are in pinned memory once the last event completes.
  PP_RETURN_IF_ERROR(events[ev_msm_b2].synchronize());

  p.sums.h = ec::to_jacobian(sums->h);
  p.sums.l = ec::to_jacobian(sums->l);
  p.sums.a = ec::to_jacobian(sums->a);
  p.sums.b1 = ec::to_jacobian(sums->b1);
  p.sums.b2 = ec::to_jacobian(sums->b2);

  static constexpr const char* names[ev_count] = {"",        "gpu witness upload", "gpu spmv",  "gpu ntt (h)",
                                                  "gpu select", "gpu msm H",        "gpu msm L", "gpu msm A",
                                                  "gpu msm B_G1", "gpu msm B_G2"};
  for (int e = ev_uploaded; e < ev_count; ++e) {
    PP_ASSIGN_OR_RETURN(const float ms, cuda_event::elapsed_ms(events[e - 1], events[e]));
    t.add(names[e], from_ms(ms));
  }
  return ok_status();
}

cuda_backend::cuda_backend(std::unique_ptr<impl> p) : impl_(std::move(p)) {}
cuda_backend::~cuda_backend() = default;

result<std::unique_ptr<cuda_backend>> cuda_backend::create(const cuda_backend_config& cfg) {
  try {
    if (cfg.staging_bytes < 2 * sums_bytes) {
      return invalid_argument("cuda_backend: staging_bytes must be at least " + std::to_string(2 * sums_bytes));
    }
    auto p = std::make_unique<impl>();
    p->cfg = cfg;
    device_memory_config mc;
    mc.device = cfg.device;
    mc.vram_share = cfg.vram_share;
    mc.max_bytes = cfg.max_vram_bytes;
    mc.staging_buffers = 1;
    mc.staging_bytes = cfg.staging_bytes;
    PP_ASSIGN_OR_RETURN(p->mem, device_memory::create(mc));
    PP_CUDA_TRY(cudaSetDevice(cfg.device));
    PP_CUDA_TRY(cudaStreamCreateWithFlags(&p->copy, cudaStreamNonBlocking));
    PP_CUDA_TRY(cudaStreamCreateWithFlags(&p->compute, cudaStreamNonBlocking));
    for (cuda_event& e : p->events) {
      PP_ASSIGN_OR_RETURN(e, cuda_event::create(/*timing=*/true));
    }
    return std::unique_ptr<cuda_backend>(new cuda_backend(std::move(p)));
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::create: ") + e.what());
  }
}

result<key_footprint> cuda_backend::footprint(const proving_key& pk, const r1cs::constraint_system& cs) {
  try {
    PP_ASSIGN_OR_RETURN(const key_sizes s, size_key(pk, cs, nullptr));
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
    auto r = impl_->prepare_locked(pk, cs);
    return r.ok() ? ok_status() : r.error();
  } catch (const std::exception& e) {
    return internal_error(std::string("cuda_backend::prepare: ") + e.what());
  }
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

    std::lock_guard lock(impl_->mu);
    if (!impl_->healthy) return unavailable("cuda_backend: device unhealthy after " + impl_->last_error);
    PP_CUDA_TRY(cudaSetDevice(impl_->cfg.device));
    const auto t0 = clock::now();
    PP_ASSIGN_OR_RETURN(key_entry * k, impl_->prepare_locked(pk, cs));
    if (const auto d = clock::now() - t0; d > std::chrono::milliseconds(1)) p->timings.add("key upload", d);
    if (status st = impl_->run_partition(*k, w, *p); !st.ok()) {
      // A partition that failed after enqueuing work (say an MSM plan refused n) must not leave it
      // running on the staging buffer and workspace the next partition reuses: drain both streams.
      if (st.code() != status_code::internal) {
        const cudaError_t e1 = cudaStreamSynchronize(impl_->copy), e2 = cudaStreamSynchronize(impl_->compute);
        if (e1 != cudaSuccess || e2 != cudaSuccess) {
          (void)impl_->note(internal_error(std::string("CUDA error ") + cudaGetErrorName(e1 != cudaSuccess ? e1 : e2) +
                                     " while draining the streams after: " + st.message()));
        }
      }
      return impl_->note(std::move(st));
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

}  // namespace pp::cuda
