#include "engine/device_choice.hpp"

#include <string>

#include "core/status_macros.hpp"

namespace pp::engine {

result<bool> choose_devices(std::string_view backend, uint32_t workers, devices::gpu_device_options gpu,
                            engine_config& cfg) {
  if (backend != "cpu" && backend != "cuda" && backend != "auto") {
    return invalid_argument("backend: expected cpu, cuda or auto, got \"" + std::string(backend) + "\"");
  }
  bool gpus = false;
  if (backend != "cpu") {
    PP_ASSIGN_OR_RETURN(const int count, devices::gpu_count());
    if (backend == "cuda" && count == 0) {
      return failed_precondition(std::string("backend \"cuda\" but ") +
                                 (devices::gpu_support_built() ? "no GPU is present" : "this build has no CUDA backend") +
                                 "; use \"auto\" or \"cpu\"");
    }
    gpus = count > 0;
  }
  cfg.workers_per_device = workers != 0 ? workers : gpus ? 2 : 1;
  if (gpus) {
    gpu.lanes = cfg.workers_per_device;
    cfg.make_devices = [gpu, bn254_cpu = cfg.bn254_cpu_device]() -> result<std::vector<device_ptr>> {
      PP_ASSIGN_OR_RETURN(std::vector<device_ptr> devs, devices::make_gpu_devices(gpu));
      if (bn254_cpu) devs.push_back(devices::make_cpu_device("cpu0", devices::cpu_curves::bn254_only));
      return devs;
    };
  }
  return gpus;
}

}  // namespace pp::engine
