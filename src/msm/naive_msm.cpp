// Reference MSM (msm/naive_msm.hpp), instantiated for G1 and G2.
#include "msm/naive_msm.hpp"

#include "ec/scalar_mul.hpp"
#include "msm/length_check.hpp"

namespace pp::msm {

template <class Curve>
ec::jacobian<Curve> naive_msm(std::span<const ec::affine<Curve>> points, std::span<const ff::fr> scalars) {
  detail::check_lengths("naive_msm", points.size(), scalars.size());
  auto acc = ec::jacobian<Curve>::infinity();
  for (std::size_t i = 0; i < points.size(); ++i) acc = ec::add(acc, ec::scalar_mul(points[i], scalars[i]));
  return acc;
}

template ec::jacobian<ec::g1_curve> naive_msm(std::span<const ec::g1_affine>, std::span<const ff::fr>);
template ec::jacobian<ec::g2_curve> naive_msm(std::span<const ec::g2_affine>, std::span<const ff::fr>);

}  // namespace pp::msm
