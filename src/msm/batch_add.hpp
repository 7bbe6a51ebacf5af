// Sum of many affine points (the "scalar is 1" part of a split MSM) by batch-affine addition:
// points are added pairwise in a tree, each level sharing one field inversion across all its pairs
// (Montgomery's trick), which makes an affine addition ~5M + 1S instead of a mixed addition's 8M + 2S.
#pragma once
#include <span>

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "msm/msm_options.hpp"

namespace pp::msm {

// Sum of points; infinity points contribute nothing, P + P and P + (-P) are handled; n = 0 gives
// infinity. Multi-threaded over all threads oneTBB offers.
template <class Curve>
ec::jacobian<Curve> batch_sum(std::span<const ec::affine<Curve>> points);

// Same with a thread cap (options.max_threads; window_bits is unused).
template <class Curve>
ec::jacobian<Curve> batch_sum(std::span<const ec::affine<Curve>> points, const msm_options& options);

}  // namespace pp::msm
