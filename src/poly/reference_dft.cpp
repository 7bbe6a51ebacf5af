// Naive DFT and polynomial evaluation, single threaded: 2n^2 multiplications for dft.
#include "poly/reference_dft.hpp"

namespace pp::poly::reference {

using ff::fr;

std::vector<fr> dft(std::span<const fr> a, const fr& root) {
  const std::size_t n = a.size();
  std::vector<fr> out(n, fr::zero());
  fr wk = fr::one();  // root^k
  for (std::size_t k = 0; k < n; ++k) {
    fr acc = fr::zero();
    fr wjk = fr::one();  // root^(j*k)
    for (std::size_t j = 0; j < n; ++j) {
      acc += a[j] * wjk;
      wjk *= wk;
    }
    out[k] = acc;
    wk *= root;
  }
  return out;
}

fr evaluate(std::span<const fr> coeffs, const fr& x) {
  fr acc = fr::zero();
  for (std::size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
  return acc;
}

}  // namespace pp::poly::reference
