// One R1CS matrix (A, B or C) in compressed sparse row form: row r holds the entries
// [row_ptr[r], row_ptr[r+1]) of cols/coeffs. Columns index the witness layout 1 | public | aux.
// Entries are kept as given (no sorting or merging), so file formats round-trip exactly.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/status.hpp"
#include "ff/fr.hpp"

namespace pp::r1cs {

struct csr_matrix {
  std::vector<uint64_t> row_ptr{0};  // rows() + 1 entries, row_ptr[0] == 0, non-decreasing
  std::vector<uint32_t> cols;        // nnz() column (variable) indices
  std::vector<ff::fr> coeffs;        // nnz() coefficients, Montgomery form

  std::size_t rows() const { return row_ptr.size() - 1; }
  std::size_t nnz() const { return cols.size(); }
  std::span<const uint32_t> row_cols(std::size_t r) const {
    return {cols.data() + row_ptr[r], cols.data() + row_ptr[r + 1]};
  }
  std::span<const ff::fr> row_coeffs(std::size_t r) const {
    return {coeffs.data() + row_ptr[r], coeffs.data() + row_ptr[r + 1]};
  }

  // Structural check: `rows` rows, consistent row pointers, every column < num_variables.
  // `name` ("A", "B", "C") goes into the message.
  status validate(std::size_t rows, uint64_t num_variables, std::string_view name) const;

  friend bool operator==(const csr_matrix&, const csr_matrix&) = default;
};

}  // namespace pp::r1cs
