// Geometric sequences over a scalar field Fr (either curve's): tables of powers (twiddles) and
// "multiply element i by c * s^i" (the coset shift of a coefficient vector). Both run in parallel on
// the current oneTBB arena. Fr is deduced from the base; instantiated in poly/<curve>_instances.cpp.
#pragma once
#include <span>
#include <type_traits>

namespace pp::poly {

// out[i] = c * base^i for every i.
template <class Fr>
void fill_powers(std::span<std::type_identity_t<Fr>> out, const Fr& base, const Fr& c = Fr::one());

// a[i] *= c * s^i for every i: with s = g it maps coefficients of p(x) to those of p(g*x).
// c folds a constant factor (such as 1/n after an inverse NTT) into the same pass.
template <class Fr>
void distribute_powers(std::span<std::type_identity_t<Fr>> a, const Fr& s, const Fr& c = Fr::one());

}  // namespace pp::poly
