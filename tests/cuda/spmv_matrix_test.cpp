// The compact SpMV matrices (src/cuda/plan/spmv_matrix.hpp) on the host, no GPU needed: decoding the
// words and table gives back every non-zero entry of the CSR in order (zeros dropped), for empty,
// tiny and random matrices whose coefficients are mostly +-1 with many distinct others (so every
// hash shard of the table dedup is used), and a PoRep-shaped synthetic system. Fresh seed per run.
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <set>
#include <vector>

#include "cuda/plan/spmv_matrix.hpp"
#include "r1cs/synthetic.hpp"
#include "support/status_matchers.hpp"
#include "support/test_seed.hpp"

namespace pp::cuda::test {
namespace {

using ff::fr;

// Decodes c row by row and compares with m's non-zero entries.
void expect_round_trip(const r1cs::csr_matrix& m, const compact_csr& c) {
  ASSERT_EQ(c.rows, m.rows());
  ASSERT_EQ(c.row_ptr.size(), m.rows() + 1);
  EXPECT_EQ(c.row_ptr.back(), c.words.size());
  std::set<std::vector<uint64_t>> distinct;  // the table holds each value once
  for (const fr_words& t : c.table) distinct.insert({t.l[0], t.l[1], t.l[2], t.l[3]});
  EXPECT_EQ(distinct.size(), c.table.size());
  for (std::size_t r = 0; r < m.rows(); ++r) {
    std::vector<std::pair<uint32_t, fr>> want, got;
    for (uint64_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
      if (!m.coeffs[k].is_zero()) want.emplace_back(m.cols[k], m.coeffs[k]);
    }
    for (uint32_t k = c.row_ptr[r]; k < c.row_ptr[r + 1]; ++k) {
      const uint32_t w = c.words[k];
      const uint32_t tag = w >> spmv_col_bits, col = w & spmv_col_mask;
      if (tag == spmv_tag_one) {
        got.emplace_back(col, fr::one());
      } else if (tag == spmv_tag_minus_one) {
        got.emplace_back(col, -fr::one());
      } else {
        ASSERT_EQ(tag, spmv_tag_table);
        ASSERT_LT(k + 1, c.row_ptr[r + 1]);
        ASSERT_LT(c.words[k + 1], c.table.size());
        got.emplace_back(col, c.table[c.words[++k]].as<fr>());
      }
    }
    ASSERT_EQ(got.size(), want.size()) << "row " << r;
    for (std::size_t i = 0; i < got.size(); ++i) {
      ASSERT_EQ(got[i].first, want[i].first) << "row " << r;
      ASSERT_TRUE(got[i].second == want[i].second) << "row " << r;
    }
  }
}

r1cs::csr_matrix random_matrix(std::size_t rows, uint64_t num_vars, std::mt19937_64& rng) {
  r1cs::csr_matrix m;
  uint64_t st = rng();
  std::vector<fr> pool;  // repeated "other" coefficients, so the dedup matters
  for (int i = 0; i < 50; ++i) pool.push_back(r1cs::random_fr(st));
  for (std::size_t r = 0; r < rows; ++r) {
    const int terms = int(rng() % 6);
    for (int t = 0; t < terms; ++t) {
      m.cols.push_back(uint32_t(rng() % num_vars));
      const unsigned kind = unsigned(rng() % 10);
      m.coeffs.push_back(kind < 5 ? fr::one() : kind == 5 ? -fr::one() : kind == 6 ? fr::zero()
                         : kind == 7 ? pool[rng() % pool.size()] : r1cs::random_fr(st));
    }
    m.row_ptr.push_back(m.cols.size());
  }
  return m;
}

TEST(CompactCsr, EmptyAndTiny) {
  r1cs::csr_matrix empty;
  auto c = make_compact_csr(empty);
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->rows, 0u);
  EXPECT_TRUE(c->words.empty());
  expect_round_trip(empty, *c);

  r1cs::csr_matrix one_row;  // 1, -1, 0 (dropped), 7, 7 again (one table entry)
  one_row.cols = {0, 1, 2, 3, 4};
  one_row.coeffs = {fr::one(), -fr::one(), fr::zero(), fr::from_uint(7), fr::from_uint(7)};
  one_row.row_ptr = {0, 5};
  c = make_compact_csr(one_row);
  ASSERT_THAT(c, IsOk());
  EXPECT_EQ(c->table.size(), 1u);
  EXPECT_EQ(c->words.size(), 6u);
  expect_round_trip(one_row, *c);
}

TEST(CompactCsr, RandomMatricesRoundTrip) {
  std::mt19937_64 rng(pp::test::test_seed());
  for (std::size_t rows : {1u, 2u, 3u, 1000u, 65535u, 65536u, 65537u, 300000u}) {
    SCOPED_TRACE(rows);
    const auto m = random_matrix(rows, 1 + rng() % 100000, rng);
    auto c = make_compact_csr(m);
    ASSERT_THAT(c, IsOk());
    expect_round_trip(m, *c);
  }
}

TEST(CompactCsr, PoRepShapedSystem) {
  auto sc = r1cs::make_synthetic(r1cs::synthetic_params::porep(200000, pp::test::test_seed()));
  ASSERT_THAT(sc, IsOk());
  auto c = make_compact_r1cs(sc->cs);
  ASSERT_THAT(c, IsOk());
  expect_round_trip(sc->cs.a(), c->m[0]);
  expect_round_trip(sc->cs.b(), c->m[1]);
  expect_round_trip(sc->cs.c(), c->m[2]);
  EXPECT_LT(c->device_bytes(), compact_r1cs::plain_bytes(sc->cs));
}

// Row chunks for streaming: every row of each matrix in exactly one chunk, in order; each chunk within
// the size asked for unless it is a single row; the image holds each chunk's rebased row pointers
// and its words as the device slot will; an empty matrix still gets one (empty) chunk.
void expect_chunks_cover(const compact_r1cs& c, uint64_t max_bytes) {
  auto k = make_spmv_chunking(c, max_bytes);
  ASSERT_THAT(k, IsOk());
  std::vector<std::byte> image(k->image_bytes);
  fill_spmv_image(c, *k, image.data());
  uint64_t next_row[3] = {0, 0, 0}, at = 0, tables = 0;
  int last_matrix = 0;
  for (const spmv_chunk& ch : k->chunks) {
    ASSERT_GE(ch.matrix, last_matrix);
    last_matrix = ch.matrix;
    const compact_csr& m = c.m[ch.matrix];
    ASSERT_EQ(ch.row0, next_row[ch.matrix]);
    next_row[ch.matrix] += ch.rows;
    EXPECT_EQ(ch.image_at, at);
    EXPECT_EQ(ch.image_at % 256, 0u);
    at += (ch.bytes + 255) / 256 * 256;
    EXPECT_TRUE(ch.bytes <= max_bytes || ch.rows == 1) << "a chunk of " << ch.bytes << " bytes, " << ch.rows << " rows";
    EXPECT_LE(ch.bytes, k->slot_bytes);
    const auto* rp = reinterpret_cast<const uint32_t*>(image.data() + ch.image_at);
    const auto* words = reinterpret_cast<const uint32_t*>(image.data() + ch.image_at + ch.words_at);
    ASSERT_EQ(rp[0], 0u);
    for (uint64_t r = 0; r < ch.rows; ++r) {
      const uint32_t first = m.row_ptr[ch.row0 + r];
      ASSERT_EQ(rp[r + 1] - rp[r], m.row_ptr[ch.row0 + r + 1] - first) << "row " << ch.row0 + r;
      for (uint32_t w = 0; w < rp[r + 1] - rp[r]; ++w) ASSERT_EQ(words[rp[r] + w], m.words[first + w]);
    }
    EXPECT_EQ(ch.bytes, ch.words_at + uint64_t(rp[ch.rows]) * 4);
  }
  EXPECT_EQ(at, k->image_bytes);
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(next_row[i], c.m[i].rows);
    tables += (c.m[i].table.size() * sizeof(fr_words) + 255) / 256 * 256;
  }
  EXPECT_EQ(k->tables_bytes, tables);
}

TEST(CompactCsr, RowChunksCoverEveryRow) {
  std::mt19937_64 rng(pp::test::test_seed());
  compact_r1cs empty;
  expect_chunks_cover(empty, 512);
  EXPECT_EQ(make_spmv_chunking(empty, 511).error().code(), status_code::invalid_argument);
  auto sc = r1cs::make_synthetic(r1cs::synthetic_params::porep(50000, rng()));
  ASSERT_THAT(sc, IsOk());
  auto c = make_compact_r1cs(sc->cs);
  ASSERT_THAT(c, IsOk());
  for (uint64_t bytes : {uint64_t{512}, uint64_t{4096} + rng() % 100000, uint64_t{1} << 30}) {
    SCOPED_TRACE(bytes);
    expect_chunks_cover(*c, bytes);
  }
  // A row longer than the chunk size gets a chunk of its own.
  compact_r1cs wide;
  auto m = random_matrix(100, 1000, rng);
  for (int t = 0; t < 400; ++t) {
    m.cols.push_back(uint32_t(t));
    m.coeffs.push_back(fr::one());
  }
  m.row_ptr.push_back(m.cols.size());
  auto wc = make_compact_csr(m);
  ASSERT_THAT(wc, IsOk());
  wide.num_constraints = wc->rows;
  wide.m[0] = std::move(wc).value();
  expect_chunks_cover(wide, 512);
}

TEST(CompactCsr, RefusesWideColumns) {
  r1cs::csr_matrix m;
  m.cols = {spmv_col_mask + 1};
  m.coeffs = {fr::one()};
  m.row_ptr = {0, 1};
  auto c = make_compact_csr(m);
  ASSERT_THAT(c, StatusIs(status_code::invalid_argument));
  EXPECT_NE(c.error().message().find("30 bits"), std::string::npos) << c.error().message();
}

}  // namespace
}  // namespace pp::cuda::test
