// GPU MSM over G2 (msm_device.hpp, msm_precompute.hpp): the kernels and launch sequences of msm_run.cuh
// and msm_precompute_run.cuh for g2_curve.
#include "cuda/msm/msm_precompute_run.cuh"
#include "cuda/msm/msm_run.cuh"

namespace pp::cuda {
PP_CUDA_INSTANTIATE_MSM(ec::g2_curve)
PP_CUDA_INSTANTIATE_MSM_PRECOMPUTE(ec::g2_curve)
}  // namespace pp::cuda
