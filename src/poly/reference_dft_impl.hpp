// Naive DFT and polynomial evaluation, single threaded: 2n^2 multiplications for dft. Included only
// by the instantiation files (poly/<curve>_instances.cpp).
#pragma once
#include "poly/reference_dft.hpp"

namespace pp::poly::reference {

template <class Fr>
std::vector<Fr> dft(std::span<const std::type_identity_t<Fr>> a, const Fr& root) {
  const std::size_t n = a.size();
  std::vector<Fr> out(n, Fr::zero());
  Fr wk = Fr::one();  // root^k
  for (std::size_t k = 0; k < n; ++k) {
    Fr acc = Fr::zero();
    Fr wjk = Fr::one();  // root^(j*k)
    for (std::size_t j = 0; j < n; ++j) {
      acc += a[j] * wjk;
      wjk *= wk;
    }
    out[k] = acc;
    wk *= root;
  }
  return out;
}

template <class Fr>
Fr evaluate(std::span<const std::type_identity_t<Fr>> coeffs, const Fr& x) {
  Fr acc = Fr::zero();
  for (std::size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
  return acc;
}

}  // namespace pp::poly::reference
