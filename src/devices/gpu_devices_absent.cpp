// gpu_devices (gpu_devices.hpp) in a build without the CUDA backend (nvcc was not found).
#include "devices/gpu_devices.hpp"

namespace pp::devices {

bool gpu_support_built() { return false; }

result<int> gpu_count() { return 0; }

result<std::vector<gpu_facts>> query_gpus() { return std::vector<gpu_facts>{}; }

result<std::vector<device_ptr>> make_gpu_devices(const gpu_device_options&) {
  return unavailable("this build of proofpipe has no CUDA backend (nvcc was not found when it was configured)");
}

result<std::unique_ptr<groth16::fixed_base_multiplier>> make_gpu_fixed_base_multiplier(int) {
  return unavailable("this build of proofpipe has no CUDA backend (nvcc was not found when it was configured)");
}

}  // namespace pp::devices
