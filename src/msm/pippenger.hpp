// Multi-threaded host Pippenger MSM: signed (Booth) digits so each window has 2^(c-1) buckets,
// XYZZ buckets filled by mixed addition, running-sum bucket reduction, windows combined by
// doubling. Work is split into (window, point-chunk) tasks for oneTBB; see msm/window.hpp. G1
// scalars are split in two 128-bit halves by the curve's endomorphism (msm/glv.hpp).
#pragma once
#include <span>

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "msm/booth.hpp"
#include "msm/msm_options.hpp"

namespace pp::msm {

// Sum of [scalars[i]] points[i]. Scalars are the curve's Fr in Montgomery form (converted once, in parallel).
// points.size() must equal scalars.size() (else the process stops: msm/length_check.hpp); infinity points contribute nothing; n = 0 gives infinity.
template <class Curve>
ec::jacobian<Curve> pippenger(std::span<const ec::affine<Curve>> points, std::span<const typename Curve::scalar_field> scalars,
                              const msm_options& options = {});

// Same, for callers that already hold canonical scalars (each < r), e.g. split_msm.
template <class Curve>
ec::jacobian<Curve> pippenger_canonical(std::span<const ec::affine<Curve>> points,
                                        std::span<const canonical_scalar> scalars,
                                        const msm_options& options = {});

}  // namespace pp::msm
