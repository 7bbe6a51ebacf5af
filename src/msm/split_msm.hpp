// Split MSM for witness-like scalars (docs/design.md, "The workload"): scalars equal to 0 are skipped, points
// whose scalar is 1 are summed by batch-affine addition (msm/batch_add.hpp), and Pippenger runs only
// on the rest. In a Filecoin-like witness most scalars are 0 or 1, so most points skip Pippenger.
#pragma once
#include <cstdint>
#include <span>

#include "ec/affine.hpp"
#include "ec/jacobian.hpp"
#include "msm/msm_options.hpp"

namespace pp::msm {

// How the scalars were classified: zeros + ones + others = n.
struct split_stats {
  uint64_t zeros, ones, others;
};

// Same result as pippenger(points, scalars, options); stats, when given, receives the counts.
template <class Curve>
ec::jacobian<Curve> split_msm(std::span<const ec::affine<Curve>> points, std::span<const typename Curve::scalar_field> scalars,
                              const msm_options& options = {}, split_stats* stats = nullptr);

}  // namespace pp::msm
