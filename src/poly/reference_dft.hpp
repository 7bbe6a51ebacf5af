// reference::dft: the O(n^2) textbook DFT, the oracle the fast NTTs are tested against.
// Deliberately shares no code with ntt.cpp (no twiddle tables, no butterflies).
#pragma once
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace pp::poly::reference {

// out[k] = sum_j a[j] * root^(j*k) for k < a.size(); root should have order a.size().
[[nodiscard]] std::vector<ff::fr> dft(std::span<const ff::fr> a, const ff::fr& root);

// p(x) = sum_i coeffs[i] x^i by Horner's rule.
[[nodiscard]] ff::fr evaluate(std::span<const ff::fr> coeffs, const ff::fr& x);

}  // namespace pp::poly::reference
