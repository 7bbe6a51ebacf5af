// key_sizing.hpp: a key's shape and MSM chunkings from sizes alone.
#include "cuda/plan/key_sizing.hpp"

#include <algorithm>
#include <bit>
#include <string>

#include "core/status_macros.hpp"
#include "cuda/plan/msm_tuning.hpp"
#include "cuda/plan/msm_workspace.hpp"
#include "cuda/plan/qap_tables.hpp"
#include "cuda/plan/witness_layout.hpp"
#include "ec/affine.hpp"
#include "groth16/qap.hpp"
#include "poly/domain.hpp"
#include "r1cs/density.hpp"

namespace pp::cuda {
namespace {

// A point's bytes per table: H, L, A and B_G1 are G1's, B_G2 is G2's.
std::array<uint64_t, key_table_count> point_bytes(const msm_group& g1, const msm_group& g2) {
  return {g1.point_bytes, g1.point_bytes, g1.point_bytes, g1.point_bytes, g2.point_bytes};
}

streamed_rows streamed_rows_of(const spmv_chunking& c, uint64_t chunk_bytes) {
  streamed_rows r{.chunk_bytes = chunk_bytes, .slot_bytes = c.slot_bytes};
  for (const spmv_chunk& ch : c.chunks) r.image_bytes += ch.bytes;
  return r;
}

}  // namespace

template <class Family>
key_sizes key_sizes::of(const groth16::basic_proving_key<Family>& pk) {
  using g1_affine = typename groth16::basic_proving_key<Family>::g1_affine;
  using g2_affine = typename groth16::basic_proving_key<Family>::g2_affine;
  constexpr msm_group g1 = msm_group_of<typename Family::g1_curve>();
  constexpr msm_group g2 = msm_group_of<typename Family::g2_curve>();
  static_assert(sizeof(g1_affine) == g1.point_bytes && sizeof(g2_affine) == g2.point_bytes);
  key_sizes k;
  k.g1 = g1;
  k.g2 = g2;
  k.domain = pk.domain_size;
  k.basis = pk.basis;
  k.points = {pk.h.size(), pk.l.size(), pk.a.size(), pk.b_g1.size(), pk.b_g2.size()};
  k.a_filtered = pk.a_density.has_value();
  k.b_filtered = pk.b_density.has_value();
  return k;
}

result<key_sizes> key_sizes::of_setup(const r1cs::constraint_system& cs, groth16::h_basis basis) {
  const uint64_t rows = groth16::qap_rows(cs);
  const uint64_t n = std::bit_ceil(rows);
  if (n > (uint64_t{1} << poly::evaluation_domain::max_log_n)) {
    return invalid_argument("the circuit needs a domain of " + std::to_string(n) + " rows (" + std::to_string(rows) +
                            " QAP rows), more than 2^" + std::to_string(poly::evaluation_domain::max_log_n));
  }
  key_sizes k;
  k.domain = n;
  k.basis = basis;
  const uint64_t nv = cs.num_variables();
  if (basis == groth16::h_basis::odd_coset_lagrange) {
    k.points = {n, cs.num_aux(), nv, nv, nv};
    return k;
  }
  // Every input has its input row in A: A's input bits are always set.
  const r1cs::column_density cd = r1cs::compute_density(cs);
  const uint64_t inputs = cs.num_public() + 1;
  const uint64_t a = inputs + cd.a.count(inputs, nv);
  const uint64_t b = cd.b.count();
  k.points = {n - 1, cs.num_aux(), a, b, b};
  k.a_filtered = k.b_filtered = true;
  return k;
}

template <class Fr>
result<key_shape> shape_key(const key_sizes& key, const r1cs::basic_constraint_system<Fr>& cs,
                            const compact_r1cs& compact, uint64_t staging_bytes, matrix_row_chunks rows,
                            uint32_t h_copies_max) {
  key_shape s;
  s.h_copies_max = std::max<uint32_t>(h_copies_max, 1);
  s.n = key.domain;
  if (!std::has_single_bit(s.n)) {
    return invalid_argument("proving key domain size " + std::to_string(s.n) + " is not a power of two");
  }
  const int log_n = std::countr_zero(s.n);
  s.nv = cs.num_variables();
  s.points = key.points;
  s.g1 = key.g1;
  s.g2 = key.g2;
  s.point_bytes = point_bytes(key.g1, key.g2);
  s.matrices_bytes = compact.device_bytes();
  PP_ASSIGN_OR_RETURN(const spmv_chunking mk, make_spmv_chunking(compact, rows.bytes));
  s.matrix_tables_bytes = mk.tables_bytes;
  s.rows = streamed_rows_of(mk, rows.bytes);
  if (rows.wide > rows.bytes) {
    PP_ASSIGN_OR_RETURN(const spmv_chunking wide, make_spmv_chunking(compact, rows.wide));
    if (wide.slot_bytes > mk.slot_bytes) s.wide_rows = streamed_rows_of(wide, rows.wide);
  }
  PP_ASSIGN_OR_RETURN(s.qap_bytes, qap_tables_bytes(log_n, key.basis));
  s.a_index_bytes = key.a_filtered ? key.points[table_a] * 4 : 0;
  s.b_index_bytes = key.b_filtered ? key.points[table_b_g1] * 4 : 0;
  // The packed witness never exceeds the staging buffer it is copied from (pack_witness refuses).
  s.witness_ws_bytes = std::min(compact_witness_layout::make(s.nv, s.nv).bytes, staging_bytes);
  s.h_in_turns = key.basis == groth16::h_basis::monomial;
  return s;
}

template <class Family>
result<key_shape> shape_key(const groth16::basic_proving_key<Family>& pk,
                            const r1cs::basic_constraint_system<typename Family::fr>& cs, const compact_r1cs& compact,
                            uint64_t staging_bytes, matrix_row_chunks rows, uint32_t h_copies_max) {
  return shape_key(key_sizes::of(pk), cs, compact, staging_bytes, rows, h_copies_max);
}

result<key_shape> shape_evaluation_key(const groth16::evaluation_request& req, uint64_t staging_bytes,
                                       uint32_t h_copies_max) {
  const groth16::proving_key& pk = *req.pk;
  key_shape s;
  s.h_copies_max = std::max<uint32_t>(h_copies_max, 1);
  s.n = pk.domain_size;
  if (!std::has_single_bit(s.n)) {
    return invalid_argument("shape_evaluation_key: the key's domain is not a power of two");
  }
  const int log_n = std::countr_zero(s.n);
  s.nv = req.inputs.size() + req.aux.size();
  if (s.nv > uint64_t{UINT32_MAX}) return invalid_argument("shape_evaluation_key: more than 2^32 variables");
  s.points = key_sizes::of(pk).points;
  s.point_bytes = point_bytes(s.g1, s.g2);
  PP_ASSIGN_OR_RETURN(s.qap_bytes, qap_tables_bytes(log_n, pk.basis));
  s.a_index_bytes = pk.a.size() * 4;
  s.b_index_bytes = pk.b_g1.size() * 4;
  // Only the aux values are packed (the inputs are copied as they are).
  s.witness_ws_bytes = std::min(compact_witness_layout::make(req.aux.size(), req.aux.size()).bytes, staging_bytes);
  s.h_in_turns = true;  // monomial (check_evaluation_request)
  return s;
}

result<std::vector<msm_chunking>> chunking_options(const key_shape& s, uint64_t max_g1_chunk) {
  std::vector<msm_chunking> out;
  for (int shift = 0; shift <= 15; ++shift) {
    msm_chunking m;
    m.g1_chunk = msm_tuning_sm90.max_chunk_points_g1 >> shift;
    m.g2_chunk = msm_tuning_sm90.max_chunk_points_g2 >> shift;
    if (max_g1_chunk != 0 && m.g1_chunk > max_g1_chunk) continue;
    uint64_t streamed = 0;
    for (int t = 0; t < key_table_count; ++t) {
      if (s.points[t] == 0 && t != table_h) continue;
      const bool g2 = t == table_b_g2, split = t != table_h;
      msm_config c{0, g2 ? m.g2_chunk : m.g1_chunk};
      PP_ASSIGN_OR_RETURN(const uint64_t resident, gpu_msm_workspace_bytes(s.points[t], split, c, g2 ? s.g2 : s.g1));
      c.streamed = true;
      PP_ASSIGN_OR_RETURN(const uint64_t w, gpu_msm_workspace_bytes(s.points[t], split, c, g2 ? s.g2 : s.g1));
      streamed = std::max(streamed, w);
      m.resident_workspace[t] = resident > w ? pad256(resident) : 0;
    }
    m.workspace_bytes = pad256(streamed);
    out.push_back(m);
  }
  if (out.empty()) return invalid_argument("chunking_options: a G1 chunk cap of " + std::to_string(max_g1_chunk));
  return out;
}

#define PP_KEY_SIZING_INSTANTIATE(Family)                                                                     \
  template key_sizes key_sizes::of(const groth16::basic_proving_key<Family>&);                                \
  template result<key_shape> shape_key(const key_sizes&, const r1cs::basic_constraint_system<Family::fr>&,    \
                                       const compact_r1cs&, uint64_t, matrix_row_chunks, uint32_t);           \
  template result<key_shape> shape_key(const groth16::basic_proving_key<Family>&,                             \
                                       const r1cs::basic_constraint_system<Family::fr>&, const compact_r1cs&, \
                                       uint64_t, matrix_row_chunks, uint32_t);
PP_KEY_SIZING_INSTANTIATE(ec::bls12_381::family)
PP_KEY_SIZING_INSTANTIATE(ec::bn254::family)
#undef PP_KEY_SIZING_INSTANTIATE

}  // namespace pp::cuda
