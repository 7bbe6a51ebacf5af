// column_evaluations: a counting sort of the entries into column ranges (count per row block and
// range, offsets, scatter of (row, offset-in-row) pairs), then one task per range adds its entries'
// terms into its own slice of the output. A range holding a large share of the entries (the
// constant's column appears in most rows) is summed by several threads into private accumulators.
#include "groth16/qap_columns.hpp"

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <cassert>
#include <memory>

namespace pp::groth16 {
namespace {

// 2^17 columns per range: a range's slice of the output (or a private accumulator) is 4 MiB of Fr,
// and at 2^27 variables the 1024 ranges keep the count table (blocks x ranges) at 4 MiB.
constexpr int range_bits = 17;
// Row blocks of the counting pass: at least 2^14 rows, at most 512 blocks.
constexpr std::size_t min_block_rows = std::size_t{1} << 14;
constexpr std::size_t max_blocks = 512;
// A range is split across threads when it holds at least this many entries and more than
// 1 / (4 threads) of all of them; the pieces it is split into.
constexpr std::size_t split_min_entries = std::size_t{1} << 15;
constexpr std::size_t split_piece = std::size_t{1} << 14;

struct entry {
  uint32_t row;
  uint32_t offset;  // within the row
};

// m[r][.] * L_r(tau); most coefficients are 1.
template <class Fr>
inline Fr term(const Fr& coeff, const Fr& lag) {
  return coeff == Fr::one() ? lag : coeff * lag;
}

}  // namespace

template <class Fr>
std::vector<Fr> column_evaluations(const r1cs::basic_csr_matrix<Fr>& m, std::span<const std::type_identity_t<Fr>> lagrange,
                                   uint64_t num_variables) {
  std::vector<Fr> out(num_variables);
  const std::size_t rows = m.rows(), nnz = m.nnz();
  assert(rows <= lagrange.size());
  assert(rows <= UINT32_MAX);
  if (nnz == 0) return out;
  const uint64_t ranges = (num_variables + (uint64_t{1} << range_bits) - 1) >> range_bits;
  const std::size_t block_rows = std::max(min_block_rows, (rows + max_blocks - 1) / max_blocks);
  const std::size_t blocks = (rows + block_rows - 1) / block_rows;

  // 1. counts[b * ranges + g]: entries of row block b in column range g.
  std::vector<uint64_t> counts(blocks * ranges, 0);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    uint64_t* cnt = counts.data() + b * ranges;
    const std::size_t hi = std::min(rows, (b + 1) * block_rows);
    for (uint64_t e = m.row_ptr[b * block_rows]; e < m.row_ptr[hi]; ++e) ++cnt[m.cols[e] >> range_bits];
  });
  // 2. Range-major offsets: range g is one contiguous bucket, block 0's entries first (row order).
  std::vector<uint64_t> start(ranges + 1);
  uint64_t acc = 0;
  for (uint64_t g = 0; g < ranges; ++g) {
    start[g] = acc;
    for (std::size_t b = 0; b < blocks; ++b) {
      const uint64_t c = counts[b * ranges + g];
      counts[b * ranges + g] = acc;
      acc += c;
    }
  }
  start[ranges] = acc;
  // 3. Scatter; each block advances its own cursors.
  const std::unique_ptr<entry[]> entries(new entry[nnz]);
  tbb::parallel_for(std::size_t{0}, blocks, [&](std::size_t b) {
    uint64_t* cursor = counts.data() + b * ranges;
    const std::size_t hi = std::min(rows, (b + 1) * block_rows);
    for (std::size_t r = b * block_rows; r < hi; ++r) {
      const uint64_t first = m.row_ptr[r];
      for (uint64_t e = first; e < m.row_ptr[r + 1]; ++e) {
        entries[cursor[m.cols[e] >> range_bits]++] = entry{static_cast<uint32_t>(r), static_cast<uint32_t>(e - first)};
      }
    }
  });
  // 4. Sum per range into out[col0, col0 + width).
  const uint64_t threads = static_cast<uint64_t>(std::max(1, tbb::this_task_arena::max_concurrency()));
  auto add_terms = [&](uint64_t lo, uint64_t hi, Fr* dst, uint64_t col0) {
    for (uint64_t i = lo; i < hi; ++i) {
      const entry en = entries[i];
      const uint64_t e = m.row_ptr[en.row] + en.offset;
      dst[m.cols[e] - col0] += term(m.coeffs[e], lagrange[en.row]);
    }
  };
  tbb::parallel_for(uint64_t{0}, ranges, [&](uint64_t g) {
    const uint64_t lo = start[g], hi = start[g + 1];
    const uint64_t col0 = g << range_bits;
    const uint64_t width = std::min<uint64_t>(uint64_t{1} << range_bits, num_variables - col0);
    if (hi - lo < split_min_entries || (hi - lo) * 4 * threads <= nnz) {
      add_terms(lo, hi, out.data(), 0);
      return;
    }
    tbb::enumerable_thread_specific<std::vector<Fr>> local([&] { return std::vector<Fr>(width); });
    tbb::parallel_for(tbb::blocked_range<uint64_t>(lo, hi, split_piece), [&](const tbb::blocked_range<uint64_t>& r) {
      add_terms(r.begin(), r.end(), local.local().data(), col0);
    });
    tbb::parallel_for(tbb::blocked_range<uint64_t>(0, width, 4096), [&](const tbb::blocked_range<uint64_t>& r) {
      for (const std::vector<Fr>& v : local) {
        for (uint64_t j = r.begin(); j < r.end(); ++j) out[col0 + j] += v[j];
      }
    });
  });
  return out;
}

namespace reference {

template <class Fr>
std::vector<Fr> column_evaluations(const r1cs::basic_csr_matrix<Fr>& m, std::span<const std::type_identity_t<Fr>> lagrange,
                                   uint64_t num_variables) {
  std::vector<Fr> out(num_variables);
  for (std::size_t row = 0; row < m.rows(); ++row) {
    const auto cols = m.row_cols(row);
    const auto coeffs = m.row_coeffs(row);
    for (std::size_t k = 0; k < cols.size(); ++k) out[cols[k]] += coeffs[k] * lagrange[row];
  }
  return out;
}

}  // namespace reference

#define PP_GROTH16_COLUMNS(Fr)                                                                                   \
  template std::vector<Fr> column_evaluations<Fr>(const r1cs::basic_csr_matrix<Fr>&, std::span<const Fr>, uint64_t); \
  template std::vector<Fr> reference::column_evaluations<Fr>(const r1cs::basic_csr_matrix<Fr>&, std::span<const Fr>, \
                                                             uint64_t)
PP_GROTH16_COLUMNS(ff::fr);
PP_GROTH16_COLUMNS(ff::bn254::fr);
#undef PP_GROTH16_COLUMNS

}  // namespace pp::groth16
