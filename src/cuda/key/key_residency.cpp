// key_residency.hpp: placing a key (resident copies, pinned host tables) and its gather lists.
#include "cuda/key/key_residency.hpp"

#include <algorithm>
#include <bit>
#include <chrono>
#include <string>

#include "core/cuda_try.hpp"
#include "core/log.hpp"
#include "core/status_macros.hpp"
#include "cuda/msm/msm_device.hpp"
#include "cuda/msm/msm_precompute.hpp"
#include "cuda/plan/msm_tuning.hpp"
#include "ec/bls12_381_curves.hpp"
#include "ec/bn254_curves.hpp"

namespace pp::cuda {
namespace {

// Variable indices of the set bits of a density bitmap: the gather list of a filtered query.
std::vector<uint32_t> density_indices(const groth16::density_bitmap& d) {
  std::vector<uint32_t> idx;
  idx.reserve(d.count());
  for (uint64_t i = 0; i < d.size; ++i) {
    if (d.get(i)) idx.push_back(uint32_t(i));
  }
  return idx;
}

bool bit(const groth16::density_bits& d, uint64_t i) { return (d.words[i >> 6] >> (i & 63)) & 1; }

// Appends offset + i for each set bit i of d.
void append_set(const groth16::density_bits& d, uint64_t offset, std::vector<uint32_t>& out) {
  for (uint64_t i = 0; i < d.bits; ++i) {
    if (bit(d, i)) out.push_back(uint32_t(offset + i));
  }
}

// FNV-1a: the key fingerprint's hashes start at fnv_offset and take in the bytes of each value.
constexpr uint64_t fnv_offset = 0xcbf29ce484222325ull;
template <class T>
uint64_t hash_bytes(uint64_t h, const T& x) {
  const auto* p = reinterpret_cast<const unsigned char*>(&x);
  for (std::size_t i = 0; i < sizeof(T); ++i) {
    h ^= p[i];
    h *= 0x100000001b3ull;
  }
  return h;
}

// Over the bit count and the words (bits past d.bits masked off).
uint64_t hash_bits(uint64_t h, const groth16::density_bits& d) {
  h = hash_bytes(h, d.bits);
  const uint64_t full = d.bits / 64;
  for (uint64_t w = 0; w < full; ++w) h = hash_bytes(h, d.words[w]);
  if (d.bits % 64 != 0) h = hash_bytes(h, d.words[full] & ((uint64_t{1} << (d.bits % 64)) - 1));
  return h;
}

template <class T>
status upload_vector(void* d, const std::vector<T>& v, cudaStream_t stream) {
  if (v.empty()) return ok_status();
  PP_CUDA_TRY(cudaMemcpyAsync(d, v.data(), v.size() * sizeof(T), cudaMemcpyHostToDevice, stream));
  return ok_status();
}


// The points that tell a key from another of the same sizes: H's first, L's last, delta_1.
template <class Family>
uint64_t key_points_hash(const groth16::basic_proving_key<Family>& pk) {
  uint64_t h = fnv_offset;
  for (const char* c = Family::name; *c != 0; ++c) h = hash_bytes(h, *c);
  if (!pk.h.empty()) h = hash_bytes(h, pk.h.front());
  if (!pk.l.empty()) h = hash_bytes(h, pk.l.back());
  return hash_bytes(h, pk.vk.delta_g1);
}

}  // namespace

template <class Family>
key_fingerprint key_fingerprint::of(const groth16::basic_proving_key<Family>& pk,
                                    const r1cs::basic_constraint_system<typename Family::fr>& cs) {
  key_fingerprint f;
  f.pk = &pk;
  f.cs = &cs;
  f.n_vars = pk.n_vars;
  f.domain = pk.domain_size;
  f.nh = pk.h.size();
  f.nl = pk.l.size();
  f.constraints = cs.num_constraints();
  f.basis = pk.basis;
  f.points = key_points_hash(pk);
  return f;
}

key_fingerprint key_fingerprint::of_evaluations(const groth16::evaluation_request& req) {
  const groth16::proving_key& pk = *req.pk;
  key_fingerprint f;
  f.pk = &pk;
  f.n_vars = req.inputs.size() + req.aux.size();
  f.domain = pk.domain_size;
  f.nh = pk.h.size();
  f.nl = pk.l.size();
  f.basis = pk.basis;
  f.points = key_points_hash(pk);
  uint64_t h = fnv_offset;
  for (const groth16::density_bits* d : {&req.a_aux, &req.b_inputs, &req.b_aux}) h = hash_bits(h, *d);
  f.densities = h;
  return f;
}

template <class Family>
gather_lists gather_lists::of(const groth16::basic_proving_key<Family>& pk) {
  gather_lists g;
  if (pk.a_density) g.a = density_indices(*pk.a_density);
  if (pk.b_density) g.b = density_indices(*pk.b_density);
  return g;
}

gather_lists gather_lists::of(const groth16::evaluation_request& req) {
  gather_lists g;
  const uint64_t ni = req.inputs.size();
  g.a.reserve(req.pk->a.size());
  for (uint64_t i = 0; i < ni; ++i) g.a.push_back(uint32_t(i));
  append_set(req.a_aux, ni, g.a);
  g.b.reserve(req.pk->b_g1.size());
  append_set(req.b_inputs, 0, g.b);
  append_set(req.b_aux, ni, g.b);
  return g;
}

template <class G1>
result<msm_precomputation> h_precomputation(uint64_t n, uint32_t copies, const msm_chunking& m) {
  PP_ASSIGN_OR_RETURN(const msm_precomputation model, make_msm_precomputation(n, copies));
  if (model.groups < 2) return model;
  const int narrowest = msm_window_bits(std::min(n, m.g1_chunk));
  for (int c = model.window_bits; c >= narrowest; --c) {
    PP_ASSIGN_OR_RETURN(const msm_precomputation pre, make_msm_precomputation(n, copies, c));
    if (pre.groups < 2) continue;
    const auto ws = msm_workspace_bytes<G1>(n, msm_config{0, m.g1_chunk, pre});
    if (ws.ok() && *ws <= m.workspace_bytes) return pre;
  }
  return internal_error("h_precomputation: no width from " + std::to_string(narrowest) + " to " +
                        std::to_string(model.window_bits) + " fits H's MSM over " + std::to_string(copies) +
                        " copies in the plan's workspace of " + std::to_string(m.workspace_bytes) + " bytes");
}

template <class Family>
status upload_key(key_entry& k, const groth16::basic_proving_key<Family>& pk, const compact_r1cs* compact,
                  const gather_lists& gather, void* d_region, cudaStream_t copy, pinned_chunk_copier& staging,
                  const workspace_span& lanes, uint64_t pin_budget) {
  const auto t0 = std::chrono::steady_clock::now();
  const auto since = [](std::chrono::steady_clock::time_point t) {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t).count();
  };
  // Pins [p, p + bytes) while the key stays inside pin_budget, else says why it does not.
  const auto pin = [&](const void* p, uint64_t bytes) -> result<pinned_range> {
    if (k.pinned_bytes + bytes > pin_budget) {
      return resource_exhausted("the backend may pin " +
                                std::to_string(pin_budget - std::min(pin_budget, k.pinned_bytes)) +
                                " more bytes (cuda_backend_config::max_pinned_bytes, pin_streamed)");
    }
    auto r = pinned_range::pin(p, bytes);
    if (r.ok()) k.pinned_bytes += bytes;
    return r;
  };
  if (lanes.count == 0 || lanes.stride < k.plan.lane.bytes) {
    return internal_error("upload_key: " + std::to_string(lanes.count) + " workspaces of " +
                          std::to_string(lanes.stride) + " bytes for a lane layout of " +
                          std::to_string(k.plan.lane.bytes));
  }
  const key_shape& s = k.shape;
  const key_plan& p = k.plan;
  char* const base = static_cast<char*>(d_region) + k.base;
  const void* host[key_table_count] = {pk.h.data(), pk.l.data(), pk.a.data(), pk.b_g1.data(), pk.b_g2.data()};
  uint64_t resident_bytes = 0;
  for (int t = 0; t < key_table_count; ++t) {
    const uint64_t bytes = s.table_bytes(t);
    if (p.resident[t]) {
      char* d = base + p.table_offset[t];
      if (bytes != 0) PP_RETURN_IF_ERROR(staging.copy_to_device(d, host[t], bytes, copy));
      resident_bytes += bytes;
      k.points[t] = d;
      continue;
    }
    k.points[t] = host[t];
    if (bytes == 0) continue;
    result<pinned_range> pinned = pin(host[t], bytes);
    if (pinned.ok()) {
      k.pins[t] = std::move(pinned).value();
    } else {
      k.pinned = false;
      log::get("cuda")->warn("streaming {} ({} bytes) from pageable memory, several times slower: {}",
                             key_table_names[t], bytes, pinned.error().message());
    }
  }
  PP_CUDA_TRY(cudaStreamSynchronize(copy));  // setup only
  const double t_points = since(t0);
  if (p.h_copies > 1 && p.resident[table_h] && s.points[table_h] > 0) {
    const auto th = std::chrono::steady_clock::now();
    using g1_curve = typename Family::g1_curve;
    PP_ASSIGN_OR_RETURN(k.h_pre, h_precomputation<g1_curve>(s.points[table_h], p.h_copies, p.msm));
    auto* d_h = reinterpret_cast<ec::affine<g1_curve>*>(base + p.table_offset[table_h]);
    PP_RETURN_IF_ERROR(precompute_msm_bases<g1_curve>(d_h, s.points[table_h], k.h_pre, copy));
    PP_CUDA_TRY(cudaStreamSynchronize(copy));  // setup only
    log::get("cuda")->info("key upload: {} precomputed copies of H's points (c = {}, {} bucket windows) in {:.3f} s",
                           k.h_pre.groups - 1, k.h_pre.window_bits, k.h_pre.group_windows, since(th));
  }
  const auto t1 = std::chrono::steady_clock::now();
  // An evaluation key (compact null) has no SpMV.
  if (compact != nullptr && p.matrices_resident) {
    PP_ASSIGN_OR_RETURN(k.matrices, upload_r1cs(*compact, base + p.matrices_offset, s.matrices_bytes, copy));
  } else if (compact != nullptr) {
    PP_ASSIGN_OR_RETURN(k.matrix_chunks, make_spmv_chunking(*compact, p.matrix_chunk_bytes(s)));
    if (k.matrix_chunks.slot_bytes > p.matrix_slot_bytes) {
      return internal_error("upload_key: matrix chunks of " + std::to_string(k.matrix_chunks.slot_bytes) +
                            " bytes, slots of " + std::to_string(p.matrix_slot_bytes));
    }
    PP_ASSIGN_OR_RETURN(k.matrices, upload_r1cs_tables(*compact, k.matrix_chunks, base + p.matrices_offset,
                                                       s.matrix_tables_bytes, copy));
    k.matrix_image.reset(new std::byte[k.matrix_chunks.image_bytes]);
    fill_spmv_image(*compact, k.matrix_chunks, k.matrix_image.get());
    result<pinned_range> pinned = pin(k.matrix_image.get(), k.matrix_chunks.image_bytes);
    if (pinned.ok()) {
      k.matrix_pin = std::move(pinned).value();
    } else {
      k.pinned = false;
      log::get("cuda")->warn("streaming the matrices ({} bytes) from pageable memory, several times slower: {}",
                             k.matrix_chunks.image_bytes, pinned.error().message());
    }
  }
  using device_qap_of_key = basic_device_qap<typename Family::fr>;
  PP_ASSIGN_OR_RETURN(device_qap_of_key qap, device_qap_of_key::create(std::countr_zero(s.n), pk.basis,
                                                                       base + p.qap_offset, s.qap_bytes, copy));
  k.qap = qap;
  // The variable indices of a filtered A / B query (bellperson's density bitmaps).
  const auto upload_list = [&](const std::vector<uint32_t>& idx, uint64_t offset, uint64_t room,
                               const uint32_t*& d_idx) -> status {
    if (idx.empty()) return ok_status();
    if (idx.size() * 4 > room) {
      return internal_error("upload_key: a gather list of " + std::to_string(idx.size()) + " indices, room for " +
                            std::to_string(room / 4));
    }
    PP_RETURN_IF_ERROR(upload_vector(base + offset, idx, copy));
    d_idx = reinterpret_cast<const uint32_t*>(base + offset);
    return ok_status();
  };
  PP_RETURN_IF_ERROR(upload_list(gather.a, p.a_index_offset, s.a_index_bytes, k.d_a_idx));
  PP_RETURN_IF_ERROR(upload_list(gather.b, p.b_index_offset, s.b_index_bytes, k.d_b_idx));
  PP_CUDA_TRY(cudaStreamSynchronize(copy));  // the caller's lists may die after this
  log::get("cuda")->info("key upload: {:.2f} GiB of resident points in {:.3f} s (pinned chunks), pins, matrices{}, "
                         "NTT tables and gather lists in {:.3f} s",
                         double(resident_bytes) / double(uint64_t{1} << 30), t_points,
                         k.matrix_chunks.chunks.empty()
                             ? std::string()
                             : " (" + std::to_string(k.matrix_chunks.chunks.size()) + " row chunks of at most " +
                                   std::to_string(p.matrix_chunk_bytes(s) >> 20) + " MiB)",
                         since(t1));
  k.ws.resize(lanes.count);
  for (uint32_t i = 0; i < lanes.count; ++i) {
    char* const w = static_cast<char*>(d_region) + lanes.offset + uint64_t{i} * lanes.stride;
    const lane_layout& l = p.lane;
    partition_workspace& pw = k.ws[i];
    pw.d_w = w + l.w;
    pw.d_scalars = w + l.scalars;
    pw.d_b = w + l.b;
    pw.d_c = w + l.c;
    pw.d_witness_ws = w + l.witness_ws;
    pw.d_msm_ws = w + l.msm_ws;
    if (p.slot_bytes != 0) {
      for (int s = 0; s < l.slots; ++s) pw.d_slot[s] = w + l.slot[s];
    }
    if (p.matrix_slot_bytes != 0) {
      pw.d_mslot[0] = w + l.mslot[0];
      pw.d_mslot[1] = w + l.mslot[1];
    }
  }
  return ok_status();
}

#define PP_KEY_RESIDENCY_INSTANTIATE(Family)                                                                       \
  template key_fingerprint key_fingerprint::of(const groth16::basic_proving_key<Family>&,                          \
                                               const r1cs::basic_constraint_system<Family::fr>&);                  \
  template gather_lists gather_lists::of(const groth16::basic_proving_key<Family>&);                               \
  template result<msm_precomputation> h_precomputation<Family::g1_curve>(uint64_t, uint32_t, const msm_chunking&); \
  template status upload_key(key_entry&, const groth16::basic_proving_key<Family>&, const compact_r1cs*,           \
                             const gather_lists&, void*, cudaStream_t, pinned_chunk_copier&,                       \
                             const workspace_span&, uint64_t);
PP_KEY_RESIDENCY_INSTANTIATE(ec::bls12_381::family)
PP_KEY_RESIDENCY_INSTANTIATE(ec::bn254::family)
#undef PP_KEY_RESIDENCY_INSTANTIATE

}  // namespace pp::cuda
