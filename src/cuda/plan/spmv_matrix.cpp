// Host-side construction of the compact SpMV matrices (spmv_matrix.hpp).
#include "cuda/plan/spmv_matrix.hpp"

#include <tbb/parallel_for.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <string>
#include <unordered_map>

namespace pp::cuda {
namespace {

uint64_t pad256(uint64_t b) { return (b + 255) / 256 * 256; }

using fr_key = fr_words;
struct fr_key_hash {
  std::size_t operator()(const fr_key& k) const {
    uint64_t h = k.l[0] * 0x9e3779b97f4a7c15ull ^ k.l[1];
    h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull ^ k.l[2];
    h = (h ^ (h >> 32)) * 0x94d049bb133111ebull ^ k.l[3];
    return std::size_t(h ^ (h >> 31));
  }
};

}  // namespace

uint64_t compact_csr::device_bytes() const {
  return pad256(row_ptr.size() * 4) + pad256(words.size() * 4) + pad256(table.size() * sizeof(fr_words));
}

uint64_t compact_r1cs::device_bytes() const { return m[0].device_bytes() + m[1].device_bytes() + m[2].device_bytes(); }

template <class Fr>
uint64_t compact_r1cs::plain_bytes(const r1cs::basic_constraint_system<Fr>& cs) {
  uint64_t b = 0;
  for (const auto* x : {&cs.a(), &cs.b(), &cs.c()}) b += x->row_ptr.size() * 8 + x->nnz() * (4 + sizeof(Fr));
  return b;
}

// Parallel passes over row blocks (PoRep's 130M rows must not take minutes): words per row and
// each block's distinct table coefficients, split into hash shards; one dedup per shard in
// parallel (a table of ~10^8 distinct values deduped in one map took minutes); a prefix sum; the
// fill. Table order: shard by shard, first appearance within a shard.
template <class Fr>
result<compact_csr> make_compact_csr(const r1cs::basic_csr_matrix<Fr>& m) {
  compact_csr out;
  out.rows = m.rows();
  const Fr one = Fr::one(), minus_one = -Fr::one();
  auto key_of = [](const Fr& c) {
    fr_key key;
    std::memcpy(key.l, c.l, sizeof(key.l));
    return key;
  };
  constexpr std::size_t shards = 64;
  const fr_key_hash hasher;
  auto shard_of = [&](const fr_key& k) { return (hasher(k) >> 7) % shards; };
  const std::size_t rows = m.rows();
  constexpr std::size_t block = std::size_t{1} << 16;
  const std::size_t blocks = (rows + block - 1) / block;
  std::vector<uint64_t> block_words(blocks, 0);
  std::vector<std::array<std::vector<fr_key>, shards>> block_keys(blocks);  // distinct within the block
  std::atomic<uint64_t> bad_col{UINT64_MAX};
  std::vector<uint32_t> row_words(rows + 1, 0);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    std::unordered_map<fr_key, uint32_t, fr_key_hash> seen;
    uint64_t words = 0;
    for (std::size_t r = b * block; r < std::min(rows, (b + 1) * block); ++r) {
      uint32_t w = 0;
      for (uint64_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
        if (m.cols[k] > spmv_col_mask) bad_col.store(m.cols[k]);
        const Fr& c = m.coeffs[k];
        if (c.is_zero()) continue;
        if (c == one || c == minus_one) {
          w += 1;
        } else {
          w += 2;
          const fr_key key = key_of(c);
          if (seen.try_emplace(key, 0).second) block_keys[b][shard_of(key)].push_back(key);
        }
      }
      row_words[r] = w;
      words += w;
    }
    block_words[b] = words;
  });
  if (const uint64_t col = bad_col.load(); col != UINT64_MAX) {
    return invalid_argument("compact SpMV matrix: column " + std::to_string(col) + " needs more than " +
                            std::to_string(spmv_col_bits) + " bits");
  }
  uint64_t total = 0;
  for (uint64_t w : block_words) total += w;
  if (total >= (uint64_t{1} << 32)) {
    return unimplemented("compact SpMV matrix: " + std::to_string(total) + " words, 2^32 or more (32-bit row pointers)");
  }
  // One map per shard, filled in parallel with shard-local indices; then the shards' offsets.
  std::array<std::unordered_map<fr_key, uint32_t, fr_key_hash>, shards> index;
  std::array<std::vector<fr_key>, shards> shard_table;
  tbb::parallel_for(std::size_t{0}, shards, [&](std::size_t sh) {
    for (auto& bk : block_keys) {
      for (const fr_key& key : bk[sh]) {
        if (index[sh].try_emplace(key, uint32_t(shard_table[sh].size())).second) shard_table[sh].push_back(key);
      }
      std::vector<fr_key>().swap(bk[sh]);
    }
  });
  std::array<uint32_t, shards> shard_offset{};
  uint64_t table_size = 0;
  for (std::size_t sh = 0; sh < shards; ++sh) {
    shard_offset[sh] = uint32_t(table_size);
    table_size += shard_table[sh].size();
  }
  out.table.resize(table_size);
  tbb::parallel_for(std::size_t{0}, shards, [&](std::size_t sh) {
    for (std::size_t i = 0; i < shard_table[sh].size(); ++i) {
      out.table[shard_offset[sh] + i] = shard_table[sh][i];
    }
  });
  // Exclusive prefix sum of the row word counts, in place (row_words[r] becomes the row's offset).
  uint32_t acc = 0;
  for (std::size_t r = 0; r <= rows; ++r) {
    const uint32_t w = row_words[r];
    row_words[r] = acc;
    acc += w;
  }
  out.words.resize(total);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    for (std::size_t r = b * block; r < std::min(rows, (b + 1) * block); ++r) {
      uint32_t* w = out.words.data() + row_words[r];
      for (uint64_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
        const uint32_t col = m.cols[k];
        const Fr& c = m.coeffs[k];
        if (c.is_zero()) continue;
        if (c == one) {
          *w++ = col;
        } else if (c == minus_one) {
          *w++ = col | (spmv_tag_minus_one << spmv_col_bits);
        } else {
          const fr_key key = key_of(c);
          const std::size_t sh = shard_of(key);
          *w++ = col | (spmv_tag_table << spmv_col_bits);
          *w++ = shard_offset[sh] + index[sh].find(key)->second;  // concurrent reads of maps no one writes
        }
      }
    }
  });
  out.row_ptr = std::move(row_words);
  return out;
}

template <class Fr>
result<compact_r1cs> make_compact_r1cs(const r1cs::basic_constraint_system<Fr>& cs) {
  if (cs.num_variables() > spmv_max_variables) {
    return invalid_argument("compact SpMV matrices: " + std::to_string(cs.num_variables()) +
                            " variables, at most 2^30 supported");
  }
  compact_r1cs out;
  out.num_constraints = cs.num_constraints();
  out.num_variables = cs.num_variables();
  const r1cs::basic_csr_matrix<Fr>* ms[3] = {&cs.a(), &cs.b(), &cs.c()};
  for (int i = 0; i < 3; ++i) {
    auto c = make_compact_csr(*ms[i]);
    if (!c.ok()) return std::move(c).take_status();
    out.m[i] = std::move(c).value();
  }
  return out;
}

result<spmv_chunking> make_spmv_chunking(const compact_r1cs& c, uint64_t max_chunk_bytes) {
  if (max_chunk_bytes < 512) {
    return invalid_argument("make_spmv_chunking: chunks of " + std::to_string(max_chunk_bytes) +
                            " bytes, expected at least 512");
  }
  spmv_chunking k;
  const auto chunk_bytes = [](const compact_csr& m, uint64_t r0, uint64_t r1) {
    return pad256((r1 - r0 + 1) * 4) + uint64_t(m.row_ptr[r1] - m.row_ptr[r0]) * 4;
  };
  const auto add = [&](int which, const compact_csr& m, uint64_t r0, uint64_t r1) {
    spmv_chunk ch;
    ch.matrix = which;
    ch.row0 = r0;
    ch.rows = r1 - r0;
    ch.words_at = pad256((ch.rows + 1) * 4);
    ch.bytes = chunk_bytes(m, r0, r1);
    ch.image_at = k.image_bytes;
    k.image_bytes += pad256(ch.bytes);
    k.slot_bytes = std::max(k.slot_bytes, pad256(ch.bytes));
    k.chunks.push_back(ch);
  };
  for (int i = 0; i < 3; ++i) {
    const compact_csr& m = c.m[i];
    k.tables_bytes += pad256(m.table.size() * sizeof(fr_words));
    uint64_t r0 = 0;
    do {
      // The most rows from r0 whose chunk fits (at least one row): a binary search on the monotone size.
      uint64_t lo = std::min(r0 + 1, m.rows), hi = m.rows;
      while (lo < hi) {
        const uint64_t mid = lo + (hi - lo + 1) / 2;
        if (chunk_bytes(m, r0, mid) <= max_chunk_bytes) {
          lo = mid;
        } else {
          hi = mid - 1;
        }
      }
      add(i, m, r0, lo);
      r0 = lo;
    } while (r0 < m.rows);
  }
  return k;
}

void fill_spmv_image(const compact_r1cs& c, const spmv_chunking& k, std::byte* image) {
  tbb::parallel_for(std::size_t{0}, k.chunks.size(), [&](std::size_t i) {
    const spmv_chunk& ch = k.chunks[i];
    const compact_csr& m = c.m[ch.matrix];
    auto* rp = reinterpret_cast<uint32_t*>(image + ch.image_at);
    const uint32_t first = m.row_ptr[ch.row0];
    for (uint64_t r = 0; r <= ch.rows; ++r) rp[r] = m.row_ptr[ch.row0 + r] - first;
    const uint64_t words = uint64_t(m.row_ptr[ch.row0 + ch.rows] - first);
    if (words != 0) std::memcpy(image + ch.image_at + ch.words_at, m.words.data() + first, words * 4);
  });
}

#define PP_SPMV_MATRIX_INSTANTIATE(F)                                                   \
  template uint64_t compact_r1cs::plain_bytes(const r1cs::basic_constraint_system<F>&); \
  template result<compact_csr> make_compact_csr(const r1cs::basic_csr_matrix<F>&);      \
  template result<compact_r1cs> make_compact_r1cs(const r1cs::basic_constraint_system<F>&);
PP_SPMV_MATRIX_INSTANTIATE(ff::fr)
PP_SPMV_MATRIX_INSTANTIATE(ff::bn254::fr)
#undef PP_SPMV_MATRIX_INSTANTIATE

}  // namespace pp::cuda
