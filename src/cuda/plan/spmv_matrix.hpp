// Compact form of the R1CS matrices for the GPU SpMV, built once per circuit on the host and kept
// resident on the device. Coefficients equal to 1 (most of PoRep's) cost no bytes: an entry is one
// 32-bit word, tag (2 bits) | column (30 bits); tag 0 is +1, tag 1 is -1, tag 2 means the next word
// indexes a table of the matrix's distinct other coefficients. Entries with coefficient 0 are
// dropped (they add nothing). Row pointers count words, 32-bit. Either curve's circuit: the table holds
// the coefficients' Montgomery words, which the SpMV reads as the circuit's Fr. Plain C++.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "core/result.hpp"
#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::cuda {

inline constexpr int spmv_col_bits = 30;
inline constexpr uint32_t spmv_col_mask = (uint32_t{1} << spmv_col_bits) - 1;
inline constexpr uint32_t spmv_tag_one = 0, spmv_tag_minus_one = 1, spmv_tag_table = 2;
inline constexpr uint64_t spmv_max_variables = uint64_t{1} << spmv_col_bits;

// One coefficient of either curve's Fr as its four Montgomery words (both fields are 4 x 64 bits).
struct fr_words {
  uint64_t l[4];
  bool operator==(const fr_words& o) const { return std::memcmp(l, o.l, sizeof(l)) == 0; }
  template <class Fr>
  [[nodiscard]] Fr as() const {
    static_assert(sizeof(Fr) == sizeof(fr_words));
    Fr x;
    std::memcpy(x.l, l, sizeof(l));
    return x;
  }
};

struct compact_csr {
  uint64_t rows = 0;
  std::vector<uint32_t> row_ptr{0};  // rows + 1 word offsets
  std::vector<uint32_t> words;       // tag | column, plus a table index after each tag-2 word
  std::vector<fr_words> table;       // distinct coefficients other than 0, 1, -1

  [[nodiscard]] uint64_t device_bytes() const;  // the three arrays, each padded to 256 bytes
};

struct compact_r1cs {
  uint64_t num_constraints = 0;
  uint64_t num_variables = 0;
  compact_csr m[3];  // A, B, C

  [[nodiscard]] uint64_t device_bytes() const;
  // What the plain CSR (u64 row pointers, u32 columns, 32-byte coefficients) would take.
  template <class Fr>
  [[nodiscard]] static uint64_t plain_bytes(const r1cs::basic_constraint_system<Fr>& cs);
};

// invalid_argument when the system has more than 2^30 variables; unimplemented when one matrix
// needs 2^32 or more words (32-bit row pointers; PoRep's A needs about 3.1e8).
// Both curves' (instantiated in spmv_matrix.cpp).
template <class Fr>
result<compact_csr> make_compact_csr(const r1cs::basic_csr_matrix<Fr>& m);
template <class Fr>
result<compact_r1cs> make_compact_r1cs(const r1cs::basic_constraint_system<Fr>& cs);

// Row chunks of the compact matrices for a device too small to hold them (the SpMV then streams the
// row pointers and words through two device slots; the coefficient tables stay resident). A chunk's
// bytes, as copied into a slot: its rows + 1 row pointers rebased to its first word (padded to 256
// bytes), then its words. Every matrix has at least one chunk (an empty one for a matrix of no rows,
// so that its output rows are still written).
struct spmv_chunk {
  int matrix = 0;         // 0: A, 1: B, 2: C
  uint64_t row0 = 0;      // first row
  uint64_t rows = 0;      // rows in the chunk
  uint64_t words_at = 0;  // offset of the words inside the chunk (the padded row pointers before them)
  uint64_t bytes = 0;     // what is copied
  uint64_t image_at = 0;  // offset of the chunk in the host image (256-byte aligned)
};

struct spmv_chunking {
  std::vector<spmv_chunk> chunks;  // A's, then B's, then C's, rows in order
  uint64_t slot_bytes = 0;         // the largest chunk, padded to 256 bytes
  uint64_t image_bytes = 0;        // all chunks, each padded to 256 bytes
  uint64_t tables_bytes = 0;       // the three coefficient tables, each padded (they stay resident)
};

// Greedy row chunks of at most max_chunk_bytes each (a single row larger than that gets a chunk of
// its own: slot_bytes says what the slots must hold). max_chunk_bytes >= 512.
result<spmv_chunking> make_spmv_chunking(const compact_r1cs& c, uint64_t max_chunk_bytes);
// Writes every chunk of `k` into image (k.image_bytes) at its image_at, as the slots receive it.
void fill_spmv_image(const compact_r1cs& c, const spmv_chunking& k, std::byte* image);

}  // namespace pp::cuda
