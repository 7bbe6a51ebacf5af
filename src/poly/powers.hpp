// Geometric sequences over Fr: tables of powers (twiddles) and "multiply element i by c * s^i"
// (the coset shift of a coefficient vector). Both run in parallel on the current oneTBB arena.
#pragma once
#include <span>

#include "ff/fr.hpp"

namespace pp::poly {

// out[i] = c * base^i for every i.
void fill_powers(std::span<ff::fr> out, const ff::fr& base, const ff::fr& c = ff::fr::one());

// a[i] *= c * s^i for every i: with s = g it maps coefficients of p(x) to those of p(g*x).
// c folds a constant factor (such as 1/n after an inverse NTT) into the same pass.
void distribute_powers(std::span<ff::fr> a, const ff::fr& s, const ff::fr& c = ff::fr::one());

}  // namespace pp::poly
