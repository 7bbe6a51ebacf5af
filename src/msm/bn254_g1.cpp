// The msm layer for BN254's G1 (msm/instantiate.hpp).
#include "ec/bn254_curves.hpp"
#include "msm/instantiate.hpp"

namespace pp::msm {

PP_MSM_INSTANTIATE(ec::bn254::g1_curve);

}  // namespace pp::msm
