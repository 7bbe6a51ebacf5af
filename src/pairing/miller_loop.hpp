// The Miller loop of the optimal ate pairing, written once over the curve family
// (pairing/ate_params.hpp): BLS12-381's f_{|x|,Q}(P) conjugated (x < 0), BN254's f_{6x+2,Q}(P) times
// the two Frobenius lines. Several (P, Q) pairs share one accumulator, so the Fp12 squarings are paid
// once per product (eprint 2010/354 §3, "products of pairings"). Host code; the definitions are in
// miller_loop_impl.hpp, instantiated in bls12_381_miller_loop.cpp and bn254_miller_loop.cpp.
#pragma once
#include <concepts>
#include <ranges>
#include <span>

#include "ec/ec.hpp"
#include "pairing/g2_prepared.hpp"

namespace pp::pairing {

// One factor e(g1, g2) of a pairing product.
template <class Family>
struct pairing_term_t {
  using family = Family;
  ec::affine<typename Family::g1_curve> g1;
  ec::affine<typename Family::g2_curve> g2;
};
using pairing_term = pairing_term_t<ec::bls12_381::family>;

// The pairing's target field of a family: Fp12 of its tower.
template <class Family>
using gt_field = ff::fp12_t<typename Family::tower>;

template <ec::curve_family Family>
struct ate_miller_loop {
  using fp12 = gt_field<Family>;
  using g1_affine = ec::affine<typename Family::g1_curve>;
  using g2_affine = ec::affine<typename Family::g2_curve>;

  // Miller loop of one pair; 1 when either point is infinity. Points must lie in G1 and G2.
  [[nodiscard]] static fp12 one(const g1_affine& p, const g2_affine& q);
  // Product of the Miller loops of all terms, with one shared accumulator; infinity terms contribute 1.
  [[nodiscard]] static fp12 product(std::span<const pairing_term_t<Family>> terms);
  // Same value as product over the unprepared points; infinity terms contribute 1.
  [[nodiscard]] static fp12 product(std::span<const prepared_term_t<Family>> terms);
  [[nodiscard]] static g2_prepared_t<Family> prepare(const g2_affine& q);
};
extern template struct ate_miller_loop<ec::bls12_381::family>;
extern template struct ate_miller_loop<ec::bn254::family>;

// A G1 curve (not a G2 one) of some family.
template <class C>
concept g1_curve_of_family = std::same_as<C, typename C::family::g1_curve>;

// A contiguous range of pairing terms (pairing_term_t or prepared_term_t) of one family.
template <class R>
concept term_range = std::ranges::contiguous_range<R> && std::ranges::sized_range<R> && requires {
  typename std::ranges::range_value_t<R>::family;
};

// The terms of r as a span of const terms.
template <term_range R>
auto const_terms(R&& r) {
  return std::span<const std::ranges::range_value_t<R>>(std::ranges::data(r), std::ranges::size(r));
}

// The names callers use; the family comes from the argument types.
template <g1_curve_of_family C1>
[[nodiscard]] gt_field<typename C1::family> miller_loop(const ec::affine<C1>& p,
                                                        const ec::affine<typename C1::family::g2_curve>& q) {
  return ate_miller_loop<typename C1::family>::one(p, q);
}
template <term_range R>
[[nodiscard]] auto multi_miller_loop(R&& terms) {
  return ate_miller_loop<typename std::ranges::range_value_t<R>::family>::product(const_terms(terms));
}
template <class C2>
  requires std::same_as<C2, typename C2::family::g2_curve>
[[nodiscard]] g2_prepared_t<typename C2::family> prepare_g2(const ec::affine<C2>& q) {
  return ate_miller_loop<typename C2::family>::prepare(q);
}

}  // namespace pp::pairing
