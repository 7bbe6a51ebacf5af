// The msm layer for BLS12-381's G1 (msm/instantiate.hpp).
#include "ec/bls12_381_curves.hpp"
#include "msm/instantiate.hpp"

namespace pp::msm {

PP_MSM_INSTANTIATE(ec::g1_curve);

}  // namespace pp::msm
