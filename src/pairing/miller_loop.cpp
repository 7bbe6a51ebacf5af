// Miller loop over the bits of |x| = 0xd201000000010000 (64 bits, Hamming weight 6): 63 doubling
// steps and 5 addition steps per pair; 62 shared Fp12 squarings (the first one squares 1). The same
// walk serves on-the-fly lines (miller_loop.hpp) and prepared lines (g2_prepared.hpp).
#include "pairing/miller_loop.hpp"

#include <bit>
#include <vector>

#include "pairing/g2_prepared.hpp"

namespace pp::pairing {

namespace {

constexpr uint64_t loop_count = ff::tower_params::seed_abs;
constexpr int loop_top_bit = 63;
static_assert(loop_count >> loop_top_bit == 1);

// Walks the loop from the bit below the top: on_double(first) for every bit, then on_add() if it is set.
template <class OnDouble, class OnAdd>
void for_each_step(OnDouble&& on_double, OnAdd&& on_add) {
  for (int i = loop_top_bit - 1; i >= 0; --i) {
    on_double(i == loop_top_bit - 1);
    if ((loop_count >> i) & 1) on_add();
  }
}

// x < 0: f_{x,Q} = 1/f_{|x|,Q} up to factors the final exponentiation removes; on the way there
// the inverse may be replaced by the conjugate f^(p^6) (they differ by f^(p^6 + 1), killed by p^6 - 1).
ff::fp12 apply_seed_sign(const ff::fp12& f) {
  static_assert(ff::tower_params::seed_is_negative);
  return f.conjugate();
}

struct active_term {
  ff::fp px, py;
  ff::fp2 qx, qy;
  twist_projective t;
};

ff::fp12 run(std::vector<active_term>& terms) {
  ff::fp12 f = ff::fp12::one();
  if (terms.empty()) return f;
  for_each_step(
      [&](bool first) {
        if (!first) f = f.sqr();
        for (active_term& a : terms) f = mul_by_line(f, doubling_step(a.t), a.px, a.py);
      },
      [&] {
        for (active_term& a : terms) f = mul_by_line(f, addition_step(a.t, a.qx, a.qy), a.px, a.py);
      });
  return apply_seed_sign(f);
}

void add_term(std::vector<active_term>& out, const ec::g1_affine& p, const ec::g2_affine& q) {
  if (ec::is_infinity(p) || ec::is_infinity(q)) return;
  out.push_back(active_term{p.x, p.y, q.x, q.y, twist_projective{q.x, q.y, ff::fp2::one()}});
}

}  // namespace

ff::fp12 miller_loop(const ec::g1_affine& p, const ec::g2_affine& q) {
  std::vector<active_term> terms;
  terms.reserve(1);
  add_term(terms, p, q);
  return run(terms);
}

ff::fp12 multi_miller_loop(std::span<const pairing_term> terms) {
  std::vector<active_term> active;
  active.reserve(terms.size());
  for (const pairing_term& t : terms) add_term(active, t.g1, t.g2);
  return run(active);
}

g2_prepared prepare_g2(const ec::g2_affine& q) {
  g2_prepared out;
  if (ec::is_infinity(q)) return out;
  out.lines.reserve(loop_top_bit + std::popcount(loop_count) - 1);
  twist_projective t{q.x, q.y, ff::fp2::one()};
  for_each_step([&](bool) { out.lines.push_back(doubling_step(t)); },
                [&] { out.lines.push_back(addition_step(t, q.x, q.y)); });
  return out;
}

ff::fp12 multi_miller_loop(std::span<const prepared_term> terms) {
  std::vector<prepared_term> active;
  active.reserve(terms.size());
  for (const prepared_term& t : terms) {
    if (!ec::is_infinity(t.g1) && t.g2 != nullptr && !t.g2->is_infinity()) active.push_back(t);
  }
  ff::fp12 f = ff::fp12::one();
  if (active.empty()) return f;
  size_t line = 0;
  const auto apply = [&] {
    for (const prepared_term& a : active) f = mul_by_line(f, a.g2->lines[line], a.g1.x, a.g1.y);
    ++line;
  };
  for_each_step(
      [&](bool first) {
        if (!first) f = f.sqr();
        apply();
      },
      apply);
  return apply_seed_sign(f);
}

}  // namespace pp::pairing
