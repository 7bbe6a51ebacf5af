// Compact form of the R1CS matrices for the GPU SpMV, built once per circuit on the host and kept
// resident on the device. Coefficients equal to 1 (most of PoRep's) cost no bytes: an entry is one
// 32-bit word, tag (2 bits) | column (30 bits); tag 0 is +1, tag 1 is -1, tag 2 means the next word
// indexes a table of the matrix's distinct other coefficients. Entries with coefficient 0 are
// dropped (they add nothing). Row pointers count words, 32-bit. Plain C++.
#pragma once
#include <cstdint>
#include <vector>

#include "core/result.hpp"
#include "ff/fr.hpp"
#include "r1cs/constraint_system.hpp"

namespace pp::cuda {

inline constexpr int spmv_col_bits = 30;
inline constexpr uint32_t spmv_col_mask = (uint32_t{1} << spmv_col_bits) - 1;
inline constexpr uint32_t spmv_tag_one = 0, spmv_tag_minus_one = 1, spmv_tag_table = 2;
inline constexpr uint64_t spmv_max_variables = uint64_t{1} << spmv_col_bits;

struct compact_csr {
  uint64_t rows = 0;
  std::vector<uint32_t> row_ptr{0};  // rows + 1 word offsets
  std::vector<uint32_t> words;       // tag | column, plus a table index after each tag-2 word
  std::vector<ff::fr> table;         // distinct coefficients other than 0, 1, -1

  [[nodiscard]] uint64_t device_bytes() const;  // the three arrays, each padded to 256 bytes
};

struct compact_r1cs {
  uint64_t num_constraints = 0;
  uint64_t num_variables = 0;
  compact_csr m[3];  // A, B, C

  [[nodiscard]] uint64_t device_bytes() const;
  // What the plain CSR (u64 row pointers, u32 columns, 32-byte coefficients) would take.
  [[nodiscard]] static uint64_t plain_bytes(const r1cs::constraint_system& cs);
};

// invalid_argument when the system has more than 2^30 variables; unimplemented when one matrix
// needs 2^32 or more words (32-bit row pointers; PoRep's A needs about 3.1e8).
result<compact_csr> make_compact_csr(const r1cs::csr_matrix& m);
result<compact_r1cs> make_compact_r1cs(const r1cs::constraint_system& cs);

}  // namespace pp::cuda
