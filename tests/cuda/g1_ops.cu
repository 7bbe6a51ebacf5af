// Device instances of the G1 point operations checked by curve_test.cpp.
#include "run_on_device.cuh"

namespace pp::cuda::test {
PP_INSTANTIATE_RUN_ON_DEVICE(g1_xyzz_add)
PP_INSTANTIATE_RUN_ON_DEVICE(g1_xyzz_madd)
PP_INSTANTIATE_RUN_ON_DEVICE(g1_xyzz_dbl)
PP_INSTANTIATE_RUN_ON_DEVICE(g1_jac_add)
PP_INSTANTIATE_RUN_ON_DEVICE(g1_jac_madd)
PP_INSTANTIATE_RUN_ON_DEVICE(g1_jac_dbl)
}  // namespace pp::cuda::test
