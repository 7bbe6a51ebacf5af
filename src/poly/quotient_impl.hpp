// compute_quotient: the coset evaluations are kept in bit-reversed order between the forward coset
// NTT (nr, no permutation) and the inverse (rn, no permutation): the pointwise step does not care
// about the order, so the only permutations left are the one per input inside intt (nn) and, for
// the evaluation form, one on the output. The coefficient form takes C's coefficients straight from
// c (quotient.hpp says why). Included only by the instantiation files (poly/<curve>_instances.cpp).
#pragma once
#include "poly/quotient.hpp"

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include <string>

#include "core/status_macros.hpp"
#include "poly/bit_reverse.hpp"
#include "poly/ntt_impl.hpp"

namespace pp::poly {

template <class Fr>
status compute_quotient(const basic_evaluation_domain<Fr>& d, std::span<std::type_identity_t<Fr>> a,
                        std::span<std::type_identity_t<Fr>> b, std::span<std::type_identity_t<Fr>> c, quotient_form form) {
  if (a.size() != d.size() || b.size() != d.size() || c.size() != d.size()) {
    return invalid_argument("compute_quotient: a, b, c must each have the domain size " + std::to_string(d.size()) +
                            ", got " + std::to_string(a.size()) + ", " + std::to_string(b.size()) + ", " +
                            std::to_string(c.size()));
  }
  const Fr z_inv = d.vanishing_on_coset_inv();
  const auto pointwise = [&a](auto&& f) {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, a.size(), 4096), [&](const tbb::blocked_range<std::size_t>& r) {
      for (std::size_t i = r.begin(); i < r.end(); ++i) f(i);
    });
  };
  const auto to_coset = [&d](std::span<Fr> v) -> status {
    PP_RETURN_IF_ERROR(intt<Fr>(d, v, ntt_order::nn));
    return coset_ntt<Fr>(d, v, ntt_order::nr);
  };
  PP_RETURN_IF_ERROR(to_coset(a));
  PP_RETURN_IF_ERROR(to_coset(b));
  if (form == quotient_form::coefficients) {
    pointwise([&](std::size_t i) { a[i] *= b[i]; });
    PP_RETURN_IF_ERROR(coset_intt<Fr>(d, a, ntt_order::rn));
    PP_RETURN_IF_ERROR(intt<Fr>(d, c, ntt_order::nn));
    pointwise([&](std::size_t i) { a[i] = (a[i] - c[i]) * z_inv; });
    return ok_status();
  }
  PP_RETURN_IF_ERROR(to_coset(c));
  pointwise([&](std::size_t i) { a[i] = (a[i] * b[i] - c[i]) * z_inv; });
  return bit_reverse_permute(a);
}

}  // namespace pp::poly
