// Reference MSM (msm/naive_msm.hpp); included only by the instantiation files (msm/instantiate.hpp).
#pragma once
#include "msm/naive_msm.hpp"

#include "ec/scalar_mul.hpp"
#include "msm/length_check.hpp"

namespace pp::msm {

template <class Curve>
ec::jacobian<Curve> naive_msm(std::span<const ec::affine<Curve>> points,
                              std::span<const typename Curve::scalar_field> scalars) {
  detail::check_lengths("naive_msm", points.size(), scalars.size());
  auto acc = ec::jacobian<Curve>::infinity();
  for (std::size_t i = 0; i < points.size(); ++i) acc = ec::add(acc, ec::scalar_mul(points[i], scalars[i]));
  return acc;
}

}  // namespace pp::msm
