// The msm layer's templates, defined in the *_impl.hpp headers, instantiated for one curve: one file
// per curve (bls12_381_g1.cpp, bls12_381_g2.cpp, bn254_g1.cpp, bn254_g2.cpp) expands
// PP_MSM_INSTANTIATE once, so each curve's hot loops are compiled and inlined as if they were the
// only ones, and the four heavy units build in parallel.
#pragma once
#include "msm/batch_add_impl.hpp"
#include "msm/naive_msm_impl.hpp"
#include "msm/pippenger_impl.hpp"
#include "msm/split_msm_impl.hpp"

#define PP_MSM_INSTANTIATE(Curve)                                                                           \
  template ec::jacobian<Curve> naive_msm<Curve>(std::span<const ec::affine<Curve>>,                         \
                                                std::span<const typename Curve::scalar_field>);             \
  template ec::jacobian<Curve> pippenger<Curve>(std::span<const ec::affine<Curve>>,                         \
                                                std::span<const typename Curve::scalar_field>, const msm_options&); \
  template ec::jacobian<Curve> pippenger_canonical<Curve>(std::span<const ec::affine<Curve>>,               \
                                                          std::span<const canonical_scalar>, const msm_options&); \
  template ec::jacobian<Curve> batch_sum<Curve>(std::span<const ec::affine<Curve>>, const msm_options&);    \
  template ec::jacobian<Curve> batch_sum<Curve>(std::span<const ec::affine<Curve>>);                        \
  template ec::jacobian<Curve> split_msm<Curve>(std::span<const ec::affine<Curve>>,                         \
                                                std::span<const typename Curve::scalar_field>, const msm_options&, \
                                                split_stats*)
