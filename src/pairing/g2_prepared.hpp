// Miller-loop line coefficients of a fixed G2 point, computed once (a verifying key's beta, gamma,
// delta): pairings with a prepared Q skip all twist-point arithmetic and only evaluate the lines at P.
// Host code. BLS12-381: 68 lines (63 doubling + 5 addition steps) of 3 Fp2 each, ~19.6 KB per point;
// BN254: 88 lines (65 doubling, 21 addition and 2 Frobenius steps), ~16.9 KB.
#pragma once
#include <vector>

#include "ec/affine.hpp"
#include "pairing/line_functions.hpp"

namespace pp::pairing {

template <class Family>
struct g2_prepared_t {
  using family = Family;
  std::vector<line_coeffs_t<typename Family::tower>> lines;  // in loop order; empty for infinity
  [[nodiscard]] bool is_infinity() const { return lines.empty(); }
};

// One factor e(g1, g2) of a pairing product with a prepared G2 point (g2 must outlive the call).
template <class Family>
struct prepared_term_t {
  using family = Family;
  ec::affine<typename Family::g1_curve> g1;
  const g2_prepared_t<Family>* g2;
};

using g2_prepared = g2_prepared_t<ec::bls12_381::family>;
using prepared_term = prepared_term_t<ec::bls12_381::family>;

}  // namespace pp::pairing
