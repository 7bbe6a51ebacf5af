// Device instances of the field operations checked by field_test.cpp.
#include "run_on_device.cuh"

namespace pp::cuda::test {
PP_INSTANTIATE_RUN_ON_DEVICE(fp_mul)
PP_INSTANTIATE_RUN_ON_DEVICE(fp_sqr)
PP_INSTANTIATE_RUN_ON_DEVICE(fp_add)
PP_INSTANTIATE_RUN_ON_DEVICE(fp_sub)
PP_INSTANTIATE_RUN_ON_DEVICE(fp_neg)
PP_INSTANTIATE_RUN_ON_DEVICE(fr_mul)
PP_INSTANTIATE_RUN_ON_DEVICE(fr_sqr)
PP_INSTANTIATE_RUN_ON_DEVICE(fr_add)
PP_INSTANTIATE_RUN_ON_DEVICE(fr_sub)
PP_INSTANTIATE_RUN_ON_DEVICE(fp2_mul)
PP_INSTANTIATE_RUN_ON_DEVICE(fp2_sqr)
PP_INSTANTIATE_RUN_ON_DEVICE(fp2_add)
PP_INSTANTIATE_RUN_ON_DEVICE(fp2_sub)
}  // namespace pp::cuda::test
