// Reference MSM: sum of [k_i] P_i by plain double-and-add, one point at a time. Slow (about
// 255 dbl + 128 add per point) and obviously right; every fast path is tested against it.
#pragma once
#include <span>

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"

namespace pp::msm {

// points.size() must equal scalars.size() (else the process stops: msm/length_check.hpp); scalars are the curve's Fr in Montgomery form.
template <class Curve>
ec::jacobian<Curve> naive_msm(std::span<const ec::affine<Curve>> points, std::span<const typename Curve::scalar_field> scalars);

}  // namespace pp::msm
