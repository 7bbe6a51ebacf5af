// Density bitmaps built by row blocks in parallel; shared words are set with atomic OR after a
// relaxed read, so hot columns (the constant 1) are not written over and over from every thread.
#include "r1cs/density.hpp"

#include <atomic>
#include <bit>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

namespace pp::r1cs {

std::size_t bitmap::count(std::size_t begin, std::size_t end) const {
  std::size_t n = 0;
  for (std::size_t i = begin; i < end && i < size_;) {
    if (i % 64 == 0 && i + 64 <= end) {
      n += static_cast<std::size_t>(std::popcount(words_[i / 64]));
      i += 64;
    } else {
      n += test(i);
      ++i;
    }
  }
  return n;
}

namespace {

template <class Fr>
void mark_columns(const basic_csr_matrix<Fr>& m, bitmap& out) {
  std::vector<uint64_t>& words = out.words();
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, m.nnz(), 1 << 14), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t k = r.begin(); k < r.end(); ++k) {
      if (m.coeffs[k].is_zero()) continue;
      const uint32_t col = m.cols[k];
      const uint64_t bit = uint64_t{1} << (col % 64);
      std::atomic_ref<uint64_t> word(words[col / 64]);
      if ((word.load(std::memory_order_relaxed) & bit) == 0) word.fetch_or(bit, std::memory_order_relaxed);
    }
  });
}

}  // namespace

template <class Fr>
column_density compute_density(const basic_constraint_system<Fr>& cs) {
  column_density d{bitmap(cs.num_variables()), bitmap(cs.num_variables())};
  mark_columns(cs.a(), d.a);
  mark_columns(cs.b(), d.b);
  return d;
}

namespace reference {

template <class Fr>
bitmap naive_density(const basic_constraint_system<Fr>& cs, matrix_id id) {
  const basic_csr_matrix<Fr>& m = cs.matrix(id);
  bitmap out(cs.num_variables());
  for (std::size_t k = 0; k < m.nnz(); ++k) {
    if (!m.coeffs[k].is_zero()) out.set(m.cols[k]);
  }
  return out;
}

}  // namespace reference

template column_density compute_density<ff::fr>(const basic_constraint_system<ff::fr>&);
template column_density compute_density<ff::bn254::fr>(const basic_constraint_system<ff::bn254::fr>&);
template bitmap reference::naive_density<ff::fr>(const basic_constraint_system<ff::fr>&, matrix_id);
template bitmap reference::naive_density<ff::bn254::fr>(const basic_constraint_system<ff::bn254::fr>&, matrix_id);

}  // namespace pp::r1cs
