// reference::dft: the O(n^2) textbook DFT, the oracle the fast NTTs are tested against.
// Deliberately shares no code with ntt_impl.hpp (no twiddle tables, no butterflies).
#pragma once
#include <span>
#include <type_traits>
#include <vector>

namespace pp::poly::reference {

// out[k] = sum_j a[j] * root^(j*k) for k < a.size(); root should have order a.size().
template <class Fr>
[[nodiscard]] std::vector<Fr> dft(std::span<const std::type_identity_t<Fr>> a, const Fr& root);

// p(x) = sum_i coeffs[i] x^i by Horner's rule.
template <class Fr>
[[nodiscard]] Fr evaluate(std::span<const std::type_identity_t<Fr>> coeffs, const Fr& x);

}  // namespace pp::poly::reference
