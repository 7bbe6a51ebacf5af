// GPU fixed-base multiplication over G1 (fixed_base_device.hpp): the kernel of fixed_base_kernels.cuh
// for g1_curve.
#include "cuda/setup/fixed_base_kernels.cuh"

namespace pp::cuda {
PP_CUDA_INSTANTIATE_FIXED_BASE(ec::g1_curve)
}  // namespace pp::cuda
