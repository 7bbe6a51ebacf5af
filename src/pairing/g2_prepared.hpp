// Miller-loop line coefficients of a fixed G2 point, computed once (a verifying key's beta, gamma,
// delta): pairings with a prepared Q skip all twist-point arithmetic and only evaluate the lines at P.
// Host code; 68 lines (63 doubling + 5 addition steps) of 3 Fp2 each, ~19.6 KB per point.
#pragma once
#include <span>
#include <vector>

#include "ec/affine.hpp"
#include "pairing/line_functions.hpp"

namespace pp::pairing {

struct g2_prepared {
  std::vector<line_coeffs> lines;  // in loop order; empty for the point at infinity
  [[nodiscard]] bool is_infinity() const { return lines.empty(); }
};

// One factor e(g1, g2) of a pairing product with a prepared G2 point (g2 must outlive the call).
struct prepared_term {
  ec::g1_affine g1;
  const g2_prepared* g2;
};

[[nodiscard]] g2_prepared prepare_g2(const ec::g2_affine& q);

// Same value as multi_miller_loop over the unprepared points; infinity terms contribute 1.
[[nodiscard]] ff::fp12 multi_miller_loop(std::span<const prepared_term> terms);

}  // namespace pp::pairing
