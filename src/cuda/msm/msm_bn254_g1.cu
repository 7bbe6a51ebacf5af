// GPU MSM over BN254's G1 (msm_device.hpp, msm_precompute.hpp): the kernels and launch sequences of
// msm_run.cuh and msm_precompute_run.cuh for ec::bn254::g1_curve, scalars ff::bn254::fr.
#include "cuda/msm/msm_precompute_run.cuh"
#include "cuda/msm/msm_run.cuh"

namespace pp::cuda {
PP_CUDA_INSTANTIATE_MSM(ec::bn254::g1_curve)
PP_CUDA_INSTANTIATE_MSM_PRECOMPUTE(ec::bn254::g1_curve)
}  // namespace pp::cuda
