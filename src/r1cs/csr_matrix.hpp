// One R1CS matrix (A, B or C) in compressed sparse row form: row r holds the entries
// [row_ptr[r], row_ptr[r+1]) of cols/coeffs. Columns index the witness layout 1 | public | aux.
// Entries are kept as given (no sorting or merging), so file formats round-trip exactly. Over either
// curve's scalar field; `csr_matrix` is BLS12-381's.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "core/status.hpp"
#include "ff/bn254_fr.hpp"
#include "ff/fr.hpp"

namespace pp::r1cs {

template <class Fr>
struct basic_csr_matrix {
  std::vector<uint64_t> row_ptr{0};  // rows() + 1 entries, row_ptr[0] == 0, non-decreasing
  std::vector<uint32_t> cols;        // nnz() column (variable) indices
  std::vector<Fr> coeffs;            // nnz() coefficients, Montgomery form

  std::size_t rows() const { return row_ptr.size() - 1; }
  std::size_t nnz() const { return cols.size(); }
  std::span<const uint32_t> row_cols(std::size_t r) const {
    return {cols.data() + row_ptr[r], cols.data() + row_ptr[r + 1]};
  }
  std::span<const Fr> row_coeffs(std::size_t r) const {
    return {coeffs.data() + row_ptr[r], coeffs.data() + row_ptr[r + 1]};
  }

  // Structural check: `rows` rows, consistent row pointers, every column < num_variables.
  // `name` ("A", "B", "C") goes into the message.
  status validate(std::size_t rows, uint64_t num_variables, std::string_view name) const;

  friend bool operator==(const basic_csr_matrix&, const basic_csr_matrix&) = default;
};

using csr_matrix = basic_csr_matrix<ff::fr>;

}  // namespace pp::r1cs
