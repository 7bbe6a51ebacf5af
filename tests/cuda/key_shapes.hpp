// Key shapes and MSM chunkings the host tests of the VRAM plan share (key_layout_test,
// together_plan_test): PoRep at 2^27 (sizes of docs/perf/vram-budgets.md), the same scaled down,
// chunkings that scale like the GPU MSM's and the H200's own.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>

#include "cuda/plan/key_layout.hpp"
#include "cuda/plan/msm_plan.hpp"
#include "cuda/plan/msm_tuning.hpp"
#include "support/status_matchers.hpp"

namespace pp::cuda::test {

inline constexpr uint64_t gib = uint64_t{1} << 30;

// PoRep at 2^27: 130.3M constraints and variables, A 99.7% / B 25% of them.
inline key_shape porep27() {
  key_shape s;
  s.n = uint64_t{1} << 27;
  s.nv = 130'300'000;
  s.points = {s.n - 1, 130'200'000, 129'900'000, 32'600'000, 32'600'000};
  s.point_bytes = {96, 96, 96, 96, 192};
  // Compact matrices 4.54 GiB with a few thousand distinct coefficients; NTT tables ~2 GiB.
  s.matrices_bytes = uint64_t(4.54 * double(gib));
  s.matrix_tables_bytes = uint64_t{1} << 20;
  s.rows.chunk_bytes = s.rows.slot_bytes = uint64_t{256} << 20;
  s.rows.image_bytes = s.matrices_bytes - s.matrix_tables_bytes;
  // spmv_tuning's wider rows: half the chunks, so a little less padding in the image.
  s.wide_rows.chunk_bytes = s.wide_rows.slot_bytes = uint64_t{512} << 20;
  s.wide_rows.image_bytes = s.rows.image_bytes - 9 * 256;
  s.qap_bytes = 2 * gib;
  s.a_index_bytes = s.points[table_a] * 4;
  s.b_index_bytes = s.points[table_b_g1] * 4;
  s.witness_ws_bytes = gib / 2;
  s.h_in_turns = true;
  return s;
}

// The PoRep shape scaled down to a domain of 2^log_n (a WindowPoSt-sized key at 2^24).
inline key_shape porep_scaled(int log_n) {
  key_shape s = porep27();
  const uint64_t div = uint64_t{1} << (27 - log_n);
  s.n >>= 27 - log_n;
  s.nv /= div;
  for (int t = 0; t < key_table_count; ++t) s.points[t] = t == table_h ? s.n - 1 : s.points[t] / div;
  s.matrices_bytes /= div;
  s.matrix_tables_bytes = std::min(s.matrix_tables_bytes, s.matrices_bytes / 4);
  s.rows.chunk_bytes = s.rows.slot_bytes = std::min(s.rows.slot_bytes, s.matrices_bytes);
  s.rows.image_bytes = s.matrices_bytes - s.matrix_tables_bytes;
  s.wide_rows.chunk_bytes = s.wide_rows.slot_bytes = s.wide_rows.image_bytes = 0;
  s.qap_bytes /= div;
  s.a_index_bytes = s.points[table_a] * 4;
  s.b_index_bytes = s.points[table_b_g1] * 4;
  s.witness_ws_bytes /= div;
  return s;
}

// Workspaces that scale with the chunk as the GPU MSM's do (~80 B per G1 chunk point plus buckets).
inline std::vector<msm_chunking> options_for(uint64_t g1_top = uint64_t{1} << 25) {
  std::vector<msm_chunking> o;
  for (uint64_t c = g1_top; c >= 1024; c /= 2) o.push_back({c, c / 2, 80 * c + (uint64_t{64} << 20)});
  return o;
}

// The H200's chunkings as chunking_options makes them, sized by the MSM's own layout (msm_plan.hpp):
// G1 2^25 / G2 2^24 halving, the largest workspace of H's MSM and the split ones streamed, and a
// resident split table's larger one (its selection over all its points). CUB's temp storage is left
// out for G1 (the device's 2^27 lanes are within 0.02 GiB of these); for G2 it is taken as 6 bytes
// per sorted entry, what the G2 workspaces msm_tuning.hpp records (8.9 / 15.3 GiB at 2^24 /
// 2^25-point chunks) have beyond this layout.
inline std::vector<msm_chunking> h200_options(const key_shape& s) {
  const auto ws = [](uint64_t n, bool split, uint64_t chunk, uint64_t bucket, bool streamed) {
    const auto shape = make_msm_shape(n, 0, split, chunk, {}, msm_tuning_sm90, streamed);
    EXPECT_THAT(shape, IsOk());
    if (!shape.ok()) return uint64_t{0};
    const uint64_t temp = bucket == 384 ? 6 * shape->entries : 0;
    return make_msm_plan(*shape, bucket, temp, 0).layout.total;
  };
  std::vector<msm_chunking> o;
  for (int shift = 0; shift <= 4; ++shift) {
    msm_chunking m;
    m.g1_chunk = msm_tuning_sm90.max_chunk_points_g1 >> shift;
    m.g2_chunk = msm_tuning_sm90.max_chunk_points_g2 >> shift;
    uint64_t w = 0;
    for (int t = 0; t < key_table_count; ++t) {
      const bool g2 = t == table_b_g2;
      const uint64_t chunk = g2 ? m.g2_chunk : m.g1_chunk, bucket = g2 ? 384 : 192;
      const uint64_t streamed = ws(s.points[t], t != table_h, chunk, bucket, true);
      const uint64_t resident = ws(s.points[t], t != table_h, chunk, bucket, false);
      w = std::max(w, streamed);
      m.resident_workspace[t] = resident > streamed ? pad256(resident) : 0;
    }
    m.workspace_bytes = pad256(w);
    o.push_back(m);
  }
  return o;
}

}  // namespace pp::cuda::test
