// GPU fixed-base multiplication over G2 (fixed_base_device.hpp): the kernel of fixed_base_kernels.cuh
// for g2_curve.
#include "cuda/setup/fixed_base_kernels.cuh"

namespace pp::cuda {
PP_CUDA_INSTANTIATE_FIXED_BASE(ec::g2_curve)
}  // namespace pp::cuda
