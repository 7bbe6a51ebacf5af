// Statistics from the CSR sizes, the density bitmaps, one parallel pass over the aux witness and one
// over each matrix's coefficients (hash sets per block of rows, merged).
#include "r1cs/synthetic_stats.hpp"

#include <algorithm>
#include <array>
#include <cstdio>
#include <unordered_set>
#include <utility>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "r1cs/density.hpp"

namespace pp::r1cs {
namespace {

using coeff_key = std::array<uint64_t, 4>;  // the Montgomery limbs
struct coeff_key_hash {
  std::size_t operator()(const coeff_key& k) const {
    uint64_t h = k[0] * 0x9e3779b97f4a7c15ull ^ k[1];
    h = (h ^ (h >> 29)) * 0xbf58476d1ce4e5b9ull ^ k[2];
    h = (h ^ (h >> 32)) * 0x94d049bb133111ebull ^ k[3];
    return static_cast<std::size_t>(h ^ (h >> 31));
  }
};
using coeff_set = std::unordered_set<coeff_key, coeff_key_hash>;

struct coeff_census {
  coeff_set distinct;  // values other than 0, 1, -1
  uint64_t others = 0;  // entries holding one of them
};

coeff_census census_of(const csr_matrix& m) {
  const ff::fr one = ff::fr::one(), minus_one = -ff::fr::one();
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, m.rows(), 1 << 14), coeff_census{},
      [&](const tbb::blocked_range<std::size_t>& r, coeff_census acc) {
        for (uint64_t k = m.row_ptr[r.begin()]; k < m.row_ptr[r.end()]; ++k) {
          const ff::fr& c = m.coeffs[k];
          if (c.is_zero() || c == one || c == minus_one) continue;
          ++acc.others;
          acc.distinct.insert({c.l[0], c.l[1], c.l[2], c.l[3]});
        }
        return acc;
      },
      [](coeff_census x, coeff_census y) {
        if (x.distinct.size() < y.distinct.size()) std::swap(x.distinct, y.distinct);
        x.distinct.insert(y.distinct.begin(), y.distinct.end());
        x.others += y.others;
        return x;
      });
}

}  // namespace

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
  coeff_census census[3] = {census_of(cs.a()), census_of(cs.b()), census_of(cs.c())};
  s.distinct_a = census[0].distinct.size();
  s.distinct_b = census[1].distinct.size();
  s.distinct_c = census[2].distinct.size();
  const uint64_t entries = cs.a().nnz() + cs.b().nnz() + cs.c().nnz();
  s.other_coeff_share = static_cast<double>(census[0].others + census[1].others + census[2].others) /
                        static_cast<double>(std::max<uint64_t>(entries, 1));
  census[0].distinct.insert(census[1].distinct.begin(), census[1].distinct.end());
  census[0].distinct.insert(census[2].distinct.begin(), census[2].distinct.end());
  s.distinct_abc = census[0].distinct.size();

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
                "nnz/row A B C    %.3f %.3f %.3f\naux density A B  %.4f %.4f\nwitness 0 / 1    %.4f %.4f\n"
                "coeffs not 0/+-1 %.4f of entries\ndistinct A B C   %llu %llu %llu (%llu in all)\n",
                static_cast<unsigned long long>(s.num_constraints), static_cast<unsigned long long>(s.num_public),
                static_cast<unsigned long long>(s.num_aux), s.nnz_a, s.nnz_b, s.nnz_c, s.a_aux_density,
                s.b_aux_density, s.witness_zero, s.witness_one, s.other_coeff_share,
                static_cast<unsigned long long>(s.distinct_a), static_cast<unsigned long long>(s.distinct_b),
                static_cast<unsigned long long>(s.distinct_c), static_cast<unsigned long long>(s.distinct_abc));
  return buf;
}

}  // namespace pp::r1cs
