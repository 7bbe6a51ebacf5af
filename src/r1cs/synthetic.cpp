// Parallel generation straight into CSR. Every block of variables and every row draws from its own
// splitmix64 stream keyed by (seed, purpose, index), and blocks have a fixed size, so the result
// does not depend on how oneTBB schedules them. Passes:
//   1. witness values (blocks of variables), the A / B aux subsets (one hash per aux variable), the
//      coefficient table, then the lists of zero-valued aux variables (all, A members, B members);
//   2. per-row term counts into row_ptr, then a two-level prefix sum;
//   3. fill, row by row (see row_filler): B, then A, then C, each row satisfied on its own.
#include "r1cs/synthetic.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
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
constexpr uint64_t max_constants = uint64_t{1} << 20;

enum purpose : uint64_t {
  witness_values = 1,
  subset_a = 2,
  subset_b = 3,
  row_shape = 4,
  row_terms = 5,
  table_constants = 6
};

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

// A coefficient with what it is made of, so the balancing entry of a row can be the product of two
// drawn ones and a cancelling entry the negation of one, both still in the table.
enum class coeff_kind : uint8_t { zero, one, minus_one, power, constant, other };

struct coeff {
  coeff_kind kind = coeff_kind::zero;
  bool negative = false;  // power and constant: minus the table entry
  uint32_t index = 0;     // power: k of 2^k; constant: index into the constants
  fr value = fr::zero();
};

constexpr uint32_t max_drawn_power = 254;  // 2^254 < r: the top bit weight of a packed field element

// 2^k for k <= 2 * max_drawn_power (products of two drawn powers) and the per-circuit constants.
struct coeff_table {
  std::vector<fr> powers;
  std::vector<fr> constants;

  static coeff_table make(uint64_t num_constants, uint64_t seed_stream) {
    coeff_table t;
    t.powers.resize(2 * max_drawn_power + 1);
    t.powers[0] = fr::one();
    for (std::size_t k = 1; k < t.powers.size(); ++k) t.powers[k] = t.powers[k - 1] + t.powers[k - 1];
    uint64_t s = seed_stream;
    t.constants.resize(num_constants);
    for (fr& c : t.constants) {
      do c = random_montgomery(s);
      while (c.is_zero());
    }
    return t;
  }
  coeff power(uint32_t k, bool negative) const {
    if (k == 0) {
      return negative ? coeff{coeff_kind::minus_one, false, 0, -fr::one()}
                      : coeff{coeff_kind::one, false, 0, fr::one()};
    }
    return {coeff_kind::power, negative, k, negative ? -powers[k] : powers[k]};
  }
  coeff constant(uint32_t i, bool negative) const {
    return {coeff_kind::constant, negative, i, negative ? -constants[i] : constants[i]};
  }
};

coeff negate(coeff c) {
  switch (c.kind) {
    case coeff_kind::zero: return c;
    case coeff_kind::one: return {coeff_kind::minus_one, false, 0, -fr::one()};
    case coeff_kind::minus_one: return {coeff_kind::one, false, 0, fr::one()};
    default: break;
  }
  c.negative = !c.negative;
  c.value = -c.value;
  return c;
}

// x * y when the table holds it (a factor +-1, or two powers of two); nothing otherwise.
std::optional<coeff> product(const coeff_table& t, const coeff& x, const coeff& y) {
  if (x.kind == coeff_kind::one) return y;
  if (x.kind == coeff_kind::minus_one) return negate(y);
  if (y.kind == coeff_kind::one) return x;
  if (y.kind == coeff_kind::minus_one) return negate(x);
  if (x.kind == coeff_kind::power && y.kind == coeff_kind::power) {
    return t.power(x.index + y.index, x.negative != y.negative);
  }
  return std::nullopt;
}

coeff draw_coeff(const synthetic_params& p, const coeff_table& t, uint64_t& s, bool nonzero) {
  const double u = uniform01(s);
  double edge = p.coeff_one;
  if (u < edge) return t.power(0, false);
  if (u < (edge += p.coeff_minus_one)) return t.power(0, true);
  if (u < (edge += p.coeff_zero)) return nonzero ? t.power(0, false) : coeff{};
  if (u < edge + p.coeff_power_of_two) {
    const auto k = static_cast<uint32_t>(1 + below(s, max_drawn_power));
    return t.power(k, (splitmix(s) & 1) != 0);
  }
  return t.constant(static_cast<uint32_t>(below(s, t.constants.size())), false);
}

void accumulate(fr& acc, const coeff& c, const fr& x) {
  switch (c.kind) {
    case coeff_kind::zero: break;
    case coeff_kind::one: acc += x; break;
    case coeff_kind::minus_one: acc -= x; break;
    default: acc += c.value * x; break;
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

// The aux variables i (witness index aux0 + i) with pred(i), as witness indices, increasing.
template <typename Pred>
std::vector<uint32_t> list_where(const Pred& pred, uint64_t aux0, uint64_t num_aux) {
  std::vector<uint64_t> offset(num_blocks(num_aux) + 1, 0);
  for_each_block(num_aux, [&](uint64_t b, uint64_t begin, uint64_t end) {
    uint64_t n = 0;
    for (uint64_t i = begin; i < end; ++i) n += pred(i);
    offset[b + 1] = n;
  });
  for (std::size_t b = 1; b < offset.size(); ++b) offset[b] += offset[b - 1];
  std::vector<uint32_t> out(offset.back());
  for_each_block(num_aux, [&](uint64_t b, uint64_t begin, uint64_t end) {
    uint64_t k = offset[b];
    for (uint64_t i = begin; i < end; ++i) {
      if (pred(i)) out[k++] = static_cast<uint32_t>(aux0 + i);
    }
  });
  return out;
}

// The members of a subset. Never empty when num_aux > 0 and density > 0 (falls back to the first
// aux variable).
std::vector<uint32_t> list_members(const subset_rule& rule, uint64_t aux0, uint64_t num_aux) {
  std::vector<uint32_t> out = list_where([&](uint64_t i) { return rule.contains(i); }, aux0, num_aux);
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

// Fills one row at a time so that <A,w> * <B,w> = <C,w> with every coefficient from the table.
// B first: its covering terms are fixed (every B member must occur), its free terms take zero-valued
// members, so b = <B,w> is usually 0. Then A's free terms are drawn freely, and C's terms take
// zero-valued aux variables, so c = 0 before the balancing entry, which goes on a zero-valued
// variable too (a SHA-256 boolean constraint, (1 - x) * x = 0, has this shape). When b != 0, A's
// free terms take zero-valued members instead and the product becomes C's balancing entry: with one
// term alpha * w_k left in A (the others cancelled by free terms on the same columns with the
// negated coefficients) and one beta * w_l in B, one of w_k, w_l equal to 1 and alpha * beta in the
// table, the entry is alpha * beta on the other variable (an AND gate's shape). Otherwise A is
// cancelled altogether when there are free terms enough. A row that none of this balances (two
// values other than 0 and 1 in the product, too few free terms: ~3e-5 of the PoRep rows) takes an
// output variable: an aux variable in neither subset nor any list (so no other row reads it), set
// to a * b - c, with coefficient 1. Each block of rows owns its share of those (~37 per 2^14 rows at
// the PoRep densities, against ~0.6 needed); past them, or with no zero-valued variables, the row
// gets a * b - c on the constant 1, a coefficient outside the table.
struct row_context {
  const synthetic_params& p;
  const coeff_table& table;
  witness& w;  // written only at output variables, each by the one row that owns it
  const subset& sub_a;
  const subset& sub_b;
  const std::vector<uint32_t>& zero_any;  // zero-valued aux variables, all / A members / B members
  const std::vector<uint32_t>& zero_a;
  const std::vector<uint32_t>& zero_b;
  const std::vector<uint32_t>& outputs;  // aux variables in neither subset, not zero_any's
  uint64_t aux0, num_aux, rows;
};

class row_filler {
 public:
  // The filler of block `block` of rows (block_size each): it owns that share of the outputs.
  row_filler(const row_context& x, uint64_t block) : x_(x) {
    const auto share = [&](uint64_t b) {
      return static_cast<uint64_t>(static_cast<unsigned __int128>(x.outputs.size()) * std::min(x.rows, b * block_size) /
                                   std::max<uint64_t>(x.rows, 1));
    };
    next_output_ = share(block);
    end_output_ = share(block + 1);
  }

  void fill(uint64_t r, csr_matrix& a, csr_matrix& b, csr_matrix& c, cover_cursor& cover_a, cover_cursor& cover_b) {
    uint64_t s = stream(x_.p.seed, row_terms, r);
    tb_.clear();
    for (uint64_t k = b.row_ptr[r]; k < b.row_ptr[r + 1]; ++k) {
      tb_.push_back(subset_term(cover_b, x_.sub_b, x_.zero_b, true, s));
    }
    const fr bv = sum(tb_);
    ta_.clear();
    for (uint64_t k = a.row_ptr[r]; k < a.row_ptr[r + 1]; ++k) {
      ta_.push_back(subset_term(cover_a, x_.sub_a, x_.zero_a, !bv.is_zero(), s));
    }
    tc_.clear();
    for (uint64_t k = c.row_ptr[r]; k + 1 < c.row_ptr[r + 1]; ++k) tc_.push_back(c_term(s));
    const term last = balance(bv, sum(tc_), s);
    tc_.push_back(last);
    write(a, r, ta_);
    write(b, r, tb_);
    write(c, r, tc_);
  }

 private:
  struct term {
    uint32_t col;
    coeff cf;
    bool known_zero;  // drawn from a list of zero-valued variables: adds nothing to the row sum
  };

  term subset_term(cover_cursor& cover, const subset& sub, const std::vector<uint32_t>& zeros, bool zero_valued,
                   uint64_t& s) const {
    term t;
    if (cover.covering()) {
      t = {sub.members[cover.member()], draw_coeff(x_.p, x_.table, s, true), false};
    } else if (zero_valued && !zeros.empty()) {
      t = {zeros[below(s, zeros.size())], draw_coeff(x_.p, x_.table, s, false), true};
    } else {
      const uint32_t col = sub.members.empty() || uniform01(s) < x_.p.input_terms
                               ? static_cast<uint32_t>(below(s, x_.aux0))
                               : sub.random_member(s);
      t = {col, draw_coeff(x_.p, x_.table, s, false), false};
    }
    cover.advance();
    return t;
  }

  term c_term(uint64_t& s) const {
    if (!x_.zero_any.empty()) {
      return {x_.zero_any[below(s, x_.zero_any.size())], draw_coeff(x_.p, x_.table, s, false), true};
    }
    const uint32_t col = x_.num_aux == 0 || uniform01(s) < x_.p.input_terms
                             ? static_cast<uint32_t>(below(s, x_.aux0))
                             : static_cast<uint32_t>(x_.aux0 + below(s, x_.num_aux));
    return {col, draw_coeff(x_.p, x_.table, s, false), false};
  }

  term zero_entry(uint64_t& s) const {
    if (x_.zero_any.empty()) return {0, coeff{}, false};
    return {x_.zero_any[below(s, x_.zero_any.size())], draw_coeff(x_.p, x_.table, s, true), true};
  }

  bool contributes(const term& t) const {
    return !t.known_zero && t.cf.kind != coeff_kind::zero && !x_.w[t.col].is_zero();
  }

  fr sum(const std::vector<term>& ts) const {
    fr acc = fr::zero();
    for (const term& t : ts) {
      if (!t.known_zero) accumulate(acc, t.cf, x_.w[t.col]);
    }
    return acc;
  }

  term balance(const fr& bv, const fr& cv, uint64_t& s) {
    fr delta = -cv;
    if (!bv.is_zero()) {
      delta = sum(ta_) * bv - cv;
      if (!delta.is_zero() && cv.is_zero()) {
        if (std::optional<term> t = balance_product(s)) return *t;
      }
    }
    if (delta.is_zero()) return zero_entry(s);
    if (next_output_ < end_output_ && !x_.zero_any.empty()) {
      const uint32_t v = x_.outputs[next_output_++];
      x_.w[v] = delta;  // c + 1 * w[v] = a * b
      return {v, coeff{coeff_kind::one, false, 0, fr::one()}, false};
    }
    return {0, coeff{coeff_kind::other, false, 0, delta}, false};
  }

  // b != 0, c = 0: the entry for a * b after cancelling A's terms (see the class comment).
  std::optional<term> balance_product(uint64_t& s) {
    nonzero_.clear();
    free_.clear();
    for (std::size_t i = 0; i < ta_.size(); ++i) {
      if (ta_[i].known_zero) {
        free_.push_back(i);
      } else if (contributes(ta_[i])) {
        nonzero_.push_back(i);
      }
    }
    std::size_t b_terms = 0, l = 0;
    for (std::size_t j = 0; j < tb_.size(); ++j) {
      if (contributes(tb_[j])) ++b_terms, l = j;
    }
    if (b_terms == 1 && nonzero_.size() <= free_.size() + 1) {
      const fr one = fr::one();
      const term& tl = tb_[l];
      const bool l_one = x_.w[tl.col] == one;
      for (std::size_t keep : nonzero_) {
        const term& tk = ta_[keep];
        const bool k_one = x_.w[tk.col] == one;
        if (!k_one && !l_one) continue;
        const std::optional<coeff> cf = product(x_.table, tk.cf, tl.cf);
        if (!cf) continue;
        const uint32_t col = k_one ? tl.col : tk.col;
        cancel_all_but(keep);
        return term{col, *cf, false};
      }
    }
    if (nonzero_.size() <= free_.size()) {
      cancel_all_but(ta_.size());
      return zero_entry(s);
    }
    return std::nullopt;
  }

  // Each contributing A term but ta_[keep] gets a free (zero-valued) term turned into its negation.
  void cancel_all_but(std::size_t keep) {
    std::size_t f = 0;
    for (std::size_t i : nonzero_) {
      if (i != keep) ta_[free_[f++]] = term{ta_[i].col, negate(ta_[i].cf), false};
    }
  }

  static void write(csr_matrix& m, uint64_t r, const std::vector<term>& ts) {
    const uint64_t k0 = m.row_ptr[r];
    for (std::size_t i = 0; i < ts.size(); ++i) {
      m.cols[k0 + i] = ts[i].col;
      m.coeffs[k0 + i] = ts[i].cf.value;
    }
  }

  const row_context& x_;
  uint64_t next_output_ = 0, end_output_ = 0;  // this block's unused outputs
  std::vector<term> ta_, tb_, tc_;       // the row's terms, reused from row to row
  std::vector<std::size_t> nonzero_, free_;  // balance_product's A terms: contributing / zero-valued
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
      !fraction(p.coeff_power_of_two) ||
      !(p.coeff_one + p.coeff_minus_one + p.coeff_zero + p.coeff_power_of_two <= 1)) {
    return invalid_argument(
        "synthetic: coeff_one, coeff_minus_one, coeff_zero and coeff_power_of_two must be in [0, 1] with sum <= 1");
  }
  if (p.num_constants < 1 || p.num_constants > max_constants) {
    return invalid_argument("synthetic: num_constants must be in [1, 2^20], got " + std::to_string(p.num_constants));
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
  // The lists the fill draws zero-valued variables and output variables from, and the coefficient
  // table. Aux variable 0 is no output: it is the member of an empty subset (list_members).
  std::vector<uint32_t> zero_any, zero_a, zero_b, outputs;
  coeff_table table;
  auto output = [&](uint64_t i) { return i > 0 && !sub_a.rule.contains(i) && !sub_b.rule.contains(i); };
  auto zero_valued = [&](uint64_t i) { return w[aux0 + i].is_zero(); };
  auto zero_in = [&](const subset& sub) {
    return [&zero_valued, rule = sub.rule](uint64_t i) { return zero_valued(i) && rule.contains(i); };
  };
  tbb::parallel_invoke(
      [&] { zero_any = list_where([&](uint64_t i) { return zero_valued(i) && !output(i); }, aux0, p.num_aux); },
      [&] { outputs = list_where(output, aux0, p.num_aux); },
      [&] { zero_a = list_where(zero_in(sub_a), aux0, p.num_aux); },
      [&] { zero_b = list_where(zero_in(sub_b), aux0, p.num_aux); },
      [&] { table = coeff_table::make(p.num_constants, stream(p.seed, table_constants, 0)); });

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

  const row_context ctx{p, table, w, sub_a, sub_b, zero_any, zero_a, zero_b, outputs, aux0, p.num_aux, rows};
  for_each_block(rows, [&](uint64_t blk, uint64_t begin, uint64_t end) {
    cover_cursor cover_a(a.row_ptr[begin], nnz_a, sub_a.members.size());
    cover_cursor cover_b(b.row_ptr[begin], nnz_b, sub_b.members.size());
    row_filler filler(ctx, blk);
    for (uint64_t r = begin; r < end; ++r) filler.fill(r, a, b, c, cover_a, cover_b);
  });

  auto cs = constraint_system::make(p.num_public, p.num_aux, std::move(a), std::move(b), std::move(c));
  if (!cs.ok()) return std::move(cs).take_status();
  return synthetic_circuit{std::move(cs).value(), std::move(w)};
}

}  // namespace pp::r1cs
