// A key's sizes and shape for the VRAM plan (src/cuda/plan/key_sizing.hpp) on the host: the sizes of the
// key the insecure setup would make, worked out without making it, equal those of the key it makes
// (both layouts, PoRep-shaped circuits whose B column density leaves points out); the shape from
// those sizes equals the shape from the key; the shape's two row chunkings of the matrices; the QAP
// tables' bytes; the MSM chunkings halve from the tuning's and their workspaces shrink with them.
#include <gtest/gtest.h>

#include <cstdint>

#include "cuda/plan/key_sizing.hpp"
#include "cuda/plan/msm_tuning.hpp"
#include "cuda/plan/qap_tables.hpp"
#include "support/groth16_fixtures.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

using groth16::h_basis;

void expect_same_shape(const key_shape& a, const key_shape& b) {
  EXPECT_EQ(a.n, b.n);
  EXPECT_EQ(a.nv, b.nv);
  EXPECT_EQ(a.points, b.points);
  EXPECT_EQ(a.point_bytes, b.point_bytes);
  EXPECT_EQ(a.matrices_bytes, b.matrices_bytes);
  EXPECT_EQ(a.matrix_tables_bytes, b.matrix_tables_bytes);
  EXPECT_EQ(a.rows.slot_bytes, b.rows.slot_bytes);
  EXPECT_EQ(a.rows.image_bytes, b.rows.image_bytes);
  EXPECT_EQ(a.rows.chunk_bytes, b.rows.chunk_bytes);
  EXPECT_EQ(a.wide_rows.chunk_bytes, b.wide_rows.chunk_bytes);
  EXPECT_EQ(a.wide_rows.slot_bytes, b.wide_rows.slot_bytes);
  EXPECT_EQ(a.wide_rows.image_bytes, b.wide_rows.image_bytes);
  EXPECT_EQ(a.qap_bytes, b.qap_bytes);
  EXPECT_EQ(a.a_index_bytes, b.a_index_bytes);
  EXPECT_EQ(a.b_index_bytes, b.b_index_bytes);
  EXPECT_EQ(a.witness_ws_bytes, b.witness_ws_bytes);
  EXPECT_EQ(a.h_in_turns, b.h_in_turns);
  EXPECT_EQ(a.h_copies_max, b.h_copies_max);
}

TEST(KeySizing, SizesOfTheSetupKeyWithoutMakingIt) {
  const uint64_t seed = pp::test::test_seed();
  for (const h_basis basis : {h_basis::monomial, h_basis::odd_coset_lagrange}) {
    for (const uint64_t constraints : {uint64_t{1000}, uint64_t{3000}, uint64_t{4090}}) {
      SCOPED_TRACE(std::to_string(constraints) + (basis == h_basis::monomial ? " monomial" : " snarkjs"));
      const auto inst = pp::test::make_keyed_circuit(r1cs::synthetic_params::porep(constraints, seed % 1000 + constraints),
                                                     basis, seed + 1);
      ASSERT_NE(inst, nullptr);
      const key_sizes want = key_sizes::of(inst->pk);
      const auto got = key_sizes::of_setup(inst->circuit.cs, basis);
      ASSERT_THAT(got, IsOk());
      EXPECT_EQ(got->domain, want.domain);
      EXPECT_EQ(got->basis, want.basis);
      EXPECT_EQ(got->points, want.points);
      EXPECT_EQ(got->a_filtered, want.a_filtered);
      EXPECT_EQ(got->b_filtered, want.b_filtered);
      if (basis == h_basis::monomial) {
        EXPECT_LT(want.points[table_b_g1], inst->circuit.cs.num_variables());
      }

      const auto compact = make_compact_r1cs(inst->circuit.cs);
      ASSERT_THAT(compact, IsOk());
      const auto from_key = shape_key(inst->pk, inst->circuit.cs, *compact, uint64_t{1} << 20, {4096, 16384}, 2);
      const auto from_sizes = shape_key(*got, inst->circuit.cs, *compact, uint64_t{1} << 20, {4096, 16384}, 2);
      ASSERT_THAT(from_key, IsOk());
      ASSERT_THAT(from_sizes, IsOk());
      expect_same_shape(*from_key, *from_sizes);
    }
  }
}

// The shape carries the matrices' row chunks at both sizes, each as make_spmv_chunking makes them; a
// wider size whose largest chunk is no larger (or the same size) gives no wider chunking.
TEST(KeySizing, BothRowChunkingsOfTheMatrices) {
  const uint64_t seed = pp::test::test_seed();
  const auto inst = pp::test::make_keyed_circuit(r1cs::synthetic_params::porep(3000, seed % 1000), h_basis::monomial,
                                                 seed + 1);
  ASSERT_NE(inst, nullptr);
  const auto compact = make_compact_r1cs(inst->circuit.cs);
  ASSERT_THAT(compact, IsOk());
  const auto image = [](const spmv_chunking& k) {
    uint64_t b = 0;
    for (const spmv_chunk& ch : k.chunks) b += ch.bytes;
    return b;
  };
  const auto narrow = make_spmv_chunking(*compact, 4096);
  const auto wide = make_spmv_chunking(*compact, 16384);
  ASSERT_THAT(narrow, IsOk());
  ASSERT_THAT(wide, IsOk());
  ASSERT_GT(wide->slot_bytes, narrow->slot_bytes);
  ASSERT_LT(wide->chunks.size(), narrow->chunks.size());

  const auto s = shape_key(inst->pk, inst->circuit.cs, *compact, uint64_t{1} << 20, {4096, 16384}, 1);
  ASSERT_THAT(s, IsOk());
  EXPECT_EQ(s->rows.chunk_bytes, 4096u);
  EXPECT_EQ(s->rows.slot_bytes, narrow->slot_bytes);
  EXPECT_EQ(s->rows.image_bytes, image(*narrow));
  EXPECT_EQ(s->wide_rows.chunk_bytes, 16384u);
  EXPECT_EQ(s->wide_rows.slot_bytes, wide->slot_bytes);
  EXPECT_EQ(s->wide_rows.image_bytes, image(*wide));

  for (const matrix_row_chunks one : {matrix_row_chunks{4096, 4096}, matrix_row_chunks{compact->device_bytes() * 2,
                                                                                     compact->device_bytes() * 4}}) {
    const auto t = shape_key(inst->pk, inst->circuit.cs, *compact, uint64_t{1} << 20, one, 1);
    ASSERT_THAT(t, IsOk());
    EXPECT_EQ(t->wide_rows.chunk_bytes, 0u);
    EXPECT_EQ(t->wide_rows.slot_bytes, 0u);
    EXPECT_EQ(t->wide_rows.image_bytes, 0u);
  }
}

// The NTT tables (n/2 + 1 twiddles, five coset tables of 2^12 and n / 2^12 entries, each 256-aligned)
// and, for snarkjs, omega_2n's powers in two levels.
TEST(KeySizing, QapTablesBytes) {
  const uint64_t n = uint64_t{1} << 20;
  const uint64_t ntt = (n / 2 + 1) * 32 + 224 + 2 * 4096 * 32 + 3 * (n >> 12) * 32;
  const auto monomial = qap_tables_bytes(20, h_basis::monomial);
  ASSERT_THAT(monomial, IsOk());
  EXPECT_EQ(*monomial, ntt);
  const auto snarkjs = qap_tables_bytes(20, h_basis::odd_coset_lagrange);
  ASSERT_THAT(snarkjs, IsOk());
  EXPECT_EQ(*snarkjs, ntt + 2 * 1024 * 32);
  EXPECT_THAT(qap_tables_bytes(29, h_basis::monomial), StatusIs(status_code::invalid_argument));
}

TEST(KeySizing, ChunkingsHalveAndTheirWorkspacesShrink) {
  key_shape s;
  s.points = {(uint64_t{1} << 22) - 1, uint64_t{1} << 22, uint64_t{1} << 22, uint64_t{1} << 20, uint64_t{1} << 20};
  const auto all = chunking_options(s, 0);
  ASSERT_THAT(all, IsOk());
  ASSERT_EQ(all->size(), 16u);
  EXPECT_EQ(all->front().g1_chunk, msm_tuning_sm90.max_chunk_points_g1);
  EXPECT_EQ(all->back().g1_chunk, uint64_t{1} << 10);
  for (size_t i = 1; i < all->size(); ++i) {
    EXPECT_EQ((*all)[i].g1_chunk * 2, (*all)[i - 1].g1_chunk);
    EXPECT_EQ((*all)[i].g2_chunk * 2, (*all)[i - 1].g2_chunk);
    EXPECT_LE((*all)[i].workspace_bytes, (*all)[i - 1].workspace_bytes);
    EXPECT_EQ((*all)[i].workspace_bytes % 256, 0u);
  }
  const auto capped = chunking_options(s, uint64_t{1} << 16);
  ASSERT_THAT(capped, IsOk());
  EXPECT_EQ(capped->front().g1_chunk, uint64_t{1} << 16);
  EXPECT_THAT(chunking_options(s, 512), StatusIs(status_code::invalid_argument));
}

}  // namespace
}  // namespace pp::cuda::test
