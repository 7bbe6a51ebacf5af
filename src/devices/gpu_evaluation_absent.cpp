// gpu_evaluation.hpp in a build without the CUDA backend (nvcc was not found).
#include "devices/gpu_evaluation.hpp"

namespace pp::devices {

result<std::vector<std::unique_ptr<groth16::evaluation_backend>>> make_gpu_evaluation_backends(
    const gpu_device_options&) {
  return unavailable("this build of proofpipe has no CUDA backend (nvcc was not found when it was configured)");
}

}  // namespace pp::devices
