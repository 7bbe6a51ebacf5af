// GPU MSM over G1 (msm_device.hpp): the kernels and launch sequence of msm_run.cuh for g1_curve.
#include "cuda/msm_run.cuh"

namespace pp::cuda {
PP_CUDA_INSTANTIATE_MSM(ec::g1_curve)
}  // namespace pp::cuda
