// Parallel generation straight into CSR. Every block of variables and every row draws from its own
// splitmix64 stream keyed by (seed, purpose, index), and blocks have a fixed size, so the result
// does not depend on how oneTBB schedules them. Passes:
//   1. witness values (blocks of variables) and the A / B aux subsets (one hash per aux variable);
//   2. per-row term counts into row_ptr, then a two-level prefix sum;
//   3. fill, by chunks of rows: the terms (covering slots, see cover_cursor, take subset members in
//      order, the others are uniform), then the row sums (witness gathers, prefetched), then C's
//      last entry, on the constant 1, set so that <A,w> * <B,w> = <C,w>.
#include "r1cs/synthetic.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include "ff/limbs.hpp"

namespace pp::r1cs {

namespace {

using ff::fr;

constexpr uint64_t block_size = uint64_t{1} << 14;  // variables or rows per block; fixes the streams
constexpr uint64_t max_rows = uint64_t{1} << 40;
constexpr double max_mean_terms = 1 << 20;

enum purpose : uint64_t { witness_values = 1, subset_a = 2, subset_b = 3, row_shape = 4, row_terms = 5 };

uint64_t mix(uint64_t z) {  // splitmix64 finalizer
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

uint64_t splitmix(uint64_t& s) { return mix(s += 0x9e3779b97f4a7c15ull); }

// Start of the stream for (seed, purpose, index): hashed, so streams of neighbouring indices do not
// overlap (plain seed + index would make row r's second draw row r+1's first).
uint64_t stream(uint64_t seed, purpose what, uint64_t index) {
  return mix(mix(seed ^ mix(what * 0xd1b54a32d192ed03ull)) ^ (index * 0x9e3779b97f4a7c15ull));
}

double to_unit(uint64_t x) { return static_cast<double>(x >> 11) * 0x1.0p-53; }
double uniform01(uint64_t& s) { return to_unit(splitmix(s)); }
uint64_t below(uint64_t& s, uint64_t n) {  // uniform in [0, n), bias < n / 2^64
  return static_cast<uint64_t>((static_cast<unsigned __int128>(splitmix(s)) * n) >> 64);
}

uint32_t term_count(double mean, uint64_t& s) {
  const double base = std::floor(mean);
  return static_cast<uint32_t>(base) + (uniform01(s) < mean - base ? 1 : 0);
}

// Four limbs uniform in [0, r), by rejection (r > 2^254, so at most ~2 draws on average).
void draw_below_modulus(uint64_t& s, uint64_t (&v)[4]) {
  do {
    v[0] = splitmix(s), v[1] = splitmix(s), v[2] = splitmix(s), v[3] = splitmix(s) >> 1;
  } while (ff::limbs::cmp<fr::n64>(v, ff::fr_params::modulus) >= 0);
}

// Uniform in [0, r), taken as the Montgomery form directly (also uniform; saves a multiplication).
fr random_montgomery(uint64_t& s) {
  uint64_t v[4];
  draw_below_modulus(s, v);
  return fr::from_montgomery(v);
}

enum class coeff_kind : uint8_t { zero, one, minus_one, other };

struct coeff {
  coeff_kind kind;
  fr value;
};

coeff draw_coeff(const synthetic_params& p, uint64_t& s, bool nonzero) {
  const double u = uniform01(s);
  if (u < p.coeff_one) return {coeff_kind::one, fr::one()};
  if (u < p.coeff_one + p.coeff_minus_one) return {coeff_kind::minus_one, -fr::one()};
  if (u < p.coeff_one + p.coeff_minus_one + p.coeff_zero) {
    return nonzero ? coeff{coeff_kind::one, fr::one()} : coeff{coeff_kind::zero, fr::zero()};
  }
  fr v = random_montgomery(s);
  if (v.is_zero()) v = fr::one();
  return {coeff_kind::other, v};
}

void accumulate(fr& acc, coeff_kind kind, const fr& c, const fr& x) {
  switch (kind) {
    case coeff_kind::zero: break;
    case coeff_kind::one: acc += x; break;
    case coeff_kind::minus_one: acc -= x; break;
    case coeff_kind::other: acc += c * x; break;
  }
}

constexpr uint64_t chunk_rows = 256;    // rows whose terms are drawn before their sums are taken
constexpr uint64_t prefetch_ahead = 16;  // terms; covers the latency of a witness gather

// out[r - r0] = sum over row r of coefficient * w[column], for rows [r0, r1) of m; kinds are
// indexed from the chunk's first entry.
void row_sums(const csr_matrix& m, const std::vector<coeff_kind>& kinds, uint64_t r0, uint64_t r1, const witness& w,
              std::array<fr, chunk_rows>& out) {
  const uint64_t k0 = m.row_ptr[r0], k_end = m.row_ptr[r1];
  for (uint64_t r = r0; r < r1; ++r) {
    fr acc = fr::zero();
    for (uint64_t k = m.row_ptr[r]; k < m.row_ptr[r + 1]; ++k) {
      if (k + prefetch_ahead < k_end) __builtin_prefetch(&w[m.cols[k + prefetch_ahead]]);
      accumulate(acc, kinds[k - k0], m.coeffs[k], w[m.cols[k]]);
    }
    out[r - r0] = acc;
  }
}

uint64_t num_blocks(uint64_t n) { return (n + block_size - 1) / block_size; }

template <typename Body>
void for_each_block(uint64_t n, const Body& body) {  // body(block, begin, end)
  tbb::parallel_for(tbb::blocked_range<uint64_t>(0, num_blocks(n)), [&](const tbb::blocked_range<uint64_t>& r) {
    for (uint64_t b = r.begin(); b < r.end(); ++b) body(b, b * block_size, std::min(n, (b + 1) * block_size));
  });
}

// Aux variable i (witness index aux0 + i) is in a subset when its hash falls below the density.
struct subset_rule {
  uint64_t key;
  double density;
  bool contains(uint64_t i) const { return to_unit(mix(key ^ (i * 0x9e3779b97f4a7c15ull))) < density; }
};

// The members of a subset as witness indices, increasing. Never empty when num_aux > 0 and
// density > 0 (falls back to the first aux variable).
std::vector<uint32_t> list_members(const subset_rule& rule, uint64_t aux0, uint64_t num_aux) {
  std::vector<uint64_t> offset(num_blocks(num_aux) + 1, 0);
  for_each_block(num_aux, [&](uint64_t b, uint64_t begin, uint64_t end) {
    uint64_t n = 0;
    for (uint64_t i = begin; i < end; ++i) n += rule.contains(i);
    offset[b + 1] = n;
  });
  for (std::size_t b = 1; b < offset.size(); ++b) offset[b] += offset[b - 1];
  std::vector<uint32_t> out(offset.back());
  for_each_block(num_aux, [&](uint64_t b, uint64_t begin, uint64_t end) {
    uint64_t k = offset[b];
    for (uint64_t i = begin; i < end; ++i) {
      if (rule.contains(i)) out[k++] = static_cast<uint32_t>(aux0 + i);
    }
  });
  if (out.empty() && num_aux > 0 && rule.density > 0) out.push_back(static_cast<uint32_t>(aux0));
  return out;
}

// A uniformly random member. Large subsets draw aux variables until the rule accepts one (no
// memory access: a lookup in the member list would be one more cache miss per term).
struct subset {
  subset_rule rule;
  uint64_t aux0 = 0, num_aux = 0;
  std::vector<uint32_t> members;

  bool by_rejection() const { return members.size() >= 16 && members.size() * 16 >= num_aux; }
  uint32_t random_member(uint64_t& s) const {
    if (!by_rejection()) return members[below(s, members.size())];
    for (;;) {
      const uint64_t i = below(s, num_aux);
      if (rule.contains(i)) return static_cast<uint32_t>(aux0 + i);
    }
  }
};

// Which term slots of a matrix (nnz slots, subset of m members) are "covering": slot k is when
// nnz <= m, or when (k * m) mod nnz < m, and then takes member floor(k * m / nnz). With nnz >= m
// that is the first slot of each member, spread evenly, so every member occurs; with fewer slots
// they are all covering and take distinct members. Walked slot by slot without division.
class cover_cursor {
 public:
  cover_cursor(uint64_t k, uint64_t nnz, uint64_t m) : nnz_(nnz), m_(m) {
    if (nnz == 0 || m == 0) return;
    const unsigned __int128 km = static_cast<unsigned __int128>(k) * m;
    member_ = static_cast<uint64_t>(km / nnz);
    rem_ = static_cast<uint64_t>(km % nnz);
    step_q_ = m / nnz;
    step_r_ = m % nnz;
  }
  bool covering() const { return m_ > 0 && (nnz_ <= m_ || rem_ < m_); }
  uint64_t member() const { return member_; }
  void advance() {
    member_ += step_q_;
    rem_ += step_r_;
    if (rem_ >= nnz_) {
      rem_ -= nnz_;
      ++member_;
    }
  }

 private:
  uint64_t nnz_ = 0, m_ = 0, member_ = 0, rem_ = 0, step_q_ = 0, step_r_ = 0;
};

// Row pointers from per-row counts: counts[r + 1] holds row r's count on entry.
void prefix_sum_rows(std::vector<uint64_t>& row_ptr, const std::vector<uint64_t>& block_sums) {
  std::vector<uint64_t> start(block_sums.size() + 1, 0);
  for (std::size_t b = 0; b < block_sums.size(); ++b) start[b + 1] = start[b] + block_sums[b];
  const uint64_t rows = row_ptr.size() - 1;
  row_ptr[0] = 0;
  for_each_block(rows, [&](uint64_t b, uint64_t begin, uint64_t end) {
    uint64_t run = start[b];
    for (uint64_t r = begin; r < end; ++r) row_ptr[r + 1] = run += row_ptr[r + 1];
  });
}

status check_params(const synthetic_params& p) {
  auto fraction = [](double x) { return x >= 0 && x <= 1; };
  if (!fraction(p.a_aux_density) || !fraction(p.b_aux_density) || !fraction(p.input_terms)) {
    return invalid_argument("synthetic: a_aux_density, b_aux_density and input_terms must be in [0, 1]");
  }
  if (!fraction(p.witness_zero) || !fraction(p.witness_one) || !(p.witness_zero + p.witness_one <= 1)) {
    return invalid_argument("synthetic: witness_zero and witness_one must be in [0, 1] with sum <= 1");
  }
  if (!fraction(p.coeff_one) || !fraction(p.coeff_minus_one) || !fraction(p.coeff_zero) ||
      !(p.coeff_one + p.coeff_minus_one + p.coeff_zero <= 1)) {
    return invalid_argument("synthetic: coeff_one, coeff_minus_one and coeff_zero must be in [0, 1] with sum <= 1");
  }
  for (double m : {p.nnz_a, p.nnz_b, p.nnz_c}) {
    if (!(m >= 0 && m <= max_mean_terms)) {
      return invalid_argument("synthetic: mean terms per row must be in [0, 2^20], got " + std::to_string(m));
    }
  }
  if (p.num_public >= constraint_system::max_variables || p.num_aux >= constraint_system::max_variables ||
      1 + p.num_public + p.num_aux > constraint_system::max_variables) {
    return out_of_range("synthetic: 1 + " + std::to_string(p.num_public) + " public + " + std::to_string(p.num_aux) +
                        " aux variables exceed the limit of 2^32");
  }
  if (p.num_constraints > max_rows) {
    return out_of_range("synthetic: " + std::to_string(p.num_constraints) + " constraints, at most 2^40");
  }
  return ok_status();
}

}  // namespace

synthetic_params synthetic_params::porep(uint64_t num_constraints, uint64_t seed) {
  synthetic_params p;
  p.num_constraints = num_constraints;
  p.num_public = 16;
  p.num_aux = static_cast<uint64_t>(static_cast<unsigned __int128>(num_constraints) * 1302 / 1303);
  p.seed = seed;
  return p;  // the other fields default to the PoRep shape
}

uint64_t synthetic_params::porep_constraints(int log_n) {
  const auto m = static_cast<uint64_t>((static_cast<unsigned __int128>(130'300'000) << log_n) >> 27);
  return std::max<uint64_t>(m, 1);
}

fr random_fr(uint64_t& state) {
  uint64_t v[4];
  draw_below_modulus(state, v);
  return fr::from_canonical_unchecked(v);
}

result<synthetic_circuit> make_synthetic(const synthetic_params& p) {
  if (status st = check_params(p); !st.ok()) return st;
  const uint64_t rows = p.num_constraints;
  const uint64_t aux0 = 1 + p.num_public;
  const uint64_t n_vars = aux0 + p.num_aux;
  const double c_random_mean = std::max(0.0, p.nnz_c - 1);  // the balancing term is the other one

  // Large buffers are zeroed by their constructors; do that side by side.
  witness w;
  csr_matrix a, b, c;
  subset sub_a{{stream(p.seed, subset_a, 0), p.a_aux_density}, aux0, p.num_aux, {}};
  subset sub_b{{stream(p.seed, subset_b, 0), p.b_aux_density}, aux0, p.num_aux, {}};
  tbb::parallel_invoke([&] { w.resize(n_vars); }, [&] { a.row_ptr.resize(rows + 1); },
                       [&] { b.row_ptr.resize(rows + 1); }, [&] { c.row_ptr.resize(rows + 1); },
                       [&] { sub_a.members = list_members(sub_a.rule, aux0, p.num_aux); },
                       [&] { sub_b.members = list_members(sub_b.rule, aux0, p.num_aux); });

  for_each_block(n_vars, [&](uint64_t, uint64_t begin, uint64_t end) {
    uint64_t s = stream(p.seed, witness_values, begin / block_size);
    for (uint64_t i = begin; i < end; ++i) {
      if (i == 0) {
        w[i] = fr::one();
      } else if (i < aux0) {
        w[i] = random_montgomery(s);
      } else {
        const double u = uniform01(s);
        w[i] = u < p.witness_zero ? fr::zero() : u < p.witness_zero + p.witness_one ? fr::one() : random_montgomery(s);
      }
    }
  });

  // Term counts (C's includes its balancing term), then row pointers.
  const uint64_t n_row_blocks = num_blocks(rows);
  std::vector<uint64_t> sums_a(n_row_blocks), sums_b(n_row_blocks), sums_c(n_row_blocks);
  for_each_block(rows, [&](uint64_t blk, uint64_t begin, uint64_t end) {
    uint64_t na = 0, nb = 0, nc = 0;
    for (uint64_t r = begin; r < end; ++r) {
      uint64_t s = stream(p.seed, row_shape, r);
      na += a.row_ptr[r + 1] = term_count(p.nnz_a, s);
      nb += b.row_ptr[r + 1] = term_count(p.nnz_b, s);
      nc += c.row_ptr[r + 1] = term_count(c_random_mean, s) + 1;
    }
    sums_a[blk] = na;
    sums_b[blk] = nb;
    sums_c[blk] = nc;
  });
  tbb::parallel_invoke([&] { prefix_sum_rows(a.row_ptr, sums_a); }, [&] { prefix_sum_rows(b.row_ptr, sums_b); },
                       [&] { prefix_sum_rows(c.row_ptr, sums_c); });
  const uint64_t nnz_a = a.row_ptr.back(), nnz_b = b.row_ptr.back(), nnz_c = c.row_ptr.back();
  tbb::parallel_invoke([&] { a.cols.resize(nnz_a); }, [&] { a.coeffs.resize(nnz_a); },
                       [&] { b.cols.resize(nnz_b); }, [&] { b.coeffs.resize(nnz_b); },
                       [&] { c.cols.resize(nnz_c); }, [&] { c.coeffs.resize(nnz_c); });

  // Rows go in chunks: first the terms of every row in the chunk, then the row sums, which gather
  // witness values at random columns with prefetches running ahead, then C's balancing terms.
  for_each_block(rows, [&](uint64_t, uint64_t begin, uint64_t end) {
    cover_cursor cover_a(a.row_ptr[begin], nnz_a, sub_a.members.size());
    cover_cursor cover_b(b.row_ptr[begin], nnz_b, sub_b.members.size());
    std::vector<coeff_kind> kind_a, kind_b, kind_c;
    std::array<fr, chunk_rows> av, bv, cv;
    // An A or B term: a covering slot takes its member (non-zero coefficient), otherwise a random
    // member or, with probability input_terms, the constant or a public input.
    auto subset_term = [&](csr_matrix& m, uint64_t k, coeff_kind& kind, cover_cursor& cover, const subset& sub,
                           uint64_t& s) {
      uint32_t col;
      coeff cf;
      if (cover.covering()) {
        col = sub.members[cover.member()];
        cf = draw_coeff(p, s, true);
      } else {
        col = sub.members.empty() || uniform01(s) < p.input_terms ? static_cast<uint32_t>(below(s, aux0))
                                                                   : sub.random_member(s);
        cf = draw_coeff(p, s, false);
      }
      cover.advance();
      m.cols[k] = col;
      m.coeffs[k] = cf.value;
      kind = cf.kind;
    };
    for (uint64_t r0 = begin; r0 < end; r0 += chunk_rows) {
      const uint64_t r1 = std::min(end, r0 + chunk_rows);
      const uint64_t a0 = a.row_ptr[r0], b0 = b.row_ptr[r0], c0 = c.row_ptr[r0];
      kind_a.resize(a.row_ptr[r1] - a0);
      kind_b.resize(b.row_ptr[r1] - b0);
      kind_c.resize(c.row_ptr[r1] - c0);
      for (uint64_t r = r0; r < r1; ++r) {
        uint64_t s = stream(p.seed, row_terms, r);
        for (uint64_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) subset_term(a, k, kind_a[k - a0], cover_a, sub_a, s);
        for (uint64_t k = b.row_ptr[r]; k < b.row_ptr[r + 1]; ++k) subset_term(b, k, kind_b[k - b0], cover_b, sub_b, s);
        const uint64_t last = c.row_ptr[r + 1] - 1;
        for (uint64_t k = c.row_ptr[r]; k < last; ++k) {
          c.cols[k] = p.num_aux == 0 || uniform01(s) < p.input_terms ? static_cast<uint32_t>(below(s, aux0))
                                                                     : static_cast<uint32_t>(aux0 + below(s, p.num_aux));
          const coeff cf = draw_coeff(p, s, false);
          c.coeffs[k] = cf.value;
          kind_c[k - c0] = cf.kind;
        }
        c.cols[last] = 0;
        kind_c[last - c0] = coeff_kind::zero;  // not known yet: left out of the row sum
      }
      row_sums(a, kind_a, r0, r1, w, av);
      row_sums(b, kind_b, r0, r1, w, bv);
      row_sums(c, kind_c, r0, r1, w, cv);
      for (uint64_t r = r0; r < r1; ++r) c.coeffs[c.row_ptr[r + 1] - 1] = av[r - r0] * bv[r - r0] - cv[r - r0];
    }
  });

  auto cs = constraint_system::make(p.num_public, p.num_aux, std::move(a), std::move(b), std::move(c));
  if (!cs.ok()) return std::move(cs).take_status();
  return synthetic_circuit{std::move(cs).value(), std::move(w)};
}

}  // namespace pp::r1cs
