// GPU MSM over G2 (msm_device.hpp): the kernels and launch sequence of msm_run.cuh for g2_curve.
#include "cuda/msm_run.cuh"

namespace pp::cuda {
PP_CUDA_INSTANTIATE_MSM(ec::g2_curve)
}  // namespace pp::cuda
