// The definitions behind pairing/miller_loop.hpp: the Miller loop's walk over the family's loop digits
// (ate_params.hpp): for every digit below the top one a doubling step, then an addition step with +-Q
// where the digit is nonzero; then BN254's two Frobenius steps. The same walk serves on-the-fly lines
// and prepared lines (g2_prepared.hpp). Included only by the per-family instantiation files
// (bls12_381_miller_loop.cpp, bn254_miller_loop.cpp): one translation unit per family keeps each
// family's inlining to itself (with both in one unit g++ 12 inlined BLS12-381's tower products less).
#pragma once
#include <utility>
#include <vector>

#include "pairing/miller_loop.hpp"

namespace pp::pairing {

namespace detail {

template <class Family>
using params = ate_params<Family>;

// on_double(first) for every digit below the top one, then on_add(negative) where it is nonzero.
template <class Family, class OnDouble, class OnAdd>
void for_each_step(OnDouble&& on_double, OnAdd&& on_add) {
  constexpr loop_digits loop = params<Family>::loop;
  static_assert(loop.d[0] == 1);
  for (int i = 1; i < loop.n; ++i) {
    on_double(i == 1);
    if (loop.d[i] != 0) on_add(loop.d[i] < 0);
  }
}

// The points of the Frobenius steps: psi(Q) and -psi^2(Q) (psi acts on G2 as [p]).
template <class Curve>
std::pair<ec::affine<Curve>, ec::affine<Curve>> frobenius_points(const ec::affine<Curve>& q) {
  const ec::affine<Curve> q1 = ec::endomorphism_psi(q);
  return {q1, ec::neg(ec::endomorphism_psi(q1))};
}

// A negative loop scalar: f_{x,Q} = 1/f_{|x|,Q} up to factors the final exponentiation removes; on the
// way there the inverse may be replaced by the conjugate f^(p^6) (they differ by f^(p^6 + 1), killed
// by p^6 - 1).
template <class Family>
gt_field<Family> apply_sign(const gt_field<Family>& f) {
  if constexpr (params<Family>::conjugate) {
    return f.conjugate();
  } else {
    return f;
  }
}

template <class Family>
struct active_term {
  using T = typename Family::tower;
  typename T::fp px, py;
  ec::affine<typename Family::g2_curve> q;
  twist_projective_t<T> t;
};

template <class Family>
gt_field<Family> run(std::vector<active_term<Family>>& terms) {
  using fp12 = gt_field<Family>;
  fp12 f = fp12::one();
  if (terms.empty()) return f;
  for_each_step<Family>(
      [&](bool first) {
        if (!first) f = f.sqr();
        for (auto& a : terms) f = mul_by_line<Family>(f, doubling_step<Family>(a.t), a.px, a.py);
      },
      [&](bool negative) {
        for (auto& a : terms) {
          f = mul_by_line<Family>(f, addition_step(a.t, a.q.x, negative ? -a.q.y : a.q.y), a.px, a.py);
        }
      });
  if constexpr (params<Family>::frobenius_lines) {
    for (auto& a : terms) {
      const auto [q1, q2] = frobenius_points(a.q);
      f = mul_by_line<Family>(f, addition_step(a.t, q1.x, q1.y), a.px, a.py);
      f = mul_by_line<Family>(f, addition_step(a.t, q2.x, q2.y), a.px, a.py);
    }
  }
  return apply_sign<Family>(f);
}

template <class Family>
void add_term(std::vector<active_term<Family>>& out, const ec::affine<typename Family::g1_curve>& p,
              const ec::affine<typename Family::g2_curve>& q) {
  if (ec::is_infinity(p) || ec::is_infinity(q)) return;
  using fp2 = ff::fp2_t<typename Family::tower>;
  out.push_back(active_term<Family>{p.x, p.y, q, twist_projective_t<typename Family::tower>{q.x, q.y, fp2::one()}});
}

}  // namespace detail

template <ec::curve_family Family>
auto ate_miller_loop<Family>::one(const g1_affine& p, const g2_affine& q) -> fp12 {
  std::vector<detail::active_term<Family>> terms;
  terms.reserve(1);
  detail::add_term<Family>(terms, p, q);
  return detail::run<Family>(terms);
}

template <ec::curve_family Family>
auto ate_miller_loop<Family>::product(std::span<const pairing_term_t<Family>> terms) -> fp12 {
  std::vector<detail::active_term<Family>> active;
  active.reserve(terms.size());
  for (const auto& t : terms) detail::add_term<Family>(active, t.g1, t.g2);
  return detail::run<Family>(active);
}

template <ec::curve_family Family>
g2_prepared_t<Family> ate_miller_loop<Family>::prepare(const g2_affine& q) {
  using T = typename Family::tower;
  g2_prepared_t<Family> out;
  if (ec::is_infinity(q)) return out;
  twist_projective_t<T> t{q.x, q.y, ff::fp2_t<T>::one()};
  detail::for_each_step<Family>(
      [&](bool) { out.lines.push_back(doubling_step<Family>(t)); },
      [&](bool negative) { out.lines.push_back(addition_step(t, q.x, negative ? -q.y : q.y)); });
  if constexpr (detail::params<Family>::frobenius_lines) {
    const auto [q1, q2] = detail::frobenius_points(q);
    out.lines.push_back(addition_step(t, q1.x, q1.y));
    out.lines.push_back(addition_step(t, q2.x, q2.y));
  }
  return out;
}

template <ec::curve_family Family>
auto ate_miller_loop<Family>::product(std::span<const prepared_term_t<Family>> terms) -> fp12 {
  std::vector<prepared_term_t<Family>> active;
  active.reserve(terms.size());
  for (const auto& t : terms) {
    if (!ec::is_infinity(t.g1) && t.g2 != nullptr && !t.g2->is_infinity()) active.push_back(t);
  }
  fp12 f = fp12::one();
  if (active.empty()) return f;
  size_t line = 0;
  const auto apply = [&] {
    for (const auto& a : active) f = mul_by_line<Family>(f, a.g2->lines[line], a.g1.x, a.g1.y);
    ++line;
  };
  detail::for_each_step<Family>(
      [&](bool first) {
        if (!first) f = f.sqr();
        apply();
      },
      [&](bool) { apply(); });
  if constexpr (detail::params<Family>::frobenius_lines) {
    apply();
    apply();
  }
  return detail::apply_sign<Family>(f);
}

}  // namespace pp::pairing
