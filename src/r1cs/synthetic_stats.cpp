// Statistics from the CSR sizes, the density bitmaps and one parallel pass over the aux witness.
#include "r1cs/synthetic_stats.hpp"

#include <algorithm>
#include <cstdio>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "r1cs/density.hpp"

namespace pp::r1cs {

synthetic_stats stats_of(const constraint_system& cs, std::span<const ff::fr> w) {
  synthetic_stats s;
  s.num_constraints = cs.num_constraints();
  s.num_public = cs.num_public();
  s.num_aux = cs.num_aux();
  const double rows = static_cast<double>(std::max<uint64_t>(s.num_constraints, 1));
  s.nnz_a = static_cast<double>(cs.a().nnz()) / rows;
  s.nnz_b = static_cast<double>(cs.b().nnz()) / rows;
  s.nnz_c = static_cast<double>(cs.c().nnz()) / rows;
  const uint64_t aux0 = 1 + cs.num_public();
  const double aux = static_cast<double>(std::max<uint64_t>(s.num_aux, 1));
  const column_density d = compute_density(cs);
  s.a_aux_density = static_cast<double>(d.a.count(aux0, cs.num_variables())) / aux;
  s.b_aux_density = static_cast<double>(d.b.count(aux0, cs.num_variables())) / aux;

  const std::size_t end = std::min<std::size_t>(w.size(), cs.num_variables());
  const std::size_t begin = std::min<std::size_t>(aux0, end);
  using counts = std::pair<uint64_t, uint64_t>;
  const counts c = tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(begin, end, 1 << 14), counts{0, 0},
      [&](const tbb::blocked_range<std::size_t>& r, counts acc) {
        const ff::fr one = ff::fr::one();
        for (std::size_t i = r.begin(); i < r.end(); ++i) {
          acc.first += w[i].is_zero();
          acc.second += w[i] == one;
        }
        return acc;
      },
      [](counts x, counts y) { return counts{x.first + y.first, x.second + y.second}; });
  const double n_w = static_cast<double>(std::max<std::size_t>(end - begin, 1));
  s.witness_zero = static_cast<double>(c.first) / n_w;
  s.witness_one = static_cast<double>(c.second) / n_w;
  return s;
}

std::string to_string(const synthetic_stats& s) {
  char buf[512];
  std::snprintf(buf, sizeof buf,
                "constraints      %llu\npublic inputs    %llu\naux variables    %llu\n"
                "nnz/row A B C    %.3f %.3f %.3f\naux density A B  %.4f %.4f\nwitness 0 / 1    %.4f %.4f\n",
                static_cast<unsigned long long>(s.num_constraints), static_cast<unsigned long long>(s.num_public),
                static_cast<unsigned long long>(s.num_aux), s.nnz_a, s.nnz_b, s.nnz_c, s.a_aux_density,
                s.b_aux_density, s.witness_zero, s.witness_one);
  return buf;
}

}  // namespace pp::r1cs
